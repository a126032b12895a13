import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { Member } from '../support/buyer.js';
import { startBotsOnRedis, type BotsOnRedis } from '../support/bots-on-redis.js';
import { textOf } from '../support/ui.js';

/**
 * Issue 29, point 2: the voucher limits hold under a crowd across two processes on one Redis: each
 * try is checked and counted in one atomic step, whichever process takes it.
 */
describe('two bots on one Redis and a crowd redeeming codes', () => {
  let env: BotsOnRedis;
  beforeAll(async () => {
    env = await startBotsOnRedis('vouchers');
  });
  afterAll(() => env.close());

  it('lets at most 30 tries a minute reach the store when 30 members press 4 times at once, half on each process', async () => {
    const sessions = env.discord.gatewaySessions().map((session) => session.id);
    expect(sessions).toHaveLength(2);
    const presses = Array.from({ length: 30 }, (_, index) => {
      // One member pressing on both processes: the same user through either gateway session.
      const onA = new Member({ discord: env.discord }, { session: sessions[0]! });
      const onB = Object.assign(new Member({ discord: env.discord }, { session: sessions[1]! }), { user: onA.user });
      return [onA, onB, onA, onB].map((member, press) => member.run('redeem', { code: `TLUM-${index}-${press}X`, nick: 'Tlum_gracz' }));
    }).flat();
    const replies = (await Promise.all(presses)).map((outcome) => textOf(outcome.message!));
    expect(env.store.requestsTo('voucher').length).toBeLessThanOrEqual(30);
    expect(env.store.requestsTo('voucher').length).toBeGreaterThan(0);
    // The others were told to wait, and nothing says the shop was busy.
    expect(replies.filter((reply) => reply.includes('wait')).length).toBe(120 - env.store.requestsTo('voucher').length);
    for (const reply of replies) expect(reply).not.toContain('(429)');
  });

  it('counts one member across two guilds together: 5 tries in 10 minutes in all', async () => {
    // Fresh guilds: the windows run on Redis's clock, and the crowd above filled the first guild's minute.
    const first = env.discord.addGuild({ name: 'First guild' });
    const other = env.discord.addGuild({ name: 'Second guild' });
    const before = env.store.requestsTo('voucher').length;
    const user = new Member({ discord: env.discord }, { guildId: first.id, channelId: first.channelId });
    const elsewhere = new Member({ discord: env.discord }, { guildId: other.id, channelId: other.channelId });
    Object.assign(elsewhere, { user: user.user });
    for (let index = 0; index < 4; index += 1) await user.run('redeem', { code: `DWA-${index}AB`, nick: 'Dwa_serwery' });
    for (let index = 0; index < 4; index += 1) await elsewhere.run('redeem', { code: `DWA-9${index}AB`, nick: 'Dwa_serwery' });
    expect(env.store.requestsTo('voucher').length - before).toBe(5);
    expect(textOf(elsewhere.last!.message!)).toContain(en.vouchers.memberLimit(600).slice(0, 30));
  });

  it("runs the windows on the Redis server's clock: a process whose clock runs ahead gets no fresh tries", async () => {
    const guild = env.discord.addGuild({ name: 'Clock guild' });
    const member = new Member({ discord: env.discord }, { guildId: guild.id, channelId: guild.channelId });
    const before = env.store.requestsTo('voucher').length;
    for (let index = 0; index < 5; index += 1) await member.run('redeem', { code: `ZEGAR-${index}AB`, nick: 'Zegarmistrz' });
    expect(env.store.requestsTo('voucher').length - before).toBe(5);
    // The bot's clock 11 minutes ahead (a skewed host): Redis has seen no time pass, so the 6th try still waits.
    env.clock.advance(11 * 60_000);
    await member.run('redeem', { code: 'ZEGAR-6AB', nick: 'Zegarmistrz' });
    expect(env.store.requestsTo('voucher').length - before).toBe(5);
    expect(textOf(member.last!.message!)).toContain(en.vouchers.memberLimit(600).slice(0, 30));
  });
});
