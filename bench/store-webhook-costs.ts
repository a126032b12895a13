/**
 * Parts 2 and 3 of the store webhook phase (bench/store-webhook-phase.ts): store requests per hour
 * per server on a ManualClock, and the cost of other chat with the Guild Messages intent on and off.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBot, registerBotCommands } from '../src/app.js';
import { ManualClock } from '../src/clock.js';
import { createLogger } from '../src/logger.js';
import { licenseId } from '../src/security/license-id.js';
import { FakeDiscord } from '../test/fakes/discord/fake-discord.js';
import type { FakeSpaceIs, ShopFixture } from '../test/fakes/spaceis/fake-spaceis.js';
import { LICENSE_KEY, startProcess } from './bot-process.js';
import { round } from './stats.js';
import { ADMIN, connectAsAdmin, ENCRYPTION_KEY, SECOND, sleep } from './store-webhook-admin.js';
import { inProcessConfig, startStore, type World } from './world.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const TICK_MS = 5_000;

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

/** One bot process under the flood. */
export interface ChatFloodRun {
  botCpuMs: number;
  /** CPU a second while 1 000 messages a second arrive (botCpuMs over the flood's seconds): the figure docs/running/costs.md gives. */
  cpuMsPerSecond: number;
  peakRssBytes: number;
  rssBeforeBytes: number;
}

export interface ChatFlood {
  messages: number;
  seconds: number;
  intentOn: ChatFloodRun;
  intentOff: ChatFloodRun;
}

/** Part 2: a simulated hour on a ManualClock, counting the store's requests per server. */
export async function requestsPerHour(shop: ShopFixture, webhook: boolean, feed: boolean): Promise<RequestsPerServer> {
  const dir = mkdtempSync(join(tmpdir(), 'shopbot-bench-hook-'));
  const discord = await FakeDiscord.start();
  const store: FakeSpaceIs = await startStore(shop);
  const clock = new ManualClock();
  store.now = () => clock.now();
  const config = inProcessConfig({ discord, store }, dir, { ENCRYPTION_KEY });
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

/**
 * Part 3: a fresh bot process under `rate` chat messages a second, with the Guild Messages intent
 * (STORE_WEBHOOK_INTENT=on, a webhook connected: the local Discord dispatches every MESSAGE_CREATE,
 * blank, and the bot drops each at the raw packet) or without it (off: nothing is dispatched).
 */
export async function chatFlood(world: World, label: string, intent: boolean, rate: number, seconds: number): Promise<ChatFloodRun> {
  const dir = join(world.work, `chat-flood-${label}`);
  mkdirSync(dir, { recursive: true });
  const bot = await startProcess(world, 'bot', join(dir, 'store.sqlite'), dir, { ENCRYPTION_KEY, STORE_WEBHOOK_INTENT: intent ? 'on' : 'off' });
  try {
    if (intent) await connectAsAdmin(world.discord, `shop-posts-flood-${label}`);
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
    return { botCpuMs: round(cpu, 0), cpuMsPerSecond: round(cpu / seconds, 1), peakRssBytes: Math.max(bot.proc.peakSampledRss, bot.proc.memory()?.rss ?? 0), rssBeforeBytes: rssBefore };
  } finally {
    await bot.proc.stop();
    world.running.splice(world.running.indexOf(bot), 1);
  }
}

