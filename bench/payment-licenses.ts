/**
 * Part of phase 9 (payment-watch-phase.ts): what following payments costs with many licenses, each
 * with one guild and one open link (idle costs nothing, and the indexes cost what is due, not what
 * exists). The bot in this process on a ManualClock, on SQLite in a
 * temporary folder or on Redis (its own database and key prefix, deleted afterwards), its own local
 * Discord and store (which accepts every license's key, each reaching the same offer).
 *
 * The links are issued spread over one poll interval (30 s), with the watcher's rounds running
 * meanwhile, as members' checkouts would come: about a sixth of the licenses is due in each 5 s round.
 * Then a round every 5 s for a simulated `minutes` span; store requests are scaled to an hour.
 * Storage is counted at the Keyv adapter boundary (bench/storage-count.ts): reads, writes and bytes
 * per round, and per license the round visited (a license is visited when its state is read).
 * Then a checkout's cost to the registry: `PaymentWatcher.watch(link)` (what /checkout calls once the
 * link is recorded) for links of licenses already watched, and for links of licenses joining it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBot, type Bot } from '../src/app.js';
import { ManualClock } from '../src/clock.js';
import { createLogger } from '../src/logger.js';
import { fingerprintOf, licenseId } from '../src/security/license-id.js';
import { FakeDiscord } from '../test/fakes/discord/fake-discord.js';
import type { ShopFixture } from '../test/fakes/spaceis/fake-spaceis.js';
import { round } from './stats.js';
import { since, StorageCount, type Counted } from './storage-count.js';
import { inProcessConfig, startStore } from './world.js';

const TICK_MS = 5_000;
const POLL_MS = 30_000;
const HOUR = 3_600_000;
const ENCRYPTION_KEY = Buffer.alloc(32, 9).toString('base64');
/** Checkouts measured for each kind (a license already watched, a license joining). */
const CHECKOUTS = 20;

export type StorageKind = 'sqlite' | 'redis';

export interface CheckoutRegistryCost {
  checkouts: number;
  /** Per checkout, mean (and the largest one's bytes). */
  reads: number;
  writes: number;
  bytesRead: number;
  bytesWritten: number;
  maxBytesRead: number;
  maxBytesWritten: number;
}

export interface LicensesCost {
  licenses: number;
  storage: StorageKind;
  /** Simulated span, scaled to an hour below. */
  minutes: number;
  latestBuyersPerHour: number;
  transactionInfoPerHour: number;
  storeRequestsPerHour: number;
  ticks: number;
  /** Licenses a round visited, mean over the rounds (and the most in one). */
  duePerTick: number;
  maxDuePerTick: number;
  readsPerTick: number;
  writesPerTick: number;
  bytesWrittenPerTick: number;
  maxBytesWrittenPerTick: number;
  /** Bytes written over the span divided by the licenses visited; the largest ratio of one round. */
  bytesWrittenPerDueLicense: number;
  maxBytesWrittenPerDueLicense: number;
  /** Rounds in which no license was due: what they read and wrote. */
  idleTicks: number;
  readsPerIdleTick: number;
  writesPerIdleTick: number;
  /** The bot's time per round, in this process. */
  tickMs: number;
  /** A checkout's reads and writes of the registry's records (bench/storage-count.ts, isRegistryKey). */
  checkoutListed?: CheckoutRegistryCost;
  checkoutJoining?: CheckoutRegistryCost;
}

/** Redis for the bench: its own database and a fresh key prefix; undefined (and one line said) when it does not answer. */
export async function benchRedis(log: (text: string) => void): Promise<{ url: string; cleanUp: () => Promise<void> } | undefined> {
  const base = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const { Redis } = await import('ioredis');
  const { deleteKeysMatching } = await import('../src/coordination/redis-keys.js');
  const url = new URL(base);
  url.pathname = '/12';
  url.search = '';
  const client = new Redis(url.toString(), { maxRetriesPerRequest: 1, connectTimeout: 2_000, lazyConnect: true, retryStrategy: () => null });
  try {
    await client.connect();
    await client.ping();
  } catch {
    client.disconnect();
    log(`  Redis at ${url.host} is not reachable: the Redis rows are left out`);
    return undefined;
  }
  const prefix = `bench-pay-${Math.random().toString(36).slice(2, 10)}`;
  return {
    url: `${url.toString()}?prefix=${prefix}`,
    cleanUp: async () => {
      await deleteKeysMatching(client, `${prefix}:*`).catch(() => undefined);
      client.disconnect();
    },
  };
}

