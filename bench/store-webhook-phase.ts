/**
 * Phase 10 of run.ts (BENCH_ONLY=webhook runs it alone): the store's purchase webhook (issue 38,
 * docs/store-webhook.md). The local store (test/fakes/spaceis) posts each paid purchase through the
 * local Discord's webhook, the one the bot made on `/shop-admin store-webhook connect`, with the text
 * the bot's answer tells the admin to paste ({TRANSACTION_ID} replaced).
 *
 * 1. Payment → the member's DM edited: the bot as a process (`npm start`'s flags, the system clock),
 *    BENCH_HOOK_PAYMENTS members (100) check out, then their links are paid at random moments; the
 *    time from the payment to the PATCH of the member's DM that says it is paid. Once with the
 *    webhook connected, once without (polling every PAYMENT_POLL_SECONDS=30: the "before"), at the
 *    same random moments at least 6 s apart (at most 10 a minute: the reader asks about at most 10
 *    posted ids a minute per license, post-reader.ts, so a faster crowd would measure that limit,
 *    not the path; and polling reads 30 rows per server, so more than 30 purchases on one server
 *    between two polls are never seen by it: 100 payments in 60 s left 32 links unconfirmed).
 * 2. Store requests per hour per server: the bot in this process on a ManualClock (a round every 5 s,
 *    a simulated hour), 8 open links over the shop's four servers, with the webhook connected and
 *    healthy and without it; and the same with the purchase feed on and a website purchase every
 *    5 minutes (posted through the webhook when it is connected).
 * 3. 1 000 other chat messages a second for BENCH_HOOK_FLOOD_S seconds in the guild: bot CPU and peak
 *    RSS of a fresh process with the webhook connected (the Guild Messages intent on: the local
 *    Discord dispatches MESSAGE_CREATE to it) against one with none (the intent off: nothing dispatched).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { createBot, registerBotCommands } from '../src/app.js';
import { ManualClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { licenseId } from '../src/security/license-id.js';
import { DEFAULT_BOT_PERMISSIONS, FakeDiscord, type FakeMessage } from '../test/fakes/discord/fake-discord.js';
import type { FakeSpaceIs, ShopFixture } from '../test/fakes/spaceis/fake-spaceis.js';
import { buttons, textOf } from '../test/support/ui.js';
import { LICENSE_KEY, startProcess, TOKEN } from './bot-process.js';
import { crowdPicks } from './journey-plans.js';
import { BenchMember, Recorder } from './members.js';
import { round, roundSummary, summarize, type Summary } from './stats.js';
import { startStore, type World } from './world.js';

const SECOND = 1_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const TICK_MS = 5_000;
/** Sealing the webhook's token needs a key: one per bench run, never printed. */
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageWebhooks;
/** The DM's text once the link is paid (src/i18n/en.ts, dmPaid). */
const PAID_TEXT = 'reports this order as paid';

export interface PaidToDm {
  payments: number;
  /** Over how long the payments were spread. */
  spreadSeconds: number;
  ms: Summary;
  /** Payments whose DM was not edited within LATE_MS. */
  missing: number;
  storeRequests: { latestBuyers: number; transactionInfo: number };
}

export interface RequestsPerServer {
  webhook: boolean;
  feed: boolean;
  /** latest_buyers per hour, per server polled (each server's own count; the most of any). */
  latestBuyersPerServer: number;
  /** Every store request in the hour, divided by the servers polled. */
  allPerServer: number;
  transactionInfo: number;
  servers: number;
  purchases: number;
  feedPosts: number;
}

export interface ChatFlood {
  messages: number;
  seconds: number;
  intentOn: { botCpuMs: number; peakRssBytes: number; rssBeforeBytes: number };
  intentOff: { botCpuMs: number; peakRssBytes: number; rssBeforeBytes: number };
}

export interface StoreWebhookResult {
  paidToDm: { withWebhook: PaidToDm; withoutWebhook: PaidToDm };
  requestsPerHour: RequestsPerServer[];
  chatFlood: ChatFlood;
}

