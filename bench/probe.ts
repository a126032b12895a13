/**
 * An optional preload for the bot process (BENCH_PROBE=1 → `node --import …/probe.js dist/bundle/main.js`):
 * it changes nothing in the bot, it only watches. On SIGUSR2 it writes one line to stderr:
 * `BENCH-PROBE {…}` with the process's memory (RSS, V8 heap, external) and the event loop's delay
 * since the previous report (how long ready work waited for the loop: the bot's own queueing), and,
 * run with --expose-gc, the heap that survives a full collection (the live set, to spot growth); with
 * BENCH_HEAP_DIR set (BENCH_HEAP=1), also a heap snapshot there.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();

process.on('SIGUSR2', () => {
  const before = process.memoryUsage();
  // With --expose-gc (added by BENCH_PROBE=1), also the live heap: what survives a full collection.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const memory = process.memoryUsage();
  const ms = (ns: number) => Math.round(ns / 10_000) / 100;
  const report = {
    memory: { ...before, heapLiveAfterGc: gc ? memory.heapUsed : undefined },
    heapSpaces: Object.fromEntries(getHeapSpaceStatistics().map((space) => [space.space_name, space.space_size])),
    loopDelayMs: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max), mean: ms(delay.mean) },
  };
  delay.reset();
  // BENCH_HEAP=1: a heap snapshot at every probe (summarize one with bench/heap-summary.ts). Written
  // before the line, so the bench reads the line only once the file is complete.
  const heapDir = process.env.BENCH_HEAP_DIR;
  if (heapDir) Object.assign(report, { heapSnapshot: writeHeapSnapshot(join(heapDir, `bot-${process.pid}-${Date.now()}.heapsnapshot`)) });
  process.stderr.write(`BENCH-PROBE ${JSON.stringify(report)}\n`);
});
