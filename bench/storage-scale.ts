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
 *
 * This file reads the command line and prints the result; the modes and their rows are in storage-scale/.
 */
import { fill } from './storage-scale/fill.js';
import { measure } from './storage-scale/measure.js';

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