/** A small deterministic generator: the same "random" moments every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * The admin's step: `/shop-admin store-webhook connect` on a new channel; returns the address and
 * the text the bot's private answer tells the admin to paste in the panel.
 */
export async function connectAsAdmin(discord: FakeDiscord, name: string): Promise<{ url: string; template: string }> {
  const guildId = discord.defaultGuildId;
  discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageWebhooks);
  const channel = discord.addChannel(guildId, { name });
  const admin = discord.newUser({ username: `owner-${name}` });
  // The first connection makes the bot identify again with Guild Messages.
  const identified = Promise.race([discord.nextReady(), sleep(15 * SECOND)]);
  const handle = await discord.slash(admin, 'shop-admin', { subcommandGroup: 'store-webhook', subcommand: 'connect', options: { channel }, permissions: ADMIN });
  const answer = await handle.settled();
  const text = answer.message ? textOf(answer.message) : '';
  const url = /https?:\/\/\S+?\/webhooks\/\d+\/[\w-]+/.exec(text)?.[0];
  const template = text.split('\n').map((line) => line.replaceAll('`', '').trim()).find((line) => line.includes('{TRANSACTION_ID}') && !line.includes(' must '));
  if (!url || !template) throw new Error('store webhook: the connect answer gave no address or no text to paste');
  await identified;
  return { url, template };
}

/** Resolves with when the member's DM was edited to say the link is paid. */
function paidEdit(discord: FakeDiscord, dm: FakeMessage): Promise<number> {
  const path = new RegExp(`^/channels/${dm.channel_id}/messages/${dm.id}`);
  const next = async (): Promise<number> => {
    const request = await discord.waitForRequest('PATCH', path);
    return JSON.stringify(request.body ?? '').includes(PAID_TEXT) ? performance.now() : next();
  };
  return next();
}

/** No DM edit within this long after the payment counts as missing. */
const LATE_MS = 120 * SECOND;

/** Part 1: members check out, their links are paid at the given moments; payment → DM edited. */
async function paidToDm(world: World, label: string, payments: number, webhook: boolean, log: (text: string) => void): Promise<PaidToDm> {
  const dir = join(world.work, `webhook-${label}`);
  mkdirSync(dir, { recursive: true });
  world.store.purchaseWebhooks.configs.splice(0);
  const bot = await startProcess(world, 'bot', join(dir, 'store.sqlite'), dir, { ENCRYPTION_KEY, PAYMENT_POLL_SECONDS: '30' });
  try {
    if (webhook) {
      const hook = await connectAsAdmin(world.discord, `shop-posts-${label}`);
      world.store.purchaseWebhooks.configs.push({ url: hook.url, template: hook.template });
    }
    // Check-outs first (not timed), a few members at a time: /shop → … → Add to cart → /checkout nick:.
    const picks = crowdPicks(world.shop, payments);
    const recorder = new Recorder();
    const links: { dm: FakeMessage; url: string }[] = [];
    for (let start = 0; start < picks.length; start += 20) {
      const batch = await Promise.all(
        picks.slice(start, start + 20).map(async (pick, offset) => {
          const index = start + offset;
          const member = new BenchMember(world.discord, recorder, `hook-${label}-${index}`);
          await member.slash('shop', 'shop');
          await member.choose('server', pick.server);
          await member.choose('category', pick.category);
          await member.choose('product', pick.product);
          await member.choose('variant', pick.variant);
          await member.press('add', 'Add to cart');
          const dmArrived = world.discord.waitForDm(member.user.id);
          const handle = await world.discord.slash(member.user, 'checkout', { options: { nick: `Hook_${label}_${index}` } });
          await handle.settled();
          const dm = await Promise.race([dmArrived, sleep(60 * SECOND).then(() => undefined)]);
          const url = dm ? buttons(dm).find((component) => component.label === 'Pay')?.url : undefined;
          if (!dm || !url) throw new Error(`store webhook bench: member ${index} got no DM with a Pay link`);
          return { dm, url };
        }),
      );
      links.push(...batch);
    }
    log(`    ${links.length} links issued; paying them${webhook ? ' (the store posts each payment)' : ' (polling only)'}`);
    // The same moments with and without the webhook: random, at least 6 s apart (10 a minute at most).
    const random = seeded(38);
    const moments: number[] = [];
    for (let index = 0, at = 0; index < links.length; index += 1, at += 6 * SECOND + random() * 1.5 * SECOND) moments.push(at);
    const requestsBefore = world.store.requests.length;
    const began = performance.now();
    const times = await Promise.all(
      links.map(async (link, index) => {
        await sleep(began + moments[index]! - performance.now());
        const edited = paidEdit(world.discord, link.dm);
        const paidAt = performance.now();
        world.store.pay(link.url);
        const at = await Promise.race([edited, sleep(LATE_MS).then(() => Number.NaN)]);
        return at - paidAt;
      }),
    );
    await world.store.purchaseWebhooks.settled();
    const requests = world.store.requests.slice(requestsBefore);
    const measured = times.filter((value) => !Number.isNaN(value));
    return {
      payments: links.length,
      spreadSeconds: round(Math.max(...moments) / SECOND, 1),
      ms: roundSummary(summarize(measured), 0),
      missing: times.length - measured.length,
      storeRequests: {
        latestBuyers: requests.filter((request) => request.path.includes('/latest_buyers')).length,
        transactionInfo: requests.filter((request) => request.path.startsWith('/v4/transaction/info/')).length,
      },
    };
  } finally {
    world.store.purchaseWebhooks.configs.splice(0);
    await bot.proc.stop();
    world.running.splice(world.running.indexOf(bot), 1);
  }
}

