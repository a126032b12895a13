/**
 * Part of phase 9 (payment-watch-phase.ts): what following payments costs with many licenses, each
 * with one guild and one open link (issue 28, "idle costs nothing"). The bot in this process on a
 * ManualClock, SQLite in a temporary folder, its own local Discord and store (which accepts every
 * license's key, each reaching the same offer). A round every 5 s, as the production timer runs them,
 * for a simulated `minutes` span; the counts are scaled to an hour. Storage reads and writes are
 * counted between the bot's Keyv and SQLite, and averaged over the idle ticks: the rounds in which
 * the store got no request because nothing was due.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyvStoreAdapter } from 'keyv';
import { createBot } from '../src/app.js';
import { ManualClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { fingerprintOf, licenseId } from '../src/security/license-id.js';
import { FakeDiscord } from '../test/fakes/discord/fake-discord.js';
import type { ShopFixture } from '../test/fakes/spaceis/fake-spaceis.js';
import { LICENSE_KEY, TOKEN } from './bot-process.js';
import { round } from './stats.js';
import { startStore } from './world.js';

const TICK_MS = 5_000;
const HOUR = 3_600_000;
const ENCRYPTION_KEY = Buffer.alloc(32, 9).toString('base64');

export interface LicensesCost {
  licenses: number;
  /** Simulated span, scaled to an hour below. */
  minutes: number;
  latestBuyersPerHour: number;
  transactionInfoPerHour: number;
  storeRequestsPerHour: number;
  idleTicks: number;
  readsPerIdleTick: number;
  writesPerIdleTick: number;
  /** The bot's time per idle tick, in this process. */
  idleTickMs: number;
}

const READS = new Set(['get', 'getMany', 'has', 'hasMany']);
const WRITES = new Set(['set', 'setMany', 'delete', 'deleteMany', 'clear']);

/** Counts what the bot asks of storage (a `getMany` of n keys counts n reads). */
function counting(counts: { reads: number; writes: number }) {
  return (adapter: KeyvStoreAdapter): KeyvStoreAdapter =>
    new Proxy(adapter, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof property !== 'string' || typeof value !== 'function') return value;
        const kind = READS.has(property) ? 'reads' : WRITES.has(property) ? 'writes' : undefined;
        if (!kind) return value;
        return (...args: unknown[]) => {
          counts[kind] += Array.isArray(args[0]) ? args[0].length : 1;
          return (value as (...inner: unknown[]) => unknown).apply(target, args);
        };
      },
    });
}

export async function licensesCost(shop: ShopFixture, licenses: number, minutes: number): Promise<LicensesCost> {
  const dir = mkdtempSync(join(tmpdir(), 'shopbot-bench-licenses-'));
  const discord = await FakeDiscord.start();
  const store = await startStore(shop);
  const clock = new ManualClock();
  store.now = () => clock.now();
  const counts = { reads: 0, writes: 0 };
  const config = loadConfig({
    DISCORD_TOKEN: TOKEN,
    DISCORD_API_URL: discord.apiUrl,
    SPACEIS_API_URL: store.url,
    SPACEIS_API_KEY: LICENSE_KEY,
    ENCRYPTION_KEY,
    STORAGE_URL: `sqlite://${join(dir, 'store.sqlite')}`,
    LOG_LEVEL: 'silent',
    DEMO_PORT: '0',
  });
  const bot = await createBot({ config, logger: createLogger('silent'), clock, paymentWatch: 'manual', storageAdapter: counting(counts) });
  try {
    await bot.start();
    const secretBox = bot.services.secretBox!;
    const server = shop.servers[0]!;
    const category = server.categories[0]!;
    const product = category.products[0]!;
    const variant = product.variants[0]!;
    for (let index = 0; index < licenses; index += 1) {
      const key = `bench-license-${index}-0123456789abcdef`;
      store.otherKeys.add(key);
      const guildId = String(800_000_000_000_000_000n + BigInt(index));
      const license = licenseId(key);
      await bot.services.storage.guildSettings.set(guildId, { license: { sealed: secretBox.seal(key, guildId), fingerprint: fingerprintOf(license), setBy: '1', setAt: clock.now() } });
      const link = await bot.services.storage.paymentLinks.create({
        guildId,
        userId: String(900_000_000_000_000_000n + BigInt(index)),
        nick: `Gracz_${index}`,
        url: `https://sklep.example.pl/pay/bench-licenses-${index}`,
        license,
        createdAt: clock.now(),
        items: [{ variantId: variant.id, quantity: 1, serverName: server.name, productName: product.name, variantName: variant.name, serverId: server.id, categoryId: category.id, productId: product.id }],
      });
      await bot.services.payments.watch(link);
    }
    // The first round after a start visits every watched license once (it reads the whole registry)
    // and looks at every server afresh; the next one visits the licenses their checkouts made due. Not
    // part of the steady cost: measured from the round after.
    await bot.services.payments.tick();
    clock.advance(TICK_MS);
    await bot.services.payments.tick();
    const before = store.requests.length;
    let idleTicks = 0;
    let idleReads = 0;
    let idleWrites = 0;
    let idleMs = 0;
    const ticks = (minutes * 60_000) / TICK_MS;
    for (let tick = 0; tick < ticks; tick += 1) {
      clock.advance(TICK_MS);
      const requests = store.requests.length;
      const reads = counts.reads;
      const writes = counts.writes;
      const began = performance.now();
      await bot.services.payments.tick();
      const took = performance.now() - began;
      if (store.requests.length !== requests) continue;
      idleTicks += 1;
      idleReads += counts.reads - reads;
      idleWrites += counts.writes - writes;
      idleMs += took;
    }
    const requests = store.requests.slice(before);
    const perHour = (count: number) => Math.round((count * HOUR) / (minutes * 60_000));
    return {
      licenses,
      minutes,
      latestBuyersPerHour: perHour(requests.filter((request) => request.path.includes('/latest_buyers')).length),
      transactionInfoPerHour: perHour(requests.filter((request) => request.path.startsWith('/v4/transaction/info/')).length),
      storeRequestsPerHour: perHour(requests.length),
      idleTicks,
      readsPerIdleTick: idleTicks ? round(idleReads / idleTicks, 1) : Number.NaN,
      writesPerIdleTick: idleTicks ? round(idleWrites / idleTicks, 1) : Number.NaN,
      idleTickMs: idleTicks ? round(idleMs / idleTicks, 2) : Number.NaN,
    };
  } finally {
    await bot.stop();
    await discord.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printLicensesCost(rows: readonly LicensesCost[], log: (text: string) => void): void {
  log('\nPayments: many licenses, one open link each (a round every 5 s, PAYMENT_POLL_SECONDS=30)');
  log('| licenses | latest_buyers/h | transaction/info/h | all store requests/h | storage reads / idle tick | writes / idle tick | idle tick |');
  log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    log(`| ${row.licenses} | ${row.latestBuyersPerHour} | ${row.transactionInfoPerHour} | ${row.storeRequestsPerHour} | ${row.readsPerIdleTick} | ${row.writesPerIdleTick} | ${row.idleTickMs} ms |`);
  }
}
