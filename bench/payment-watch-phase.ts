/**
 * Phase 9 of run.ts: what following payments costs (src/services/payment-watch/).
 *
 * 1. Store requests per hour for a guild with 0, 1, 10 and 200 open links: the bot in this process
 *    on a ManualClock (a simulated hour: a round every 5 s, as the production timer runs them, 720
 *    rounds), SQLite in a temporary folder, its own local Discord and store. Links are recorded as
 *    checkout records them, each for one item of one of the shop's four servers (round-robin). Each
 *    count is shown without purchases, and for 200 links with half of them paid during the hour.
 * 2. A crowd's menu latency while polling runs beside it: the bot as a process (`npm start`'s flags),
 *    the same paced walk (/shop → server → category → product → Next) once on a storage with no open
 *    link, once on one with 200 open links over four servers (PAYMENT_POLL_SECONDS=15, the least,
 *    and purchases by their nicks arriving meanwhile), each walk long enough to span two poll rounds.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBot, registerBotCommands } from '../src/app.js';
import { ManualClock } from '../src/clock.js';
import { createLogger } from '../src/logger.js';
import { licenseId } from '../src/security/license-id.js';
import { PaymentWatcher } from '../src/services/payment-watch/watcher.js';
import { openStorage } from '../src/storage/keyv-store.js';
import { PaymentLinkRepository, type NewPaymentLink } from '../src/storage/payment-links.js';
import { PaymentWatchStore } from '../src/storage/payment-watch.js';
import { FakeDiscord } from '../test/fakes/discord/fake-discord.js';
import type { FakeSpaceIs, ShopFixture } from '../test/fakes/spaceis/fake-spaceis.js';
import { LICENSE_KEY, startProcess } from './bot-process.js';
import { RANGE_PRODUCT } from './shop-fixture.js';
import { round, roundSummary, type Summary } from './stats.js';
import { benchRedis, licensesCost, printLicensesCost, type LicensesCost } from './payment-licenses.js';
import { invalidRequests, printInvalidRequests, type InvalidRequests } from './invalid-requests.js';
import { walkPhase } from './walk.js';
import { inProcessConfig, startStore, type World } from './world.js';

const SECOND = 1_000;
const HOUR = 3_600_000;
const TICK_MS = 5_000;

export interface PollingCost {
  openLinks: number;
  /** Half of the links paid at moments spread over the hour. */
  withPurchases: boolean;
  latestBuyersPerHour: number;
  transactionInfoPerHour: number;
  totalPerHour: number;
  linksSettled: number;
  /** The bot's time per round (storage reads included), in this process. */
  roundMs: { median: number; max: number };
}

export interface CrowdBesidePolling {
  members: number;
  rate: number;
  without: { settledMs: Summary; botCpuMsPerInteraction?: number; storeRequests: number };
  withPolling: { settledMs: Summary; botCpuMsPerInteraction?: number; storeRequests: number; latestBuyers: number; transactionInfo: number; openLinks: number };
}

export interface PaymentWatchResult {
  pollingCost: PollingCost[];
  /** 1, 1 000 and 10 000 licenses with one open link each (SQLite; 1 000 and 10 000 on Redis too): store requests per hour, storage per tick, a checkout's registry cost. */
  licenses: LicensesCost[];
  /** Invalid requests to Discord per 10 minutes from all background work (Discord bans a bot at 10 000). */
  invalidRequests?: InvalidRequests;
  crowd?: CrowdBesidePolling;
}

/** One variant per server of the shop, to spread the links over its servers. */
function itemsByServer(shop: ShopFixture) {
  return shop.servers.map((server) => {
    const category = server.categories[0]!;
    const product = category.products[0]!;
    const variant = product.variants[0]!;
    return { server, category, product, variant };
  });
}

