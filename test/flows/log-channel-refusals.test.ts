import { PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MEMBER_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';

const ADMIN = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild;
const MINUTE = 60_000;

/**
 * Issue 36, point 3: a log channel Discord refuses the bot's posts in (403: the bot may see it but not
 * post) must not be asked again for every paid link and every retry: each refusal counts towards
 * Discord's ban of the bot's IP (10 000 invalid requests in 10 minutes).
 */
describe('a log channel the bot may not post in', () => {
  const h = useHarness();
  const steps = linkSteps(h);
  let logChannel: string;

  beforeAll(async () => {
    logChannel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-log' });
    await new Member(h, { permissions: ADMIN, username: 'owner' }).sub('shop-admin', 'settings', { 'log-channel': logChannel });
    h.discord.denyBot(logChannel, PermissionFlagsBits.SendMessages);
  });

  it('20 paid links over an hour: at most one refused post every 10 minutes, and the members are still told', { timeout: 120_000 }, async () => {
    const issued = [];
    for (let i = 0; i < 20; i++) issued.push(await steps.checkout(new Member(h), `Refused_Log_${i}`, VIP_30));
    const refusedPosts = () => h.discord.requests.filter((request) => request.method === 'POST' && request.path === `/channels/${logChannel}/messages` && request.status === 403).length;
    const before = refusedPosts();
    const perTenMinutes: number[] = [];
    for (let window = 0; window < 6; window++) {
      const from = refusedPosts();
      for (let elapsed = 0; elapsed < 10 * MINUTE; elapsed += 30_000) {
        if (window === 0 && elapsed / 30_000 < issued.length) h.store.pay(issued[elapsed / 30_000]!.url);
        await steps.poll();
      }
      perTenMinutes.push(refusedPosts() - from);
    }
    // Before: every paid link's log post, and each of its retries (8 attempts), answered 403: 160.
    expect(refusedPosts() - before).toBeLessThanOrEqual(6);
    expect(Math.max(...perTenMinutes)).toBeLessThanOrEqual(1);
    for (const link of issued) expect((await steps.record(link))?.payment?.status).toBe('paid');
  });
});
