/**
 * Storage at scale, in a process of its own (so the memory it reports is the storage's, not the
 * orchestrator's). Two modes, each printing one JSON line on stdout:
 *
 *   node storage-scale.js fill <sqlite file> <carts> <links>
 *     Opens the storage exactly as the bot does (openStorage + the repositories) and fills it.
 *     The first carts go through the cart service one by one (the bot's own write path), which
 *     also tells how long a one-by-one fill of all of them would take; the rest, and every payment-link
 *     record with its indexes, are written in SQLite transactions through the same store's `query`,
 *     with the keys (Keyv's namespace prefix) and values (Keyv's serializer) Keyv itself would write.
 *
 *   node storage-scale.js measure <sqlite file> <carts> <links> <cycles>
 *     A fresh process opens the filled storage and times cart read/modify/write cycles through
 *     the cart service's setQuantity, payment-link creation and lookups, the sweep of expired
 *     records (with nothing expired, then with every cart expired), and reports its RSS.
 */
import { createHash, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { Writable } from 'node:stream';
import type KeyvSqlite from '@keyv/sqlite';
import type { CartLine } from '../src/cart/rules.js';
import { createLogger } from '../src/logger.js';
import { licenseId } from '../src/security/license-id.js';
import { CartRepository, type StoredCart } from '../src/storage/carts.js';
import { openStorage, type Storage } from '../src/storage/keyv-store.js';
import { PaymentLinkRepository, type PaymentLink } from '../src/storage/payment-links.js';
import { readProcMemory } from './process.js';
import { shopSizedFixture } from './shop-fixture.js';
import { summarize, roundSummary, round } from './stats.js';
import { linkItemsOf } from '../src/services/checkout-service.js';
import { CartService } from '../src/services/cart-service.js';
import { shortRef } from '../src/services/short-ref.js';
import { NickRepository } from '../src/storage/nicks.js';
import { systemClock } from '../src/clock.js';

export const GUILD = '900000000000000001';
export const LICENSE = licenseId('bench-license-key');
const DAY_MS = 86_400_000;
const CART_EXPIRY_MS = 30 * DAY_MS;
/** Records spread over this many past days: inside the 90-day retention, so pruning at start deletes nothing. */
const SPREAD_DAYS = 89;
const ROWS_PER_STATEMENT = 400;
const ROWS_PER_TRANSACTION = 20_000;

export function userId(index: number): string {
  return String(800_000_000_000_000_000n + BigInt(index));
}

/** Every Survival variant as a cart line template, to fill carts with lines the bot could have written. */
function lineTemplates(): Omit<CartLine, 'quantity'>[] {
  const shop = shopSizedFixture();
  const templates: Omit<CartLine, 'quantity'>[] = [];
  for (const server of shop.servers) {
    for (const category of server.categories) {
      for (const product of category.products) {
        for (const variant of product.variants.slice(0, 5)) {
          templates.push({
            variantId: variant.id,
            serverId: server.id,
            categoryId: category.id,
            productId: product.id,
            serverName: server.name,
            productName: product.name,
            variantName: variant.name,
          });
        }
      }
    }
  }
  return templates;
}

/** A deterministic cart of three distinct lines (from one server, as the bot's rule requires). */
function cartFor(index: number, templates: Omit<CartLine, 'quantity'>[]): StoredCart {
  const first = (index * 7) % templates.length;
  const server = templates[first]!.serverId;
  const sameServer = templates.filter((line) => line.serverId === server);
  const lines: CartLine[] = [];
  for (let k = 0; lines.length < 3; k++) {
    const candidate = sameServer[(index * 3 + k * 5) % sameServer.length]!;
    if (!lines.some((line) => line.variantId === candidate.variantId)) lines.push({ ...candidate, quantity: 1 + ((index + k) % 5) });
  }
  return { license: LICENSE, lines };
}

const POLICY = { license: LICENSE, multiServer: false };

/** The cart service the bot builds over the repository (in-process locks, as on SQLite). */
function cartService(storage: Storage, repository: CartRepository): CartService {
  return new CartService({ repository, nicks: new NickRepository(storage.keyv), clock: systemClock });
}

function silentLogger() {
  return createLogger('warn', new Writable({ write: (_chunk, _encoding, done) => done() }));
}

/** Writes rows in transactions of multi-row upserts, through the store's own connection; `ttlMs` as Keyv would stamp it. */
async function bulkWrite(storage: Storage, rows: AsyncIterable<[string, unknown]> | Iterable<[string, unknown]>, ttlMs?: number): Promise<number> {
  const keyv = storage.keyv;
  const store = keyv.store as KeyvSqlite;
  const table = (store.opts as { table?: string }).table ?? 'keyv';
  let written = 0;
  let pending: string[] = [];
  let inTransaction = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const placeholders = new Array(pending.length / 2).fill('(?, ?)').join(', ');
    await store.query(`INSERT INTO ${table} (key, value) VALUES ${placeholders} ON CONFLICT(key) DO UPDATE SET value = excluded.value`, ...pending);
    written += pending.length / 2;
    inTransaction += pending.length / 2;
    pending = [];
    if (inTransaction >= ROWS_PER_TRANSACTION) {
      await store.query('COMMIT');
      await store.query('BEGIN');
      inTransaction = 0;
    }
  };
  await store.query('BEGIN');
  for await (const [key, value] of rows) {
    const serialized = await keyv.serializeData(ttlMs === undefined ? { value } : { value, expires: Date.now() + ttlMs });
    pending.push(keyv._getKeyPrefix(key), serialized as string);
    if (pending.length >= ROWS_PER_STATEMENT * 2) await flush();
  }
  await flush();
  await store.query('COMMIT');
  return written;
}

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function linkId(used: Set<string>): string {
  for (;;) {
    let id = '';
    for (const byte of randomBytes(8)) id += ALPHABET[byte % 32];
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
  }
}

