/**
 * Holds several bench runs' results together against the gates of targets.ts (three runs each, so
 * one noisy run on a shared machine neither passes nor fails a gate): the median of each figure over
 * the runs that measured it, one line per miss, exit 1 on any miss. Usage:
 * node dist-bench/bench/gate.js bench/results/run-1.json run-2.json run-3.json
 * (each written by `BENCH_OUT=… npm run bench`).
 */
import { readFileSync } from 'node:fs';
import { holdGates, missedLines } from './targets.js';

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write('usage: gate.js <results.json> [more results.json …]\n');
  process.exit(2);
}
const results = holdGates(files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as unknown));
for (const result of results) {
  process.stdout.write(`${result.met ? ' ok' : ' NO'}  ${result.name}: median ${result.median} ${result.unit} of ${result.runs.join(', ')}; target ≤ ${result.limit} ${result.unit}\n`);
}
if (results.length === 0) process.stdout.write('no gate measured in these files\n');
const missed = missedLines(results);
if (missed.length > 0) process.stderr.write(`\n${missed.join('\n')}\n`);
process.exit(missed.length > 0 ? 1 : 0);