function linkDraft(shop: ShopFixture, guildId: string, index: number, createdAt: number): NewPaymentLink {
  const picks = itemsByServer(shop);
  const pick = picks[index % picks.length]!;
  return {
    guildId,
    userId: String(900_000_000_000_000_000n + BigInt(index)),
    nick: `Gracz_${index}`,
    url: `https://sklep.example.pl/pay/bench-${index}`,
    license: licenseId(LICENSE_KEY),
    createdAt,
    items: [
      {
        variantId: pick.variant.id,
        quantity: 1,
        serverName: pick.server.name,
        productName: pick.product.name,
        variantName: pick.variant.name,
        serverId: pick.server.id,
        categoryId: pick.category.id,
        productId: pick.product.id,
      },
    ],
  };
}

/** Part 1: a simulated hour of rounds for `open` links, counting the store's requests. */
async function pollingHour(shop: ShopFixture, open: number, withPurchases: boolean): Promise<PollingCost> {
  const dir = mkdtempSync(join(tmpdir(), 'shopbot-bench-pay-'));
  const discord = await FakeDiscord.start();
  const store = await startStore(shop);
  const clock = new ManualClock();
  store.now = () => clock.now();
  const config = inProcessConfig({ discord, store }, dir);
  const bot = await createBot({ config, logger: createLogger('silent'), clock, paymentWatch: 'manual' });
  try {
    await bot.start();
    await registerBotCommands(bot.client.rest);
    const links = [];
    for (let index = 0; index < open; index += 1) {
      const link = await bot.services.storage.paymentLinks.create(linkDraft(shop, discord.defaultGuildId, index, clock.now()));
      await bot.services.payments.watch(link);
      links.push(link);
    }
    // Half the links paid, at moments spread over the hour.
    const purchases = withPurchases ? links.filter((_link, index) => index % 2 === 0).map((link, index, paid) => ({ link, at: clock.now() + Math.floor(((index + 1) * HOUR) / (paid.length + 1)) })) : [];
    const requestsBefore = store.requests.length;
    const roundTimes: number[] = [];
    const end = clock.now() + HOUR;
    while (clock.now() < end) {
      clock.advance(TICK_MS);
      for (const purchase of purchases) {
        if (purchase.at <= clock.now() && purchase.at > clock.now() - TICK_MS) {
          store.purchaseOnWebsite({ nick: purchase.link.nick, items: purchase.link.items.map(({ variantId, quantity }) => ({ variantId, quantity })), date: purchase.at });
        }
      }
      const began = performance.now();
      // Through the runner, as production runs it (the payment-watch job, src/services/payment-watch/watcher.ts, `paymentWatchJob`).
      await bot.services.jobs.runNow('payment-watch');
      roundTimes.push(performance.now() - began);
    }
    const requests = store.requests.slice(requestsBefore);
    const latestBuyers = requests.filter((request) => request.path.includes('/latest_buyers')).length;
    const transactionInfo = requests.filter((request) => request.path.startsWith('/v4/transaction/info/')).length;
    let settled = 0;
    for (const link of links) if ((await bot.services.storage.paymentLinks.get(link.guildId, link.id))?.payment?.status === 'paid') settled += 1;
    const sorted = [...roundTimes].sort((a, b) => a - b);
    return {
      openLinks: open,
      withPurchases,
      latestBuyersPerHour: latestBuyers,
      transactionInfoPerHour: transactionInfo,
      totalPerHour: requests.length,
      linksSettled: settled,
      roundMs: { median: round(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, 3), max: round(sorted.at(-1) ?? Number.NaN, 2) },
    };
  } finally {
    await bot.stop();
    await discord.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `count` open links into a fresh SQLite file, as checkout would have, before a bot process starts on it. */
async function seedOpenLinks(file: string, shop: ShopFixture, guildId: string, count: number): Promise<void> {
  const storage = await openStorage(`sqlite://${file}`);
  try {
    const logger = createLogger('silent');
    const links = new PaymentLinkRepository(storage.keyv, logger);
    const watch = new PaymentWatchStore(storage.keyv, logger);
    for (let index = 0; index < count; index += 1) {
      const link = await links.create(linkDraft(shop, guildId, index, Date.now()));
      await watch.index.addOpen(link.license, { guildId: link.guildId, linkId: link.id });
    }
  } finally {
    await storage.close();
  }
}

/** Part 2: the same paced walk beside no polling, then beside polling 200 open links. */
async function crowdBesidePolling(world: World, members: number, rate: number, walkSeconds: number): Promise<CrowdBesidePolling> {
  const route = { server: 'Survival', category: 'Monety', product: RANGE_PRODUCT };
  // Enough walkers, paced at `rate`, for the walk to last `walkSeconds` (5 interactions each).
  const walkers = Math.max(members, Math.ceil((rate * walkSeconds) / 5));
  const run = async (label: string, openLinks: number) => {
    const dir = join(world.work, `payments-${label}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'store.sqlite');
    if (openLinks > 0) await seedOpenLinks(file, world.shop, world.discord.defaultGuildId, openLinks);
    const bot = await startProcess(world, 'bot', file, dir, { PAYMENT_POLL_SECONDS: '15' });
    try {
      // Warm the offer cache as members would have, then measure.
      await walkPhase(world.discord, () => bot.proc.cpuMs(), Math.min(walkers, 50), rate, `${label}-warmup`, route);
      const before = world.store.requests.length;
      // Purchases by the open links' nicks arrive while the crowd walks: the watcher asks about each.
      const buying = openLinks > 0 ? purchasesDuring(world.store, world.shop, openLinks, walkSeconds) : Promise.resolve();
      const walk = await walkPhase(world.discord, () => bot.proc.cpuMs(), walkers, rate, label, route);
      await buying;
      const requests = world.store.requests.slice(before);
      return {
        settledMs: roundSummary(walk.settledMs),
        ...(walk.botCpuMsPerInteraction !== undefined ? { botCpuMsPerInteraction: walk.botCpuMsPerInteraction } : {}),
        storeRequests: requests.length,
        latestBuyers: requests.filter((request) => request.path.includes('/latest_buyers')).length,
        transactionInfo: requests.filter((request) => request.path.startsWith('/v4/transaction/info/')).length,
      };
    } finally {
      await bot.proc.stop();
      world.running.splice(world.running.indexOf(bot), 1);
    }
  };
  const without = await run('no-polling', 0);
  const withPolling = await run('polling', 200);
  return {
    members: walkers,
    rate,
    without: { settledMs: without.settledMs, ...(without.botCpuMsPerInteraction !== undefined ? { botCpuMsPerInteraction: without.botCpuMsPerInteraction } : {}), storeRequests: without.storeRequests },
    withPolling: { ...withPolling, openLinks: 200 },
  };
}

/** 40 purchases by open links' nicks, spread over the walk (real time: the bot process runs on the system clock). */
async function purchasesDuring(store: FakeSpaceIs, shop: ShopFixture, openLinks: number, seconds: number): Promise<void> {
  const count = Math.min(40, openLinks);
  for (let index = 0; index < count; index += 1) {
    await new Promise((resolve) => setTimeout(resolve, (seconds * SECOND) / count));
    const draft = linkDraft(shop, '0', index * 5, Date.now());
    store.purchaseOnWebsite({ nick: draft.nick, items: draft.items.map(({ variantId, quantity }) => ({ variantId, quantity })) });
  }
}

export async function paymentWatchPhase(
  world: World,
  options: { members: number; rate: number; walkSeconds: number; crowd: boolean; licensesOnly?: boolean },
  log: (text: string) => void,
): Promise<PaymentWatchResult> {
  const licenses: LicensesCost[] = [];
  for (const [count, minutes] of licenseSizes()) {
    log(`  ${count} license(s) with one open link each on SQLite, a simulated ${minutes} minutes`);
    licenses.push(await licensesCost(world.shop, count, minutes, { kind: 'sqlite' }));
  }
  for (const [count, minutes] of licenseSizes().filter(([count]) => count >= 1000)) {
    const redis = await benchRedis(log);
    if (!redis) break;
    try {
      log(`  ${count} licenses with one open link each on Redis, a simulated ${minutes} minutes`);
      licenses.push(await licensesCost(world.shop, count, minutes, { kind: 'redis', url: redis.url }));
    } finally {
      await redis.cleanUp();
    }
  }
  log('  invalid requests to Discord from background work: 5 000 timed roles in guilds the bot left or where Discord refuses, a simulated hour');
  const invalid = await invalidRequests(world.shop);
  if (options.licensesOnly) return { pollingCost: [], licenses, invalidRequests: invalid };
  const pollingCost: PollingCost[] = [];
  for (const [open, withPurchases] of [[0, false], [1, false], [10, false], [200, false], [200, true]] as const) {
    log(`  a simulated hour with ${open} open link(s)${withPurchases ? ', half of them paid during it' : ''}`);
    pollingCost.push(await pollingHour(world.shop, open, withPurchases));
  }
  if (!options.crowd) return { pollingCost, licenses, invalidRequests: invalid };
  log(`  a paced walk at ${options.rate}/s for ${options.walkSeconds} s, without polling, then beside polling 200 open links`);
  return { pollingCost, licenses, invalidRequests: invalid, crowd: await crowdBesidePolling(world, options.members, options.rate, options.walkSeconds) };
}

/** BENCH_PAY_LICENSES=count:minutes,…: the sizes of the many-licenses part (default 1:30,1000:5,10000:2). */
function licenseSizes(): [number, number][] {
  const text = process.env.BENCH_PAY_LICENSES?.trim() || '1:30,1000:5,10000:2';
  return text.split(',').map((part) => {
    const [count, minutes] = part.split(':').map(Number);
    if (!Number.isInteger(count) || !(count! > 0) || !(minutes! > 0)) throw new Error(`BENCH_PAY_LICENSES: ${part} is not count:minutes`);
    return [count!, minutes!];
  });
}

export function printPaymentWatch(result: PaymentWatchResult, log: (text: string) => void): void {
  printLicensesCost(result.licenses, log);
  if (result.invalidRequests) printInvalidRequests(result.invalidRequests, log);
  if (result.pollingCost.length === 0) return;
  log('\nPayments: store requests per hour (a round every 5 s, PAYMENT_POLL_SECONDS=30, four servers)');
  log('| open links | purchases | latest_buyers/h | transaction/info/h | all requests/h | links settled | round (median / max) |');
  log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of result.pollingCost) {
    log(`| ${row.openLinks} | ${row.withPurchases ? 'half paid' : 'none'} | ${row.latestBuyersPerHour} | ${row.transactionInfoPerHour} | ${row.totalPerHour} | ${row.linksSettled} | ${row.roundMs.median} / ${row.roundMs.max} ms |`);
  }
  const crowd = result.crowd;
  if (!crowd) return;
  log(`\nPayments: a crowd's menus beside polling (${crowd.members} members walking at ${crowd.rate}/s; PAYMENT_POLL_SECONDS=15, 200 open links)`);
  log('| | settled p50 | p95 | p99 | max | bot CPU/interaction | store requests (latest_buyers, info) |');
  log('| --- | --- | --- | --- | --- | --- | --- |');
  const row = (name: string, side: { settledMs: Summary; botCpuMsPerInteraction?: number; storeRequests: number }, extra = '') =>
    log(`| ${name} | ${side.settledMs.median} ms | ${side.settledMs.p95} ms | ${side.settledMs.p99} ms | ${side.settledMs.max} ms | ${side.botCpuMsPerInteraction ?? '–'} ms | ${side.storeRequests}${extra} |`);
  row('without polling', crowd.without);
  row('with polling', crowd.withPolling, ` (${crowd.withPolling.latestBuyers}, ${crowd.withPolling.transactionInfo})`);
}