/** Part 2: a simulated hour on a ManualClock, counting the store's requests per server. */
async function requestsPerHour(shop: ShopFixture, webhook: boolean, feed: boolean): Promise<RequestsPerServer> {
  const dir = mkdtempSync(join(tmpdir(), 'shopbot-bench-hook-'));
  const discord = await FakeDiscord.start();
  const store: FakeSpaceIs = await startStore(shop);
  const clock = new ManualClock();
  store.now = () => clock.now();
  const config = loadConfig({
    DISCORD_TOKEN: TOKEN,
    DISCORD_API_URL: discord.apiUrl,
    SPACEIS_API_URL: store.url,
    SPACEIS_API_KEY: LICENSE_KEY,
    STORAGE_URL: `sqlite://${join(dir, 'store.sqlite')}`,
    ENCRYPTION_KEY,
    LOG_LEVEL: 'silent',
    DEMO_PORT: '0',
  });
  const bot = await createBot({ config, logger: createLogger('silent'), clock, paymentWatch: 'manual' });
  try {
    await bot.start();
    await registerBotCommands(bot.client.rest);
    const guildId = discord.defaultGuildId;
    if (webhook) {
      const hook = await connectAsAdmin(discord, 'shop-posts');
      store.purchaseWebhooks.configs.push({ url: hook.url, template: hook.template });
    }
    let feedChannel: string | undefined;
    if (feed) {
      feedChannel = discord.addChannel(guildId, { name: 'purchases' });
      const admin = discord.newUser({ username: 'owner-feed' });
      await (await discord.slash(admin, 'shop-admin', { subcommand: 'settings', options: { 'purchase-feed-channel': feedChannel }, permissions: ADMIN })).settled();
    }
    // Two open links on each of the shop's four servers, as checkout records them.
    const servers = shop.servers.slice(0, 4);
    for (let index = 0; index < 8; index += 1) {
      const server = servers[index % servers.length]!;
      const category = server.categories[0]!;
      const product = category.products[0]!;
      const variant = product.variants[0]!;
      const link = await bot.services.storage.paymentLinks.create({
        guildId,
        userId: String(900_000_000_000_000_000n + BigInt(index)),
        nick: `Open_${index}`,
        url: `https://sklep.example.pl/pay/hook-${index}`,
        license: licenseId(LICENSE_KEY),
        createdAt: clock.now(),
        items: [{ variantId: variant.id, quantity: 1, serverName: server.name, productName: product.name, variantName: variant.name, serverId: server.id, categoryId: category.id, productId: product.id }],
      });
      await bot.services.payments.watch(link);
    }
    // Settle the first visit (every server read once), then count a whole hour.
    clock.advance(TICK_MS);
    await bot.services.payments.tick();
    const before = store.requests.length;
    const feedBefore = feedChannel ? discord.messagesIn(feedChannel).length : 0;
    let purchases = 0;
    const end = clock.now() + HOUR;
    while (clock.now() < end) {
      clock.advance(TICK_MS);
      if (feed && clock.now() % (5 * MINUTE) < TICK_MS) {
        // A purchase on the website (no link of the bot's); the store posts it when the webhook is set.
        const server = servers[purchases % servers.length]!;
        store.purchaseOnWebsite({ nick: `Website_${purchases}`, items: [{ variantId: server.categories[0]!.products[0]!.variants[0]!.id, quantity: 1 }] });
        purchases += 1;
        await store.purchaseWebhooks.settled();
        // The post reaches the bot through the gateway; let it be read before the clock moves on.
        if (webhook) for (let waited = 0; waited < 300 && !(await readSince(bot, guildId, clock.now())); waited += 1) await sleep(10);
      }
      await bot.services.payments.tick();
      await bot.services.feed.settled();
    }
    const requests = store.requests.slice(before);
    const perServer = new Map<string, number>();
    for (const request of requests) if (request.path.includes('/latest_buyers')) perServer.set(request.path.split('?')[0]!, (perServer.get(request.path.split('?')[0]!) ?? 0) + 1);
    const polled = Math.max(1, perServer.size);
    return {
      webhook,
      feed,
      latestBuyersPerServer: Math.max(0, ...perServer.values()),
      allPerServer: round(requests.length / polled, 1),
      transactionInfo: requests.filter((request) => request.path.startsWith('/v4/transaction/info/')).length,
      servers: perServer.size,
      purchases,
      feedPosts: feedChannel ? discord.messagesIn(feedChannel).length - feedBefore : 0,
    };
  } finally {
    await bot.stop();
    await discord.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether the guild's webhook post made at `at` (this clock) was read: its last post is that recent. */
async function readSince(bot: Awaited<ReturnType<typeof createBot>>, guildId: string, at: number): Promise<boolean> {
  const status = await bot.services.storeWebhooks.status(guildId);
  return status.connected && status.lastPostAt !== undefined && status.lastPostAt >= at;
}

/** Part 3: a fresh bot process, webhook connected or not, under `rate` chat messages a second. */
async function chatFlood(world: World, label: string, webhook: boolean, rate: number, seconds: number): Promise<ChatFlood['intentOn']> {
  const dir = join(world.work, `chat-flood-${label}`);
  mkdirSync(dir, { recursive: true });
  const bot = await startProcess(world, 'bot', join(dir, 'store.sqlite'), dir, { ENCRYPTION_KEY });
  try {
    if (webhook) await connectAsAdmin(world.discord, `shop-posts-flood-${label}`);
    await sleep(2 * SECOND);
    const rssBefore = bot.proc.memory()?.rss ?? Number.NaN;
    bot.proc.peakSampledRss = 0;
    const chatter = world.discord.newUser({ username: `chatter-${label}` });
    const channel = world.discord.addChannel(world.discord.defaultGuildId, { name: `general-${label}` });
    const cpuBefore = bot.proc.cpuMs() ?? Number.NaN;
    const began = performance.now();
    // 10 messages every 10 ms.
    for (let sent = 0, batch = 0; sent < rate * seconds; batch += 1) {
      for (let index = 0; index < rate / 100 && sent < rate * seconds; index += 1, sent += 1) world.discord.postMessage(chatter, channel, { content: `message ${sent}: anyone selling diamonds?` });
      await sleep(began + (batch + 1) * 10 - performance.now());
    }
    // Let the bot take the last of them.
    await sleep(SECOND);
    const cpu = (bot.proc.cpuMs() ?? Number.NaN) - cpuBefore;
    return { botCpuMs: round(cpu, 0), peakRssBytes: Math.max(bot.proc.peakSampledRss, bot.proc.memory()?.rss ?? 0), rssBeforeBytes: rssBefore };
  } finally {
    await bot.proc.stop();
    world.running.splice(world.running.indexOf(bot), 1);
  }
}

export async function storeWebhookPhase(world: World, options: { payments: number; floodSeconds: number }, log: (text: string) => void): Promise<StoreWebhookResult> {
  log(`  payment → DM edited: ${options.payments} paid links with the webhook connected (bot process, system clock)`);
  const withWebhook = await paidToDm(world, 'webhook', options.payments, true, log);
  log(`  payment → DM edited: ${options.payments} paid links without the webhook (polling every 30 s)`);
  const withoutWebhook = await paidToDm(world, 'polling', options.payments, false, log);
  const requestsPerHourRows: RequestsPerServer[] = [];
  for (const [webhook, feed] of [[false, false], [true, false], [false, true], [true, true]] as const) {
    log(`  a simulated hour, 8 open links over four servers, ${webhook ? 'webhook connected' : 'no webhook'}${feed ? ', purchase feed on, a website purchase every 5 minutes' : ''}`);
    requestsPerHourRows.push(await requestsPerHour(world.shop, webhook, feed));
  }
  log(`  1 000 chat messages a second for ${options.floodSeconds} s: the intent on (webhook connected), then off`);
  const intentOn = await chatFlood(world, 'on', true, 1000, options.floodSeconds);
  const intentOff = await chatFlood(world, 'off', false, 1000, options.floodSeconds);
  return { paidToDm: { withWebhook, withoutWebhook }, requestsPerHour: requestsPerHourRows, chatFlood: { messages: 1000 * options.floodSeconds, seconds: options.floodSeconds, intentOn, intentOff } };
}

const mb = (bytes: number) => `${round(bytes / 1024 / 1024, 1)} MB`;

export function printStoreWebhook(result: StoreWebhookResult, log: (text: string) => void): void {
  log('\nStore webhook: payment → the member\'s DM edited (bot process, system clock, run under nice -n 19 beside other work)');
  log('| | payments | spread over | p50 | p95 | max | missing | latest_buyers | transaction/info |');
  log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, row] of [['with the webhook', result.paidToDm.withWebhook], ['polling only (before)', result.paidToDm.withoutWebhook]] as const) {
    log(`| ${name} | ${row.payments} | ${row.spreadSeconds} s | ${row.ms.median} ms | ${row.ms.p95} ms | ${row.ms.max} ms | ${row.missing} | ${row.storeRequests.latestBuyers} | ${row.storeRequests.transactionInfo} |`);
  }
  log('\nStore webhook: store requests per hour per server (ManualClock, a simulated hour, 8 open links over four servers)');
  log('| webhook | purchase feed | latest_buyers/h per server | all requests/h per server | transaction/info/h | website purchases | feed posts |');
  log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of result.requestsPerHour) log(`| ${row.webhook ? 'connected, healthy' : 'none'} | ${row.feed ? 'on' : 'off'} | ${row.latestBuyersPerServer} | ${row.allPerServer} | ${row.transactionInfo} | ${row.purchases} | ${row.feedPosts} |`);
  const flood = result.chatFlood;
  log(`\nStore webhook: ${flood.messages} other chat messages at 1 000/s (${flood.seconds} s) in the guild, fresh bot process each`);
  log('| | bot CPU | RSS before | peak RSS |');
  log('| --- | --- | --- | --- |');
  log(`| intent on (webhook connected) | ${flood.intentOn.botCpuMs} ms | ${mb(flood.intentOn.rssBeforeBytes)} | ${mb(flood.intentOn.peakRssBytes)} |`);
  log(`| intent off (no webhook) | ${flood.intentOff.botCpuMs} ms | ${mb(flood.intentOff.rssBeforeBytes)} | ${mb(flood.intentOff.peakRssBytes)} |`);
}
