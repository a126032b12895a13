/**
 * What a license's gate shares with the other bot processes selling from the same license
 * (STORAGE_URL=redis://…, docs/scaling-out.md). The store's rate limit and its health are the
 * license's, not a process's: a 429 met by one process must hold back all of them, five failures
 * seen by one must stop all of them calling, and all of them together must keep at most four
 * requests in flight.
 *
 * One process needs none of this: its LocalGate (local-gate.ts) keeps all of it in memory. The
 * SharedGate (shared-gate.ts) keeps its local queue and lane fairness in front (only requests
 * holding a local slot ask for a shared one) and asks the shared state at every admission, so
 * correctness never depends on a change notice arriving.
 */
export interface SharedGateView {
  /** How long the license is still paused (429 Retry-At, or no requests remaining); 0 when not. */
  readonly pausedMs: number;
  /** How long the breaker stays open; 0 when not open. */
  readonly openMs: number;
  /** Outages in a row, across every process. */
  readonly failures: number;
}

export interface SharedGateState {
  /** The license's pause and breaker as every process sees them: one Redis round trip. */
  read(): Promise<SharedGateView>;
  /** Half-open: true for exactly one caller across processes, which sends the trial request. */
  claimTrial(): Promise<boolean>;
  /**
   * Waits (bounded) for one of the license's request slots across processes: resolves with its
   * release, or undefined when none freed in time (the caller is told the store is busy).
   */
  slot(): Promise<(() => Promise<void>) | undefined>;
  /** The store asked every caller on the license to wait this long. */
  pause(ms: number): Promise<void>;
  /** One more outage; opens the breaker for `openMs` once `threshold` are counted in a row. */
  failed(rule: { threshold: number; openMs: number; trial: boolean }): Promise<void>;
  /** The store answered: the breaker closes and the count of outages starts again. */
  succeeded(): Promise<void>;
  /** A trial claimed but never sent (refused by the local queue): the next caller may try. */
  giveUpTrial(): Promise<void>;
}