/** The records and indexes PaymentLinkRepository.create would have written for `count` links. */
function* linkRows(count: number, templates: Omit<CartLine, 'quantity'>[], now: number): Generator<[string, unknown]> {
  const members = Math.max(1, Math.floor(count / 2));
  const used = new Set<string>();
  const byMember = new Map<string, { id: string; createdAt: number }[]>();
  const byDay = new Map<string, [string, string][]>();
  const all: { id: string; createdAt: number }[] = [];
  for (let n = 0; n < count; n++) {
    const user = userId(n % members);
    const id = linkId(used);
    // Spread evenly over the past SPREAD_DAYS days.
    const createdAt = now - Math.floor(((n + 0.5) / count) * SPREAD_DAYS * DAY_MS);
    const cart = cartFor(n, templates);
    const url = `https://sklep.example.pl/pay/${n + 1}?token=${randomBytes(12).toString('base64url')}&lang=pl`;
    const record: PaymentLink = {
      id,
      guildId: GUILD,
      userId: user,
      nick: `Gracz_${n % 100_000}`,
      items: linkItemsOf(cart.lines),
      url,
      license: LICENSE,
      createdAt,
      delivery: { kind: 'dm', channelId: String(700_000_000_000_000_000n + BigInt(n)), messageId: String(600_000_000_000_000_000n + BigInt(n)) },
    };
    yield [`link:${GUILD}:${id}`, record];
    yield [`link-url:${GUILD}:${createHash('sha256').update(url).digest('hex')}`, id];
    const list = byMember.get(user) ?? [];
    list.push({ id, createdAt });
    byMember.set(user, list);
    const day = new Date(createdAt).toISOString().slice(0, 10);
    const entries = byDay.get(day) ?? [];
    entries.push([GUILD, id]);
    byDay.set(day, entries);
    all.push({ id, createdAt });
  }
  const newestFirst = (a: { createdAt: number }, b: { createdAt: number }) => b.createdAt - a.createdAt;
  for (const [user, list] of byMember) yield [`links-of:${GUILD}:${user}`, list.sort(newestFirst).map((link) => link.id)];
  yield [`links-recent:${GUILD}`, all.sort(newestFirst).slice(0, 50).map((link) => link.id)];
  for (const [day, entries] of byDay) yield [`link-day:${day}`, entries.reverse()];
  yield ['link-days', [...byDay.keys()].sort()];
}

