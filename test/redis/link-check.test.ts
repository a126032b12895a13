import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { startBotsOnRedis, type BotsOnRedis } from '../support/bots-on-redis.js';
import { Member } from '../support/buyer.js';
import { textOf } from '../support/ui.js';

const MINUTE = 60_000;

/** Two bot processes on one Redis: a member's link checks are counted together, whichever process answers. */
describe('Check payment link on Redis', () => {
  let env: BotsOnRedis;
  beforeAll(async () => {
    env = await startBotsOnRedis('link-check');
  }, 60_000);
  afterAll(() => env?.close());

  it('lets a member check 10 messages a minute in all, alternating between the processes', async () => {
    const [first, second] = env.discord.gatewaySessions().map((session) => session.id);
    env.clock.advance(MINUTE - (env.clock.now() % MINUTE));
    const member = new Member(env);
    const message = env.discord.postMessage(member.user, env.discord.defaultChannelId, { content: 'https://pay.example/x' });
    const check = async (session: string) => {
      const handle = await env.discord.messageCommand(member.user, 'Check payment link', message, { session });
      return textOf((await handle.settled()).message!);
    };
    for (let index = 0; index < 10; index += 1) expect(await check(index % 2 === 0 ? first! : second!)).toContain(en.linkCheck.notIssued);
    expect(await check(first!)).toBe(en.linkCheck.rateLimited(10, 60));
    expect(await check(second!)).toBe(en.linkCheck.rateLimited(10, 60));
    env.clock.advance(MINUTE);
    expect(await check(second!)).toContain(en.linkCheck.notIssued);
  });
});
