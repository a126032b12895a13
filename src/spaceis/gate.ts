import { StoreError } from './errors.js';

/**
 * Every call to one license's store goes through its gate. A license's rate limit is shared by
 * every guild selling from it and by the shop's own website, so the gate:
 * - bounds concurrency and the queue behind it: a crowd waits briefly or is told the shop is busy,
 *   it never piles up unbounded requests;
 * - is fair between guilds: waiting requests queue per lane (a guild), slots go round-robin over
 *   the lanes and one lane may hold at most a quarter of the queue, so one guild's crowd cannot
 *   starve another guild selling from the same license;
 * - honours the store's throttling: after a 429 with `Retry-At`, or `X-RateLimit-Remaining: 0`,
 *   calls are refused at once until the pause ends (the member is told when to try again);
 * - is a circuit breaker: after repeated failures (5xx, time-outs, refused connections) it stops
 *   calling for a while, then lets one trial through; success closes it again.
 * Refusals are StoreErrors of kind `unavailable` (breaker, queue) or throttling 429s, so every
 * handler already knows how to answer them.
 */
export interface GateOptions {
  now: () => number;
  /** Requests in flight at once for this license. */
  maxConcurrent?: number;
  /** Requests waiting for a slot; beyond this the store is "busy". */
  maxQueue?: number;
  /** Requests one lane (guild) may have waiting. */
  maxQueuePerLane?: number;
  /** Consecutive failures that open the breaker. */
  failureThreshold?: number;
  /** How long the breaker stays open before a trial request. */
  openMs?: number;
  /** How long to hold off when the store says no requests remain but not when they come back. */
  exhaustedPauseMs?: number;
}

/**
 * The longest the store can pause a license with one answer, and the longest wait a member is told
 * (see problem-texts.ts): a real throttle lasts seconds to a few minutes; a Retry-At of days, or an
 * epoch timestamp where seconds belong, must not stop every guild on the license until a restart.
 */
export const MAX_PAUSE_MS = 5 * 60_000;

export type GateState = 'closed' | 'open' | 'half-open';

export class StoreGate {
  readonly #now: () => number;
  readonly #maxConcurrent: number;
  readonly #maxQueue: number;
  readonly #maxQueuePerLane: number;
  readonly #failureThreshold: number;
  readonly #openMs: number;
  readonly #exhaustedPauseMs: number;

  #active = 0;
  /** Waiting requests by lane, in the order lanes get their next turn. */
  readonly #lanes = new Map<string, (() => void)[]>();
  #queued = 0;
  #failures = 0;
  #openedAt: number | undefined;
  #trialInFlight = false;
  #pausedUntil = 0;

  constructor(options: GateOptions) {
    this.#now = options.now;
    this.#maxConcurrent = options.maxConcurrent ?? 4;
    // Waiting costs a closure each; 1 000 lets a crowd of checkouts queue (measured: 200 at once all
    // get their link) while still bounding memory and the wait behind a slow store.
    this.#maxQueue = options.maxQueue ?? 1_000;
    this.#maxQueuePerLane = options.maxQueuePerLane ?? Math.max(1, Math.floor(this.#maxQueue / 4));
    this.#failureThreshold = options.failureThreshold ?? 5;
    this.#openMs = options.openMs ?? 30_000;
    this.#exhaustedPauseMs = options.exhaustedPauseMs ?? 1_000;
  }

