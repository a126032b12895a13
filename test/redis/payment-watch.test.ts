import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionFlagsBits, REST } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot, registerBotCommands, type Bot } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { en } from '../../src/i18n/en.js';
import { createLogger } from '../../src/logger.js';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs } from '../fakes/spaceis/fake-spaceis.js';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { startBotProcess, type BotProcess } from '../support/bot-process.js';
import { BOT_TOKEN, ENCRYPTION_KEY, LICENSE_KEY } from '../support/harness.js';
import { testStorage } from '../support/redis.js';
import { startBotsOnRedis, type BotsOnRedis } from '../support/bots-on-redis.js';
import { buttons, textOf } from '../support/ui.js';

/**
 * Two bots on one Redis, one local Discord and one local store, both serving the same guild: a paid
 * link is settled once, whichever process's round gets there, however they overlap.
 */

const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands | PermissionFlagsBits.ManageGuild;

const paidPosts = (discord: FakeDiscord, channel: string) => discord.messagesIn(channel).filter((message) => textOf(message).includes(en.log.linkPaidTitle));

/** Two bots on one Redis (their own key prefix) with a log channel set, for the describe block that calls it. */
function botsWithLogChannel(prefix: string): { env: BotsOnRedis; discord: FakeDiscord; store: FakeSpaceIs; clock: ManualClock; bots: Bot[]; logChannel: string } {
  const world = {} as ReturnType<typeof botsWithLogChannel>;
  beforeAll(async () => {
    const env = await startBotsOnRedis(prefix);
    const logChannel = env.discord.addChannel(env.discord.defaultGuildId, { name: 'shop-log' });
    await env.bots[0]!.services.storage.guildSettings.set(env.discord.defaultGuildId, { logChannelId: logChannel });
    Object.assign(world, { env, discord: env.discord, store: env.store, clock: env.clock, bots: env.bots, logChannel });
  });
  afterAll(() => world.env.close());
  return world;
}

describe('two bots on one Redis, their rounds run at the same moment', () => {
  const world = botsWithLogChannel('payments-race');

  it('one of them polls the license; the link is settled, its DM edited and the log told, once', async () => {
    const { discord, store, clock, bots, logChannel } = world;
    const [a, b] = discord.gatewaySessions().map((session) => session.id);
    const buyer = new Member({ discord }, { session: a! });
    await addToCart(buyer, VIP_30, 2);
    const dmSent = discord.waitForDm(buyer.user.id);
    await buyer.run('checkout', { nick: 'Two_Procs' });
    const dm = await dmSent;
    clock.advance(60_000);
    store.pay(-1);

    await Promise.all(bots.map((bot) => bot.services.payments.tick()));
    await Promise.all(bots.map((bot) => bot.services.payments.tick()));
    clock.advance(30_000);
    await Promise.all(bots.map((bot) => bot.services.payments.tick()));

    const edited = discord.message(dm.channel_id, dm.id)!;
    expect(buttons(edited)).toEqual([]);
    expect(edited.edits).toBe(1);
    expect(paidPosts(discord, logChannel)).toHaveLength(1);
    expect(store.requestsTo('transactionInfo')).toHaveLength(1);
    // The first two rounds overlapped: one process polled, the other found the license taken; the third round polled again (30 s later), once.
    expect(store.requestsTo('latestBuyers').length).toBeLessThanOrEqual(2);

    // The other process sees the same state: the buyer's list says paid through it.
    buyer.options.session = b!;
    await buyer.run('cart');
    expect(textOf((await buyer.press(en.links.myLinks)).message!)).toContain('· Paid');
  });
});

describe('two bots on one Redis, when Discord fails the steps of a settled link', () => {
  const world = botsWithLogChannel('payments-steps');

  // Issue 28, point 5: the steps left undone are finished by a later round of either process, each once.
  it('the DM edit and the log post are done later by one of them, once', async () => {
    const { discord, store, clock, bots, logChannel } = world;
    const [a] = discord.gatewaySessions().map((session) => session.id);
    const buyer = new Member({ discord }, { session: a! });
    await addToCart(buyer, VIP_30, 2);
    const dmSent = discord.waitForDm(buyer.user.id);
    await buyer.run('checkout', { nick: 'Steps_Procs' });
    const dm = await dmSent;
    clock.advance(60_000);
    store.pay(-1);
    const failure = { status: 500, body: { code: 0, message: '500: Internal Server Error' } };
    discord.failRoute('PATCH', new RegExp(`^/channels/${dm.channel_id}/messages/${dm.id}$`), failure, 4);
    discord.failRoute('POST', new RegExp(`^/channels/${logChannel}/messages$`), failure, 4);

    await Promise.all(bots.map((bot) => bot.services.payments.tick()));
    expect(discord.message(dm.channel_id, dm.id)!.edits).toBe(0);
    expect(paidPosts(discord, logChannel)).toHaveLength(0);
    for (let round = 0; round < 6; round += 1) {
      clock.advance(30_000);
      await Promise.all(bots.map((bot) => bot.services.payments.tick()));
    }
    const edited = discord.message(dm.channel_id, dm.id)!;
    expect(buttons(edited)).toEqual([]);
    expect(edited.edits).toBe(1);
    expect(paidPosts(discord, logChannel)).toHaveLength(1);
  });
});

describe('two bot processes on one Redis, with their own timers', () => {
  let discord: FakeDiscord;
  let store: FakeSpaceIs;
  const redis = testStorage('payments-procs');
  let dir: string;
  const processes: BotProcess[] = [];
  beforeAll(async () => {
    discord = await FakeDiscord.start();
    store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY });
    dir = mkdtempSync(join(tmpdir(), 'shopbot-payments-'));
    // As an operator would (npm run register-commands): the local Discord then knows every option's type.
    await registerBotCommands(new REST({ api: discord.apiUrl }).setToken(BOT_TOKEN));
    for (let index = 0; index < 2; index += 1) {
      processes.push(await startBotProcess({ discord, store, cwd: dir, env: { STORAGE_URL: redis.url, ENCRYPTION_KEY, PAYMENT_POLL_SECONDS: '15' } }));
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(processes.map((bot) => bot.end()));
    await discord.close();
    await store.close();
    await redis.cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a link paid right after checkout is settled once, by one of them', async () => {
    const [a] = discord.gatewaySessions().map((session) => session.id);
    const logChannel = discord.addChannel(discord.defaultGuildId, { name: 'shop-log' });
    const admin = new Member({ discord }, { session: a!, permissions: ADMIN });
    await admin.sub('shop-admin', 'settings', { 'log-channel': logChannel });
    const buyer = new Member({ discord }, { session: a! });
    await addToCart(buyer, VIP_30);
    const dmSent = discord.waitForDm(buyer.user.id);
    await buyer.run('checkout', { nick: 'Real_Procs' });
    const dm = await dmSent;
    const posted = discord.waitForMessage((message) => message.channel_id === logChannel && textOf(message).includes(en.log.linkPaidTitle));
    store.pay(-1);

    // Within a round or two of either process (every 5 s): event-driven, no sleeping.
    await posted;
    await Promise.any(processes.map((bot) => bot.outputContains('payment watch: the store settled a link’s payment')));
    const settledBy = processes.filter((bot) => bot.output.join('').includes('payment watch: the store settled a link’s payment'));
    expect(settledBy).toHaveLength(1);
    expect(buttons(discord.message(dm.channel_id, dm.id)!)).toEqual([]);
    expect(paidPosts(discord, logChannel)).toHaveLength(1);
    expect(store.requestsTo('transactionInfo')).toHaveLength(1);
  }, 60_000);
});
