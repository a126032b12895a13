import { StoreError } from './errors.js';
import type { FairSlots } from './fair-slots.js';
import {
  DEFAULT_LANE,
  circuitOpen,
  countsAsOutage,
  gateRules,
  localSlots,
  opensBreaker,
  pauseAskedBy,
  takeLocalSlot,
  throttled,
  type GateOptions,
  type GateRules,
} from './gate-rules.js';
import type { SharedGateState, SharedGateView } from './shared-gate-state.js';

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
export interface StoreGateOptions extends GateOptions {
  /**
   * The license's pause, breaker and request slots shared with other bot processes (Redis). Without
   * it (one process) the gate keeps all of that in memory, exactly as before.
   */
  shared?: SharedGateState;
  /** Told once per Redis outage when the shared state cannot be read (requests are refused meanwhile). */
  onSharedFailure?: (error: unknown) => void;
}

export type GateState = 'closed' | 'open' | 'half-open';

export class StoreGate {
  readonly #now: () => number;
  readonly #rules: GateRules;

  readonly #slots: FairSlots;
  #failures = 0;
  #openedAt: number | undefined;
  #trialInFlight = false;
  #pausedUntil = 0;
  readonly #shared: SharedGateState | undefined;
  readonly #onSharedFailure: ((error: unknown) => void) | undefined;
  /** What the shared state said at the last admission: for `state` and `load` (metrics) only, never for deciding. */
  #lastShared: { view: SharedGateView; at: number } | undefined;
  #sharedDown = false;
  /** Requests holding a local slot while they wait for a shared one: queued, to the operator. */
  #waitingForShared = 0;

  constructor(options: StoreGateOptions) {
    this.#now = options.now;
    this.#slots = localSlots(options);
    this.#rules = gateRules(options);
    this.#shared = options.shared;
    this.#onSharedFailure = options.onSharedFailure;
  }

