import { StoreError } from './errors.js';
import type { FairSlots } from './fair-slots.js';
import type { GateLoad, GateState, StoreGate } from './store-gate.js';
import {
  DEFAULT_LANE,
  circuitOpen,
  countsAsOutage,
  gateRules,
  localSlots,
  pauseAskedBy,
  takeLocalSlot,
  throttled,
  type GateOptions,
  type GateRules,
} from './gate-rules.js';
import type { SharedGateState, SharedGateView } from './shared-gate-state.js';
import type { Logger } from '../logger.js';
import { fingerprintOf } from '../security/license-id.js';

export interface SharedGateOptions extends GateOptions {
  /** The license's pause, breaker and request slots as every process shares them (redis-gate-state.ts). */
  shared: SharedGateState;
  /** Told once per outage of the shared state (requests are refused meanwhile). */
  onSharedFailure?: (error: unknown) => void;
}

/**
 * The store gate of a license several bot processes sell from (STORAGE_URL=redis://…). The store's
 * rate limit and health are the license's, so the pause, the breaker and the request slots live in
 * the shared state and are read at every admission (one round trip): a paused or failing store is
 * refused without taking a local slot, and correctness never depends on a change notice arriving.
 * The local fair queue stays in front (its bound and lane fairness, as in LocalGate), and only a
 * request holding a local slot asks for a shared one, so at most `maxConcurrent` callers per process
 * poll Redis for one.
 *
 * If the shared state cannot be reached the request is refused as "temporarily unavailable" rather
 * than sent under local limits only: every process falling back at once would multiply the license's
 * load by the number of processes exactly when nobody can see the store's pauses, and the bot's
 * storage lives on that Redis too, so the member's cart could not be read or emptied anyway. Redis
 * failing while the results are recorded never changes the member's answer.
 */
export class SharedGate implements StoreGate {
  readonly #now: () => number;
  readonly #rules: GateRules;
  readonly #slots: FairSlots;
  readonly #shared: SharedGateState;
  readonly #onSharedFailure: ((error: unknown) => void) | undefined;
  /** What the shared state said at the last admission: for `state` and `load` (metrics) only, never for deciding. */
  #lastShared: { view: SharedGateView; at: number } | undefined;
  /** This process's own "no requests remaining" pause: for `load` only, the shared one is what refuses. */
  #exhaustedUntil = 0;
  #sharedDown = false;
  /** Requests holding a local slot while they wait for a shared one: queued, to the operator. */
  #waitingForShared = 0;

  constructor(options: SharedGateOptions) {
    this.#now = options.now;
    this.#rules = gateRules(options);
    this.#slots = localSlots(options);
    this.#shared = options.shared;
    this.#onSharedFailure = options.onSharedFailure;
  }

  get state(): GateState {
    const seen = this.#lastShared;
    if (!seen) return 'closed';
    if (this.#now() < seen.at + seen.view.openMs) return 'open';
    return seen.view.failures >= this.#rules.failureThreshold ? 'half-open' : 'closed';
  }

  get load(): GateLoad {
    const seen = this.#lastShared;
    const sharedPause = seen !== undefined && this.#now() < seen.at + seen.view.pausedMs;
    return {
      inFlight: this.#slots.active - this.#waitingForShared,
      queued: this.#slots.queued + this.#waitingForShared,
      paused: this.#now() < this.#exhaustedUntil || sharedPause,
    };
  }

  get idle(): boolean {
    return this.#slots.idle;
  }

  async run<T>(method: string, path: string, attempt: () => Promise<T>, lane = DEFAULT_LANE): Promise<T> {
    const shared = this.#shared;
    const view = await this.#read(method, path);
    if (view.pausedMs > 0) throw throttled(method, path, view.pausedMs);
    if (view.openMs > 0) throw circuitOpen(method, path);
    const halfOpen = view.failures >= this.#rules.failureThreshold;
    const trial = halfOpen && (await this.#admissionCall(method, path, () => shared.claimTrial()));
    if (halfOpen && !trial) throw circuitOpen(method, path);

    let releaseSlot: () => Promise<void>;
    try {
      releaseSlot = await this.#takeSlots(method, path, lane);
    } catch (error) {
      if (trial) await shared.giveUpTrial().catch((failure: unknown) => this.#sharedFailed(failure));
      throw error;
    }

    try {
      const value = await attempt();
      if (view.failures > 0 || trial) await shared.succeeded().catch((error: unknown) => this.#sharedFailed(error));
      return value;
    } catch (error) {
      await this.#record(error, trial).catch((failure: unknown) => this.#sharedFailed(failure));
      throw error;
    } finally {
      await releaseSlot().catch((error: unknown) => this.#sharedFailed(error));
      this.#slots.release();
    }
  }

  /**
   * This process's slots only: the license's shared slots are taken by every process, and a
   * background request waiting for one polls Redis like any other (it holds one local slot at most).
   */
  whenQuiet(): Promise<void> {
    return this.#slots.whenQuiet();
  }

  noteRemaining(remaining: number): void {
    if (remaining > 0) return;
    this.#exhaustedUntil = Math.max(this.#exhaustedUntil, this.#now() + this.#rules.exhaustedPauseMs);
    // Best effort: the answer that said so is already on its way to the member.
    this.#shared.pause(this.#rules.exhaustedPauseMs).catch((error: unknown) => this.#sharedFailed(error));
  }

  async #read(method: string, path: string): Promise<SharedGateView> {
    const view = await this.#admissionCall(method, path, () => this.#shared.read());
    this.#lastShared = { view, at: this.#now() };
    return view;
  }

  /** A local slot in the lane's turn, then one of the license's shared slots; resolves with the shared slot's release. */
  async #takeSlots(method: string, path: string, lane: string): Promise<() => Promise<void>> {
    await takeLocalSlot(this.#slots, method, path, lane);
    this.#waitingForShared += 1;
    let releaseSlot: (() => Promise<void>) | undefined;
    try {
      releaseSlot = await this.#admissionCall(method, path, () => this.#shared.slot());
    } catch (error) {
      this.#slots.release();
      throw error;
    } finally {
      this.#waitingForShared -= 1;
    }
    if (!releaseSlot) {
      this.#slots.release();
      throw new StoreError({ kind: 'unavailable', method, path, message: `SpaceIs ${method} ${path} not sent: no request slot of the license freed in time` });
    }
    return releaseSlot;
  }

  /** A shared-state call needed to admit a request; the state failing refuses the request (see the class comment). */
  async #admissionCall<T>(method: string, path: string, call: () => Promise<T>): Promise<T> {
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

  async #record(error: unknown, trial: boolean): Promise<void> {
    const pauseMs = pauseAskedBy(error);
    if (pauseMs !== undefined) await this.#shared.pause(pauseMs);
    if (countsAsOutage(error)) {
      await this.#shared.failed({ threshold: this.#rules.failureThreshold, openMs: this.#rules.openMs, trial });
    } else if (trial) {
      // The store answered (a business error, a 4xx): it is up.
      await this.#shared.succeeded();
    }
  }
}

/**
 * The operator's line when a license's shared state stops answering: once per outage (SharedGate
 * tells it once), naming the license by its short fingerprint, never its id or key.
 */
export function warnSharedGateDown(logger: Pick<Logger, 'warn'> | undefined, license: string): (error: unknown) => void {
  return (error) =>
    logger?.warn({ fingerprint: fingerprintOf(license), err: { message: (error as Error).message } }, "the license's shared store gate (Redis) is unreachable; store requests are refused until it answers");
}
