/**
 * The one vocabulary of trying again, for the background jobs and the payment wing alike: a
 * failure counts one more `failures` in a row, a named `Backoff` says how long to wait after it,
 * and a `RetryPolicy` says after how many failures in a row it ends (a terminal state, shown once:
 * every retry has an end, and none is a tight loop). Jitter spreads processes and keys that failed
 * together, drawn from an injected `random` (tests pass a fixed one, so delays are exact).
 */
export interface Backoff {
  /** Shown in logs and the bench: "doubling 5s..10m, jitter". */
  readonly name: string;
  /** The wait after the `failures`-th failure in a row (1 for the first); `random` only for a backoff with jitter (Math.random unless given). */
  delayMs(failures: number, random?: Random): number;
}

/** A number in [0, 1), as Math.random gives. */
export type Random = () => number;

/** The same wait after every failure: a job whose next round is soon anyway (the insights' flush), a transaction the store keeps not knowing. */
export function fixedBackoff(everyMs: number): Backoff {
  return { name: `fixed ${duration(everyMs)}`, delayMs: () => everyMs };
}

/**
 * Doubling from `baseMs` up to `maxMs`. With `jitter` (a share of the wait, a half unless said),
 * each wait is drawn between (1 − jitter) and all of it: never much shorter, so a failing key is
 * not hammered, never longer than the cap. `jitter: 0` gives exact waits (a transaction's own
 * schedule, which nothing else retries with).
 */
export function doublingBackoff(baseMs: number, maxMs: number, jitter = 0.5): Backoff {
  const spread = jitter === 0.5 ? ', jitter' : jitter > 0 ? `, jitter ${Math.round(jitter * 100)}%` : '';
  return {
    name: `doubling ${duration(baseMs)}..${duration(maxMs)}${spread}`,
    delayMs(failures, random = Math.random) {
      const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(failures - 1, 0), 30));
      if (jitter === 0) return ceiling;
      return Math.round(ceiling * (1 - jitter) + random() * ceiling * jitter);
    },
  };
}

/** How a retry goes: the wait after each failure, and after how many failures in a row it ends (none: it goes on until it works). */
export interface RetryPolicy {
  backoff: Backoff;
  giveUpAfter?: number;
}

/** After the `failures`-th failure in a row: ended (said once by the caller), or tried again after `delayMs`. */
export function afterFailure(policy: RetryPolicy, failures: number, random?: Random): { ended: true } | { ended: false; delayMs: number } {
  if (policy.giveUpAfter !== undefined && failures >= policy.giveUpAfter) return { ended: true };
  return { ended: false, delayMs: policy.backoff.delayMs(failures, random) };
}

function duration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1_000 === 0) return `${ms / 1_000}s`;
  return `${ms}ms`;
}
