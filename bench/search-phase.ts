/*
 * Phase 7 of run.ts: bench/search-bench.ts in a process of its own, so the local servers' work does not
 * land in its figures; then (7b) the background variants warm-up on fresh bots, bench/search-warm-up.ts.
 */
import { join } from 'node:path';
import { ROOT } from './bot-process.js';
import { runJsonScript } from './process.js';

const SEARCH_ENTRY = join(ROOT, 'dist-bench/bench/search-bench.js');

/** `rounds`: BENCH_SEARCH_ROUNDS as given; search-bench.ts has the default. */
export function searchMatcher(work: string, rounds: string | undefined): Promise<Record<string, unknown>> {
  return runJsonScript(SEARCH_ENTRY, [], work, { BENCH_SEARCH_ROUNDS: rounds ?? '' });
}
