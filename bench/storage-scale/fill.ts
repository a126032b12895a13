/**
 * Mode `fill`: the first carts through the cart service one by one, the rest and every payment-link
 * record in bulk, read back through the repositories; reports the times, the file's size and the RSS.
 */
import { statSync } from 'node:fs';
import { CartRepository } from '../../src/storage/carts.js';
import { openStorage } from '../../src/storage/keyv-store.js';
import { PaymentLinkRepository } from '../../src/storage/payment-links.js';
import { readProcMemory } from '../process.js';
import { round } from '../stats.js';
import { CART_EXPIRY_MS, GUILD, LICENSE, cartFor, lineTemplates, linkRows, userId } from './fixture-rows.js';
import { bulkWrite } from './bulk-write.js';
import { cartService, silentLogger } from './bot-wiring.js';

const POLICY = { license: LICENSE, multiServer: false };

export async function fill(file: string, carts: number, links: number): Promise<Record<string, unknown>> {
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