export async function licensesCost(shop: ShopFixture, licenses: number, minutes: number, storage: { kind: StorageKind; url?: string }): Promise<LicensesCost> {
  const dir = mkdtempSync(join(tmpdir(), 'shopbot-bench-licenses-'));
  const discord = await FakeDiscord.start();
  const store = await startStore(shop);
  const clock = new ManualClock();
  store.now = () => clock.now();
  const count = new StorageCount();
  const config = inProcessConfig({ discord, store }, dir, { ENCRYPTION_KEY, ...(storage.kind === 'redis' ? { STORAGE_URL: storage.url! } : {}) });
  const bot = await createBot({ config, logger: createLogger('silent'), clock, paymentWatch: 'manual', panelRefresh: 'manual', storageAdapter: count.wrap });
  try {
    await bot.start();
    const issue = linkIssuer(bot, shop, clock, store.otherKeys);
    // A first round before any link: the watcher then reads the due-time index slot by slot.
    await bot.services.payments.tick();
    // Checkouts spread over one poll interval, the rounds running meanwhile.
    let nextTick = clock.now() + TICK_MS;
    for (let index = 0; index < licenses; index += 1) {
      clock.advance(POLL_MS / licenses);
      if (clock.now() >= nextTick) {
        await bot.services.payments.tick();
        nextTick += TICK_MS;
      }
      await bot.services.payments.watch(await issue(index));
    }
    // Two poll intervals for every license to settle into its slot: not measured.
    for (let tick = 0; tick < (2 * POLL_MS) / TICK_MS; tick += 1) {
      clock.advance(TICK_MS);
      await bot.services.payments.tick();
    }
    const before = store.requests.length;
    const totals = { ticks: 0, due: 0, maxDue: 0, reads: 0, writes: 0, bytes: 0, maxBytes: 0, maxPerDue: 0, idle: 0, idleReads: 0, idleWrites: 0, ms: 0 };
    const ticks = (minutes * 60_000) / TICK_MS;
    for (let tick = 0; tick < ticks; tick += 1) {
      clock.advance(TICK_MS);
      count.statesRead.clear();
      const at = count.snapshot();
      const began = performance.now();
      await bot.services.payments.tick();
      totals.ms += performance.now() - began;
      const spent = since(count.all, at.all);
      const due = count.statesRead.size;
      totals.ticks += 1;
      totals.due += due;
      totals.maxDue = Math.max(totals.maxDue, due);
      totals.reads += spent.reads;
      totals.writes += spent.writes;
      totals.bytes += spent.bytesWritten;
      totals.maxBytes = Math.max(totals.maxBytes, spent.bytesWritten);
      if (due > 0) totals.maxPerDue = Math.max(totals.maxPerDue, spent.bytesWritten / due);
      else {
        totals.idle += 1;
        totals.idleReads += spent.reads;
        totals.idleWrites += spent.writes;
      }
    }
    const requests = store.requests.slice(before);
    const perHour = (n: number) => Math.round((n * HOUR) / (minutes * 60_000));
    const checkoutListed = await checkoutCost(bot, count, CHECKOUTS, (n) => issue(n % licenses, `again-${n}`));
    const checkoutJoining = await checkoutCost(bot, count, CHECKOUTS, (n) => issue(licenses + n));
    const mean = (n: number) => round(n / totals.ticks, 1);
    return {
      licenses,
      storage: storage.kind,
      minutes,
      latestBuyersPerHour: perHour(requests.filter((request) => request.path.includes('/latest_buyers')).length),
      transactionInfoPerHour: perHour(requests.filter((request) => request.path.startsWith('/v4/transaction/info/')).length),
      storeRequestsPerHour: perHour(requests.length),
      ticks: totals.ticks,
      duePerTick: mean(totals.due),
      maxDuePerTick: totals.maxDue,
      readsPerTick: mean(totals.reads),
      writesPerTick: mean(totals.writes),
      bytesWrittenPerTick: Math.round(totals.bytes / totals.ticks),
      maxBytesWrittenPerTick: totals.maxBytes,
      bytesWrittenPerDueLicense: totals.due ? Math.round(totals.bytes / totals.due) : Number.NaN,
      maxBytesWrittenPerDueLicense: Math.round(totals.maxPerDue),
      idleTicks: totals.idle,
      readsPerIdleTick: totals.idle ? round(totals.idleReads / totals.idle, 1) : Number.NaN,
      writesPerIdleTick: totals.idle ? round(totals.idleWrites / totals.idle, 1) : Number.NaN,
      tickMs: round(totals.ms / totals.ticks, 2),
      checkoutListed,
      checkoutJoining,
    };
  } finally {
    await bot.stop();
    await discord.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Makes license `index` (its key known to the store, its guild's settings holding it, as /shop-admin
 * license sets them, once) and records one open link on it, as checkout records it before it calls watch.
 */
function linkIssuer(bot: Bot, shop: ShopFixture, clock: ManualClock, storeKeys: Set<string>) {
  const secretBox = bot.services.secretBox!;
  const server = shop.servers[0]!;
  const category = server.categories[0]!;
  const product = category.products[0]!;
  const variant = product.variants[0]!;
  const known = new Set<number>();
  return async (index: number, tag = 'first') => {
    const key = `bench-license-${index}-0123456789abcdef`;
    const guildId = String(800_000_000_000_000_000n + BigInt(index));
    const license = licenseId(key);
    if (!known.has(index)) {
      known.add(index);
      storeKeys.add(key);
      await bot.services.storage.guildSettings.set(guildId, { license: { sealed: secretBox.seal(key, guildId), fingerprint: fingerprintOf(license), setBy: '1', setAt: clock.now() } });
    }
    return bot.services.storage.paymentLinks.create({
      guildId,
      userId: String(900_000_000_000_000_000n + BigInt(index)),
      nick: `Gracz_${index}`,
      url: `https://sklep.example.pl/pay/bench-licenses-${index}-${tag}`,
      license,
      createdAt: clock.now(),
      items: [{ variantId: variant.id, quantity: 1, serverName: server.name, productName: product.name, variantName: variant.name, serverId: server.id, categoryId: category.id, productId: product.id }],
    });
  };
}

/** The registry's reads and writes of `watch(link)` alone (the link recorded before), over `n` checkouts. */
async function checkoutCost(bot: Bot, count: StorageCount, n: number, link: (n: number) => ReturnType<ReturnType<typeof linkIssuer>>): Promise<CheckoutRegistryCost> {
  const sum: Counted = { reads: 0, writes: 0, bytesRead: 0, bytesWritten: 0 };
  let maxRead = 0;
  let maxWritten = 0;
  for (let index = 0; index < n; index += 1) {
    const made = await link(index);
    const at = count.snapshot().registry;
    await bot.services.payments.watch(made);
    const spent = since(count.registry, at);
    sum.reads += spent.reads;
    sum.writes += spent.writes;
    sum.bytesRead += spent.bytesRead;
    sum.bytesWritten += spent.bytesWritten;
    maxRead = Math.max(maxRead, spent.bytesRead);
    maxWritten = Math.max(maxWritten, spent.bytesWritten);
  }
  return { checkouts: n, reads: round(sum.reads / n, 1), writes: round(sum.writes / n, 1), bytesRead: Math.round(sum.bytesRead / n), bytesWritten: Math.round(sum.bytesWritten / n), maxBytesRead: maxRead, maxBytesWritten: maxWritten };
}

const kb = (bytes: number) => (Number.isFinite(bytes) ? (bytes >= 10_000 ? `${round(bytes / 1024, 0)} KB` : bytes >= 1024 ? `${round(bytes / 1024, 1)} KB` : `${bytes} B`) : '–');

export function printLicensesCost(rows: readonly LicensesCost[], log: (text: string) => void): void {
  log('\nPayments: many licenses, one open link each, issued over one poll interval (a round every 5 s, PAYMENT_POLL_SECONDS=30)');
  log('| licenses | storage | span | store requests/h | due per round (mean / max) | reads / round | writes / round | bytes written / round (mean / max) | bytes written per due license (mean / worst round) | idle rounds: reads, writes | round |');
  log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    const idle = row.idleTicks > 0 ? `${row.readsPerIdleTick}, ${row.writesPerIdleTick} (${row.idleTicks})` : 'none';
    log(
      `| ${row.licenses} | ${row.storage} | ${row.minutes} min | ${row.storeRequestsPerHour} | ${row.duePerTick} / ${row.maxDuePerTick} | ${row.readsPerTick} | ${row.writesPerTick} | ${kb(row.bytesWrittenPerTick)} / ${kb(row.maxBytesWrittenPerTick)} | ${kb(row.bytesWrittenPerDueLicense)} / ${kb(row.maxBytesWrittenPerDueLicense)} | ${idle} | ${row.tickMs} ms |`,
    );
  }
  log('\nPayments: a checkout’s cost to the registry (PaymentWatcher.watch; pay-licenses, pay-listed, pay-due, pay-open-guilds, pay-open), per checkout');
  log('| licenses | storage | checkout on | record reads | record writes | bytes read (mean / max) | bytes written (mean / max) |');
  log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    for (const [name, cost] of [['a license already watched', row.checkoutListed], ['a license joining it', row.checkoutJoining]] as const) {
      if (!cost) continue;
      log(`| ${row.licenses} | ${row.storage} | ${name} | ${cost.reads} | ${cost.writes} | ${kb(cost.bytesRead)} / ${kb(cost.maxBytesRead)} | ${kb(cost.bytesWritten)} / ${kb(cost.maxBytesWritten)} |`);
    }
  }
}
