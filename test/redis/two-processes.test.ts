import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InteractionResponseType, PermissionFlagsBits } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBot, type Bot } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { en } from '../../src/i18n/en.js';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs } from '../fakes/spaceis/fake-spaceis.js';
import { addToCart, Member, openVariant, SKY_VIP, VIP_30 } from '../support/buyer.js';
import { startBotProcess, type BotProcess } from '../support/bot-process.js';
import { BOT_TOKEN, ENCRYPTION_KEY, LICENSE_KEY } from '../support/harness.js';
import { deleteKeys, testStorage } from '../support/redis.js';
import { Redis } from 'ioredis';
import { StorageSwitch } from '../support/storage-switch.js';
import { button, optionLabels, textOf } from '../support/ui.js';

/**
 * Two bot processes (node dist/bundle/main.js) on one Redis, one local Discord, one local store, both
 * serving the same guild, as while a new process takes over from an old one. The test picks which
 * process receives each interaction (the gateway session it goes to).
 */
interface World {
  discord: FakeDiscord;
  store: FakeSpaceIs;
  redis: ReturnType<typeof testStorage>;
  dir: string;
  bots: BotProcess[];
  sessions: string[];
}

const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands | PermissionFlagsBits.ManageGuild;

async function startWorld(label: string): Promise<World> {
  const discord = await FakeDiscord.start();
  const store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY });
  const redis = testStorage(label);
  const dir = mkdtempSync(join(tmpdir(), 'shopbot-redis-'));
  return { discord, store, redis, dir, bots: [], sessions: [] };
}

/** Starts one more bot process on the world's Redis; returns its gateway session id. */
async function startProcess(world: World): Promise<string> {
  const bot = await startBotProcess({ discord: world.discord, store: world.store, cwd: world.dir, env: { STORAGE_URL: world.redis.url, ENCRYPTION_KEY } });
  world.bots.push(bot);
  const session = world.discord.gatewaySessions().at(-1)!.id;
  world.sessions.push(session);
  return session;
}

/** Deletes the offer copies the processes share in Redis, as when they expire. */
async function forgetSharedOffer(world: World): Promise<void> {
  const client = new Redis(world.redis.url.replace(/\?.*$/, ''));
  try {
    await deleteKeys(client, `${world.redis.prefix}offers:`);
  } finally {
    client.disconnect();
  }
}

async function endWorld(world: World): Promise<void> {
  await Promise.all(world.bots.map((bot) => bot.end()));
  await world.discord.close();
  await world.store.close();
  await world.redis.cleanUp();
  rmSync(world.dir, { recursive: true, force: true });
}