  get state(): GateState {
    if (this.#openedAt === undefined) return 'closed';
    return this.#now() - this.#openedAt >= this.#openMs ? 'half-open' : 'open';
  }

  /** What the gate holds right now, for the operator's metrics. */
  get load(): { inFlight: number; queued: number; paused: boolean } {
    return { inFlight: this.#active, queued: this.#queued, paused: this.#now() < this.#pausedUntil };
  }

  /** Nothing running or waiting: the gate can be dropped without stranding a caller. */
  get idle(): boolean {
    return this.#active === 0 && this.#queued === 0;
  }

  /** Runs one request attempt under the gate's rules; `lane` is who asks (a guild), for fairness. */
  async run<T>(method: string, path: string, attempt: () => Promise<T>, lane = 'shared'): Promise<T> {
    this.#admit(method, path);
    // Marked before waiting for a slot, so a half-open breaker lets exactly one trial through.
    const trial = this.state === 'half-open';
    if (trial) this.#trialInFlight = true;
    try {
      await this.#acquire(method, path, lane);
    } catch (error) {
      if (trial) this.#trialInFlight = false;
      throw error;
    }
    try {
      const value = await attempt();
      this.#succeeded();
      return value;
    } catch (error) {
      this.#failed(error);
      throw error;
    } finally {
      if (trial) this.#trialInFlight = false;
      this.#release();
    }
  }

  /** Called with each response's `X-RateLimit-Remaining`. */
  noteRemaining(remaining: number): void {
    if (remaining <= 0) this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + this.#exhaustedPauseMs);
  }

  #admit(method: string, path: string): void {
    const now = this.#now();
    if (now < this.#pausedUntil) {
      throw new StoreError({
        kind: 'http',
        status: 429,
        method,
        path,
        message: `SpaceIs ${method} ${path} held back: the license's rate limit is paused`,
        retryAfterSeconds: Math.max(1, Math.ceil((this.#pausedUntil - now) / 1000)),
      });
    }
    const state = this.state;
    if (state === 'open' || (state === 'half-open' && this.#trialInFlight)) {
      throw new StoreError({ kind: 'unavailable', method, path, message: `SpaceIs ${method} ${path} not sent: the store is failing (circuit open)` });
    }
  }

  async #acquire(method: string, path: string, lane: string): Promise<void> {
    if (this.#active < this.#maxConcurrent) {
      this.#active += 1;
      return;
    }
    const waiting = this.#lanes.get(lane) ?? [];
    if (this.#queued >= this.#maxQueue || waiting.length >= this.#maxQueuePerLane) {
      throw new StoreError({ kind: 'unavailable', method, path, message: `SpaceIs ${method} ${path} not sent: too many requests waiting` });
    }
    // The slot is handed over by #release, so `active` never drops while others wait.
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      this.#lanes.set(lane, waiting);
      this.#queued += 1;
    });
  }

  /** Hands the slot to the next lane in turn (round-robin), or frees it. */
  #release(): void {
    const turn = this.#lanes.entries().next();
    if (turn.done) {
      this.#active -= 1;
      return;
    }
    const [lane, waiting] = turn.value;
    const next = waiting.shift();
    this.#lanes.delete(lane);
    if (waiting.length > 0) this.#lanes.set(lane, waiting); // back of the rotation
    this.#queued -= 1;
    next?.();
  }

  #succeeded(): void {
    this.#failures = 0;
    this.#openedAt = undefined;
  }

  #failed(error: unknown): void {
    if (error instanceof StoreError && error.status === 429 && error.retryAfterSeconds !== undefined) {
      // A Retry-At of days (or an epoch timestamp where seconds belong) must not stop a license until restart.
      const pauseMs = Math.min(error.retryAfterSeconds * 1000, MAX_PAUSE_MS);
      this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + pauseMs);
    }
    if (!countsAsOutage(error)) {
      // The store answered (a business error, a 4xx): it is up.
      if (this.state === 'half-open') this.#succeeded();
      return;
    }
    this.#failures += 1;
    if (this.state === 'half-open' || this.#failures >= this.#failureThreshold) this.#openedAt = this.#now();
  }
}

/** Failures that say the store is down or overloaded, as opposed to an answer we did not like. */
function countsAsOutage(error: unknown): boolean {
  if (!(error instanceof StoreError)) return false;
  if (error.kind === 'timeout' || error.kind === 'network') return true;
  return error.kind === 'http' && (error.status ?? 0) >= 500;
}
