/**
 * Every call to one license's store goes through its gate. A license's rate limit is shared by
 * every guild selling from it and by the shop's own website, so the gate:
 * - bounds concurrency and the queue behind it: a crowd waits briefly or is told the shop is busy,
 *   it never piles up unbounded requests;
 * - is fair between guilds: waiting requests queue per lane (a guild), slots go round-robin over
 *   the lanes and one lane may hold at most a quarter of the queue, so one guild's crowd cannot
 *   starve another guild selling from the same license;
 * - honours the store's throttling: after a 429 with `Retry-At`, or `X-RateLimit-Remaining: 0`,
 *   calls are refused at once until the pause ends (the member is told when to try again); a
 *   Retry-At is honoured up to 5 minutes, and one over an hour (an epoch timestamp where seconds
 *   belong) is a broken header that pauses 30 s (gate-rules.ts, throttlePauseMs);
 * - is a circuit breaker: after repeated failures (5xx, time-outs, refused connections) it stops
 *   calling for a while, then lets one trial through; success closes it again.
 * Refusals are StoreErrors of kind `unavailable` (breaker, queue) or throttling 429s, so every
 * handler already knows how to answer them.
 *
 * Two gates keep these rules (gate-rules.ts), and createStoreGate picks one: LocalGate when one
 * process sells from the license (all in memory), SharedGate when several do (the pause, breaker and
 * slots in Redis). The store client and the store directory see only this interface.
 */
export interface StoreGate {
  /**
   * Runs one request attempt under the gate's rules; `lane` is who asks (a guild), for fairness.
   * How the attempt ends (an answer, an outage, a 429 with Retry-At) is what the gate learns from.
   */
  run<T>(method: string, path: string, attempt: () => Promise<T>, lane?: string): Promise<T>;
  /**
   * Resolves when a request would take a slot of this process at once with nobody waiting: the
   * background variants warm-up (variant-warm-up.ts) asks for its next product only then, so a
   * member is never queued behind it.
   */
  whenQuiet(): Promise<void>;
  /** Called with each response's `X-RateLimit-Remaining`: 0 pauses the license briefly. */
  noteRemaining(remaining: number): void;
  /** The breaker, for the operator's metrics. */
  readonly state: GateState;
  /** What the gate holds right now, for the operator's metrics. */
  readonly load: GateLoad;
  /** Nothing running or waiting: the gate can be dropped without stranding a caller. */
  readonly idle: boolean;
}

export type GateState = 'closed' | 'open' | 'half-open';

export interface GateLoad {
  inFlight: number;
  queued: number;
  paused: boolean;
}
