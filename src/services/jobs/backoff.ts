/**
 * How long background work waits before trying again after a failure (every retry has an end, and
 * none is a tight loop). Named, so logs and the bench say which one a job uses; jitter spreads
 * processes and keys that failed together, drawn from an injected `random` (tests pass a fixed one,
 * so delays are exact).
 */
export interface Backoff {
  /** Shown in logs and the bench: "doubling 5s..10m, jitter". */
  readonly name: string;
  /** The wait after the `failures`-th failure in a row (1 for the first). */
  delayMs(failures: number, random: () => number): number;
}

/** A number in [0, 1), as Math.random gives. */
export type Random = () => number;

/** The same wait after every failure: a job whose next round is soon anyway (the role-expiry pass). */
export function fixedBackoff(everyMs: number): Backoff {
  return { name: `fixed ${duration(everyMs)}`, delayMs: () => everyMs };
}

/**
 * Doubling from `baseMs` up to `maxMs`, each wait drawn between half and all of it ("equal
 * jitter": never shorter than half, so a failing key is not hammered, never longer than the cap).
 */
export function doublingBackoff(baseMs: number, maxMs: number): Backoff {
  return {
    name: `doubling ${duration(baseMs)}..${duration(maxMs)}, jitter`,
    delayMs(failures, random) {
      const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
      return Math.round(ceiling / 2 + random() * (ceiling / 2));
    },
  };
}

/**
 * The payment rounds' per-license backoff: doubling from 5 s, with jitter, up to 10 minutes, so a short
 * blip costs seconds and a long outage one try per license every 10 minutes.
 */
export const ROUND_BACKOFF = doublingBackoff(5_000, 10 * 60_000);

function duration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1_000 === 0) return `${ms / 1_000}s`;
  return `${ms}ms`;
}
