/**
 * Mode `measure`: the filled storage opened afresh, timed through the bot's own paths (cart
 * read/modify/write, payment-link creation and lookups, pruning, the sweep of expired records), with its RSS.
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { CartRepository } from '../../src/storage/carts.js';
import { openStorage } from '../../src/storage/keyv-store.js';
import { PaymentLinkRepository, type PaymentLink, type ReadableLink } from '../../src/storage/payment-links.js';
import { shortRef } from '../../src/services/short-ref.js';
import { readProcMemory } from '../process.js';
import { summarize, roundSummary, round } from '../stats.js';
import { CART_EXPIRY_MS, DAY_MS, GUILD, LICENSE, cartFor, lineTemplates, userId } from './fixture-rows.js';
import { cartService, silentLogger } from './bot-wiring.js';

export async function measure(file: string, carts: number, links: number, cycles: number): Promise<Record<string, unknown>> {
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
  const created: ReadableLink[] = [];
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