async function fill(file: string, carts: number, links: number): Promise<Record<string, unknown>> {
  const started = performance.now();
  const logger = silentLogger();
  const storage = await openStorage(`sqlite://${file}`);
  const repo = new CartRepository(storage.keyv, logger);
  const filler = cartService(storage, repo);
  const templates = lineTemplates();

  // The bot's own write path first, one cart at a time: the rate a one-by-one fill would have.
  const viaRepository = Math.min(carts, 2_000);
  const oneByOneStart = performance.now();
  for (let index = 0; index < viaRepository; index++) {
    const cart = cartFor(index, templates);
    await filler.addMany({ guildId: GUILD, userId: userId(index) }, POLICY, cart.lines.map(({ quantity, ...item }) => ({ item, quantity })));
  }
  const oneByOneMs = performance.now() - oneByOneStart;

  const bulkStart = performance.now();
  function* cartRows(): Generator<[string, unknown]> {
    for (let index = viaRepository; index < carts; index++) yield [`cart:${GUILD}:${userId(index)}`, cartFor(index, templates)];
  }
  // With the expiry the cart service writes them with (CART_EXPIRY_DAYS, 30 by default).
  const cartRowsWritten = await bulkWrite(storage, cartRows(), CART_EXPIRY_MS);
  const cartsBulkMs = performance.now() - bulkStart;

  const linksStart = performance.now();
  const linkRowsWritten = await bulkWrite(storage, linkRows(links, templates, Date.now()));
  const linksBulkMs = performance.now() - linksStart;

  // Read back through the repositories: what was written in bulk must be what the bot reads.
  const check = await repo.read(GUILD, userId(carts - 1));
  if (check.lines.length !== 3) throw new Error('a bulk-written cart did not read back through CartRepository');
  const linkRepo = new PaymentLinkRepository(storage.keyv, logger);
  const mine = await linkRepo.listForMember(GUILD, userId(0), 0, 10);
  if (links > 0 && mine.links.length === 0) throw new Error('bulk-written payment links did not read back through PaymentLinkRepository');

  await storage.keyv.store.query('PRAGMA wal_checkpoint(TRUNCATE)');
  await storage.close();
  const memory = readProcMemory(process.pid);
  return {
    mode: 'fill',
    carts,
    links,
    oneByOne: { carts: viaRepository, ms: round(oneByOneMs), perCartMs: round(oneByOneMs / Math.max(1, viaRepository), 3), projectedAllCartsS: round((oneByOneMs / Math.max(1, viaRepository)) * carts / 1000, 1) },
    bulk: { cartRows: cartRowsWritten, cartsMs: round(cartsBulkMs), linkRows: linkRowsWritten, linksMs: round(linksBulkMs) },
    totalMs: round(performance.now() - started),
    fileBytes: statSync(file).size,
    rssBytes: memory?.rss,
    hwmBytes: memory?.hwm,
  };
}