describe('two bot processes on one Redis', () => {
  let world: World;
  let a: string;
  let b: string;
  beforeAll(async () => {
    world = await startWorld('two');
    a = await startProcess(world);
    b = await startProcess(world);
  }, 60_000);
  afterAll(() => endWorld(world));

  it('1. a cart filled through one process is what /cart shows through the other', async () => {
    const member = new Member(world, { session: a });
    await addToCart(member, VIP_30, 3);
    member.options.session = b;
    const cart = await member.run('cart');
    expect(textOf(cart.message!)).toContain('1. 3 × VIP — 30 dni');
  });

  it('2. twenty simultaneous Add to cart presses, alternating between the processes, with a slow store, end at 20', async () => {
    const member = new Member(world, { session: a });
    // A product process B has not read yet (test 1 had it read VIP's).
    await openVariant(member, SKY_VIP);
    const menu = member.message!;
    const add = button(menu, en.quantity.addToCart).custom_id!;
    // The shared copy of the offer has just expired: process B must ask the (slow) store, and its
    // presses then all go at once, among A's.
    await forgetSharedOffer(world);
    const slow = world.store.hold('variants');
    const presses = await Promise.all(
      Array.from({ length: 20 }, (_unused, index) => world.discord.click(member.user, menu, add, { session: index % 2 === 0 ? a : b })),
    );
    await slow.reached;
    slow.release();
    await Promise.all(presses.map((press) => press.settled()));
    member.options.session = b;
    expect(textOf((await member.run('cart')).message!)).toContain('1. 20 × VIP Wyspy — 30 dni');
  });

  it('3. a double Checkout across the processes gives one link', async () => {
    const member = new Member(world, { session: a });
    await addToCart(member, VIP_30);
    const requestsBefore = world.store.requestsTo('paymentUrl').length;
    const slow = world.store.hold('paymentUrl');
    const [first, second] = await Promise.all([
      world.discord.slash(member.user, 'checkout', { options: { nick: 'Twice' }, session: a }),
      world.discord.slash(member.user, 'checkout', { options: { nick: 'Twice' }, session: b }),
    ]);
    await slow.reached;
    slow.release();
    const outcomes = await Promise.all([first.settled(), second.settled()]);
    expect(world.store.requestsTo('paymentUrl').length).toBe(requestsBefore + 1);
    const dm = world.discord.messagesIn(world.discord.dmChannelOf(member.user.id)!);
    expect(dm.filter((message) => message.components?.length)).toHaveLength(1);
    // The press that lost the race is told the cart is already checked out, not given a second link.
    expect(outcomes.map((outcome) => textOf(outcome.message!)).join('\n')).toContain(en.checkout.emptyCart);
  });

  it('a settings change made through one process applies in the other at once', async () => {
    const buyer = new Member(world, { session: b });
    // Process B has this guild's settings in memory already (it served the tests above).
    expect(optionLabels((await buyer.run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
    const admin = new Member(world, { session: a, permissions: ADMIN });
    const menu = (await admin.sub('shop-admin', 'servers')).message!;
    expect((await admin.choose('Survival', menu)).message!.text).toContain(en.admin.serversSaved('Survival'));
    // No clock moved: B dropped its copy on A's notice, not because it aged out.
    expect(optionLabels((await buyer.run('shop')).message!)).toEqual(['Rangi', 'Klucze', 'Monety', 'Usługi']);
  });
});

describe('two bots on one Redis with only their own in-process locks', () => {
  let discord: FakeDiscord;
  let store: FakeSpaceIs;
  const redis = testStorage('process-locks');
  const bots: Bot[] = [];
  const switches = [new StorageSwitch(), new StorageSwitch()];
  beforeAll(async () => {
    discord = await FakeDiscord.start();
    store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY });
    const config = loadConfig({ DISCORD_TOKEN: BOT_TOKEN, DISCORD_API_URL: discord.apiUrl, SPACEIS_API_URL: store.url, SPACEIS_API_KEY: LICENSE_KEY, ENCRYPTION_KEY, STORAGE_URL: redis.url, LOG_LEVEL: 'silent', DEMO_PORT: '0' });
    for (const storage of switches) {
      const bot = await createBot({
        config,
        logger: createLogger('silent'),
        storageAdapter: storage.wrap,
        coordination: { lockScope: 'process' },
        discordOptions: { ws: { buildIdentifyThrottler: async () => ({ waitForIdentify: async () => undefined }) } },
      });
      await bot.start();
      bots.push(bot);
    }
  });
  afterAll(async () => {
    for (const bot of bots) await bot.stop();
    await discord.close();
    await store.close();
    await redis.cleanUp();
  });
  afterEach(() => switches.forEach((storage) => storage.recover()));

  it('2, proof: the same presses lose updates without the shared lock', async () => {
    const [a, b] = discord.gatewaySessions().map((session) => session.id);
    const member = new Member({ discord }, { session: a! });
    await openVariant(member, VIP_30);
    const menu = member.message!;
    const add = button(menu, en.quantity.addToCart).custom_id!;
    // Each bot's first cart write waits until both have read the cart: the overlap a crowd makes by chance.
    const held = switches.map((storage) => storage.holdWrites((key) => key.includes('cart:')));
    const presses = await Promise.all(
      Array.from({ length: 20 }, (_unused, index) => discord.click(member.user, menu, add, { session: index % 2 === 0 ? a! : b! })),
    );
    await Promise.all(held.map((hold) => hold.reached));
    held.forEach((hold) => hold.release());
    await Promise.all(presses.map((press) => press.settled()));
    const cart = textOf((await member.run('cart')).message!);
    expect(cart).not.toContain('1. 20 × VIP — 30 dni');
    expect(cart).toMatch(/1\. 1\d × VIP — 30 dni/);
  });
});

describe('a process killed while it holds a lock', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld('sigkill');
  });
  afterAll(() => endWorld(world));

  it('7. the other goes on after the lock timeout, and nothing is lost', async () => {
    const a = await startProcess(world);
    const b = await startProcess(world);
    const member = new Member(world, { session: a });
    await addToCart(member, VIP_30, 2);
    // A checkout holds the member's cart lock across the payment-link request: the store is slow, and A dies.
    const slow = world.store.hold('paymentUrl');
    await world.discord.slash(member.user, 'checkout', { options: { nick: 'Survivor' }, session: a });
    await slow.reached;
    world.bots[0]!.kill('SIGKILL');
    await world.bots[0]!.exited;
    slow.release();

    // Process B waits for the dead process's lock to expire; the member sees "thinking" meanwhile, never a failure.
    member.options.session = b;
    const cart = await world.discord.slash(member.user, 'cart', { session: b });
    expect((await cart.acknowledged).type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    const shown = await cart.settled();
    expect(textOf(shown.message!)).toContain('1. 2 × VIP — 30 dni');

    // And the cart checks out through B.
    const paid = await member.run('checkout', { nick: 'Survivor' });
    expect(textOf(paid.message!)).not.toContain(en.common.storageUnavailable);
    expect(world.store.requestsTo('paymentUrl')).toHaveLength(2);
  }, 60_000);
});