  get state(): GateState {
    if (this.#shared) return this.#sharedState();
    if (this.#openedAt === undefined) return 'closed';
    return this.#now() - this.#openedAt >= this.#rules.openMs ? 'half-open' : 'open';
  }

  /** What the gate holds right now, for the operator's metrics. */
  get load(): { inFlight: number; queued: number; paused: boolean } {
    const seen = this.#lastShared;
    const sharedPause = seen !== undefined && this.#now() < seen.at + seen.view.pausedMs;
    return {
      inFlight: this.#slots.active - this.#waitingForShared,
      queued: this.#slots.queued + this.#waitingForShared,
      paused: this.#now() < this.#pausedUntil || sharedPause,
    };
  }

  /** Nothing running or waiting: the gate can be dropped without stranding a caller. */
  get idle(): boolean {
    return this.#slots.active === 0 && this.#slots.queued === 0;
  }

  /** Runs one request attempt under the gate's rules; `lane` is who asks (a guild), for fairness. */
  async run<T>(method: string, path: string, attempt: () => Promise<T>, lane = DEFAULT_LANE): Promise<T> {
    if (this.#shared) return this.#runShared(this.#shared, method, path, attempt, lane);
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
    if (remaining > 0) return;
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + this.#rules.exhaustedPauseMs);
    // Best effort: the answer that said so is already on its way to the member.
    this.#shared?.pause(this.#rules.exhaustedPauseMs).catch((error: unknown) => this.#sharedFailed(error));
  }

  /**
   * Several processes on one license: the same rules, with the pause, the breaker and the slots
   * read from and written to the shared state. Admission reads it first (one round trip), so a
   * paused or failing store is refused without taking a local slot. Then the local queue (bound
   * and lane fairness) and only then a shared slot: at most `maxConcurrent` callers per process
   * poll Redis for one.
   *
   * If Redis cannot be reached the request is refused as "temporarily unavailable" rather than
   * sent under local limits only: every process falling back at once would multiply the license's
   * load by the number of processes exactly when nobody can see the store's pauses, and the bot's
   * storage lives on that Redis too, so the member's cart could not be read or emptied anyway.
   * Redis failing while the results are recorded never changes the member's answer.
   */
  async #runShared<T>(shared: SharedGateState, method: string, path: string, attempt: () => Promise<T>, lane: string): Promise<T> {
    const view = await this.#readShared(shared, method, path);
    if (view.pausedMs > 0) throw throttled(method, path, view.pausedMs);
    if (view.openMs > 0) throw circuitOpen(method, path);
    const halfOpen = view.failures >= this.#rules.failureThreshold;
    const trial = halfOpen && (await this.#sharedCall(method, path, () => shared.claimTrial()));
    if (halfOpen && !trial) throw circuitOpen(method, path);

    let releaseSlot: (() => Promise<void>) | undefined;
    try {
      await this.#acquire(method, path, lane);
      this.#waitingForShared += 1;
      try {
        releaseSlot = await this.#sharedCall(method, path, () => shared.slot());
      } catch (error) {
        this.#release();
        throw error;
      } finally {
        this.#waitingForShared -= 1;
      }
      if (!releaseSlot) {
        this.#release();
        throw new StoreError({ kind: 'unavailable', method, path, message: `SpaceIs ${method} ${path} not sent: no request slot of the license freed in time` });
      }
    } catch (error) {
      if (trial) await shared.giveUpTrial().catch((failure: unknown) => this.#sharedFailed(failure));
      throw error;
    }

    try {
      const value = await attempt();
      if (view.failures > 0 || trial) await shared.succeeded().catch((error: unknown) => this.#sharedFailed(error));
      return value;
    } catch (error) {
      await this.#recordShared(shared, error, trial).catch((failure: unknown) => this.#sharedFailed(failure));
      throw error;
    } finally {
      await releaseSlot?.().catch((error: unknown) => this.#sharedFailed(error));
      this.#release();
    }
  }

  async #readShared(shared: SharedGateState, method: string, path: string): Promise<SharedGateView> {
    const view = await this.#sharedCall(method, path, () => shared.read());
    this.#lastShared = { view, at: this.#now() };
    return view;
  }

  /** A shared-state call needed to admit a request; Redis failing refuses the request (see #runShared). */
  async #sharedCall<T>(method: string, path: string, call: () => Promise<T>): Promise<T> {
    try {
      const value = await call();
      this.#sharedDown = false;
      return value;
    } catch (error) {
      this.#sharedFailed(error);
      throw new StoreError({ kind: 'unavailable', method, path, message: `SpaceIs ${method} ${path} not sent: the license's shared gate (Redis) did not answer` });
    }
  }

  #sharedFailed(error: unknown): void {
    if (this.#sharedDown) return;
    this.#sharedDown = true;
    this.#onSharedFailure?.(error);
  }

  async #recordShared(shared: SharedGateState, error: unknown, trial: boolean): Promise<void> {
    const pauseMs = pauseAskedBy(error);
    if (pauseMs !== undefined) await shared.pause(pauseMs);
    if (countsAsOutage(error)) {
      await shared.failed({ threshold: this.#rules.failureThreshold, openMs: this.#rules.openMs, trial });
    } else if (trial) {
      // The store answered (a business error, a 4xx): it is up.
      await shared.succeeded();
    }
  }

  #sharedState(): GateState {
    const seen = this.#lastShared;
    if (!seen) return 'closed';
    if (this.#now() < seen.at + seen.view.openMs) return 'open';
    return seen.view.failures >= this.#rules.failureThreshold ? 'half-open' : 'closed';
  }

  #admit(method: string, path: string): void {
    const now = this.#now();
    if (now < this.#pausedUntil) throw throttled(method, path, this.#pausedUntil - now);
    const state = this.state;
    if (state === 'open' || (state === 'half-open' && this.#trialInFlight)) throw circuitOpen(method, path);
  }

  async #acquire(method: string, path: string, lane: string): Promise<void> {
    await takeLocalSlot(this.#slots, method, path, lane);
  }

  #release(): void {
    this.#slots.release();
  }

  #succeeded(): void {
    this.#failures = 0;
    this.#openedAt = undefined;
  }

  #failed(error: unknown): void {
    const pauseMs = pauseAskedBy(error);
    if (pauseMs !== undefined) this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + pauseMs);
    if (!countsAsOutage(error)) {
      // The store answered (a business error, a 4xx): it is up.
      if (this.state === 'half-open') this.#succeeded();
      return;
    }
    this.#failures += 1;
    if (opensBreaker(this.#failures, this.#rules.failureThreshold, this.state === 'half-open')) this.#openedAt = this.#now();
  }
}