async function measure(file: string, carts: number, links: number, cycles: number): Promise<Record<string, unknown>> {
  const logger = silentLogger();
  const beforeOpen = readProcMemory(process.pid);
  const openStart = performance.now();
  const storage = await openStorage(`sqlite://${file}`);
  const repo = new CartRepository(storage.keyv, logger);
  const cartsService = cartService(storage, repo);
  const linkRepo = new PaymentLinkRepository(storage.keyv, logger);
  const openMs = performance.now() - openStart;
  const afterOpen = readProcMemory(process.pid);

  // Pruning runs when the bot starts: with every record inside the retention it must read, not scan.
  const pruneStart = performance.now();
  const pruned = await linkRepo.prune(Date.now());
  const pruneMs = performance.now() - pruneStart;
  // So does the sweep of expired records: with every cart live it must find nothing without reading them.
  const sweepStart = performance.now();
  const sweptLive = await storage.sweepExpired(Date.now());
  const sweepMs = performance.now() - sweepStart;
  if (sweptLive !== 0) throw new Error(`the sweep deleted ${sweptLive} live records`);

  const pick = (n: number) => userId((n * 7919) % carts);
  const templates = lineTemplates();
  // One click's read/modify/write through the bot's own path: a new quantity for the cart's first line.
  const bump = async (n: number) => {
    const index = (n * 7919) % carts;
    const first = cartFor(index, templates).lines[0]!;
    const change = await cartsService.setQuantity({ guildId: GUILD, userId: userId(index) }, shortRef(first.variantId), (n % 99) + 1);
    return change.kind === 'changed' ? 1 : 0;
  };

  // Sequential read/modify/write cycles: the latency one click sees.
  const rmw: number[] = [];
  let changed = 0;
  for (let n = 0; n < cycles; n++) {
    const start = performance.now();
    changed += await bump(n);
    rmw.push(performance.now() - start);
  }
  if (changed !== cycles) throw new Error(`expected every cart to have its first line, changed ${changed} of ${cycles}`);

  // The same number of cycles all at once (different members): throughput under a crowd.
  const concurrentStart = performance.now();
  await Promise.all(Array.from({ length: cycles }, (_unused, n) => bump(n + cycles)));
  const concurrentMs = performance.now() - concurrentStart;

  // Link records at scale: creating one (record + 4 indexes) and the moderators' lookups.
  const creates: number[] = [];
  const created: PaymentLink[] = [];
  const createCount = Math.min(200, cycles);
  for (let n = 0; n < createCount; n++) {
    const start = performance.now();
    created.push(
      await linkRepo.create({
        guildId: GUILD,
        userId: pick(n),
        nick: 'Gracz_bench',
        items: [{ variantId: 'v', quantity: 1, serverName: 'Survival', productName: 'VIP', variantName: '30 dni' }],
        url: `https://sklep.example.pl/pay/bench-${n}?token=${randomBytes(6).toString('hex')}`,
        license: LICENSE,
        createdAt: Date.now(),
      }),
    );
    creates.push(performance.now() - start);
  }
  const lookups: number[] = [];
  for (const link of created) {
    const start = performance.now();
    const found = await linkRepo.findByUrl(GUILD, link.url);
    await linkRepo.listForMember(GUILD, link.userId, 0, 10);
    lookups.push(performance.now() - start);
    if (!found) throw new Error('a created link was not found by its URL');
  }

  // Last, the day every cart has expired at once (a month later): the sweep deletes them all.
  const sweepAllStart = performance.now();
  const sweptAll = await storage.sweepExpired(Date.now() + CART_EXPIRY_MS + DAY_MS);
  const sweepAllMs = performance.now() - sweepAllStart;

  const memory = readProcMemory(process.pid);
  await storage.close();
  return {
    mode: 'measure',
    carts,
    links,
    cycles,
    openMs: round(openMs),
    pruneMs: round(pruneMs),
    pruned,
    sweepMs: round(sweepMs),
    sweepAll: { deleted: sweptAll, ms: round(sweepAllMs) },
    rmwMs: roundSummary(summarize(rmw), 3),
    concurrentRmw: { cycles, ms: round(concurrentMs), perSecond: round((cycles / concurrentMs) * 1000, 0) },
    linkCreateMs: roundSummary(summarize(creates), 3),
    linkLookupMs: roundSummary(summarize(lookups), 3),
    rssBeforeOpenBytes: beforeOpen?.rss,
    rssAfterOpenBytes: afterOpen?.rss,
    rssBytes: memory?.rss,
    hwmBytes: memory?.hwm,
    heapUsedBytes: process.memoryUsage().heapUsed,
    fileBytes: statSync(file).size,
  };
}

const [mode, file, cartsArg, linksArg, cyclesArg] = process.argv.slice(2);
try {
  if (!file) throw new Error('usage: storage-scale.js fill|measure <sqlite file> <carts> <links> [cycles]');
  const carts = Number(cartsArg ?? 100_000);
  const links = Number(linksArg ?? 100_000);
  const result = mode === 'fill' ? await fill(file, carts, links) : await measure(file, carts, links, Number(cyclesArg ?? 1000));
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ mode, error: String((error as Error).stack ?? error) })}\n`);
  process.exitCode = 1;
}
