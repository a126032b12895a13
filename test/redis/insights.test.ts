import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { startBotsOnRedis, type BotsOnRedis } from '../support/bots-on-redis.js';
import { ChartDouble } from '../support/chart-double.js';
import { LICENSE_KEY } from '../support/harness.js';
import { textOf } from '../support/ui.js';

/**
 * Two bots on one Redis: the insights they count add up (atomic increments, never one process's
 * batch over the other's), a member counted by both is still one member a day, and the weekly
 * digest is posted once whichever process runs its round, also after one restarts.
 */

describe('two bots on one Redis counting insights and posting the weekly digest', () => {
  let env: BotsOnRedis;
  let guild: string;
  beforeAll(async () => {
    env = await startBotsOnRedis('insights', 2, { chartRenderer: () => new ChartDouble() });
    guild = env.discord.defaultGuildId;
  });
  afterAll(() => env.close());

  const report = () =>
    env.bots[0]!.services.insights.report({ guildId: guild, license: LICENSE_KEY, period: '7d', server: '', chart: { locale: 'en', words: en.insights.chartWords, title: 't' } });

  it('adds up both processes’ counts, each member once a day', async () => {
    const [a, b] = env.bots.map((bot) => bot.services.insights);
    const visit = (userId: string) => ({ guildId: guild, license: LICENSE_KEY, userId });
    for (const member of ['111111111111111111', '222222222222222222']) a!.counting.step('open', visit(member));
    for (const member of ['222222222222222222', '333333333333333333']) b!.counting.step('open', visit(member));
    const link = { guildId: guild, license: LICENSE_KEY, items: [], createdAt: env.clock.now() };
    a!.counting.linkIssued({ ...link, userId: '111111111111111111' });
    b!.counting.linkIssued({ ...link, userId: '333333333333333333' });
    b!.counting.linkIssued({ ...link, userId: '222222222222222222' });
    await Promise.all([a!.flush(), b!.flush()]);
    const { report: read } = await report();
    expect(read.funnel.find((step) => step.step === 'open')!.members).toBe(3);
    expect(read.funnel.find((step) => step.step === 'link')!.members).toBe(3);
    expect(read.times.issued).toBe(3);
  });

  it('posts the digest once when both processes run its round at Monday 09:00, and again not after a restart', async () => {
    const staff = env.discord.addChannel(guild, { name: 'staff' });
    await env.bots[0]!.services.setup.changeSettings(guild, { digestChannelId: staff });
    // Sunday 22 November 12:00 UTC → Monday 23 November 08:00 UTC, 09:00 in Warsaw.
    env.clock.advance(20 * 3_600_000);
    await Promise.all(env.bots.map((bot) => bot.services.jobs.runNow('insights-digest')));
    await Promise.all(env.bots.map((bot) => bot.services.jobs.runNow('insights-digest')));
    await env.restart(1);
    await env.bots[1]!.services.jobs.runNow('insights-digest');
    const posts = env.discord.messagesIn(staff);
    expect(posts).toHaveLength(1);
    expect(textOf(posts[0]!)).toContain(en.insights.digestTitle);
  });
});
