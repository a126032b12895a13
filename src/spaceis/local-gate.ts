import type { FairSlots } from './fair-slots.js';
import type { GateLoad, GateState, StoreGate } from './store-gate.js';
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

/**
 * The store gate of a license only this process calls (one process, or the demo shop): the slots,
 * the pause and the breaker live in this process's memory, so every decision is synchronous and
 * nothing can be unreachable. With several processes on one license, SharedGate (shared-gate.ts)
 * keeps them in Redis instead, as this process alone cannot see what the others spend.
 */
export class LocalGate implements StoreGate {
  readonly #now: () => number;
  readonly #rules: GateRules;
  readonly #slots: FairSlots;
  /** Outages counted since the store last answered well. */
  #failures = 0;
  /** When the breaker opened; undefined while it is closed. */
  #openedAt: number | undefined;
  #trialInFlight = false;
  #pausedUntil = 0;

  constructor(options: GateOptions) {
    this.#now = options.now;
    this.#rules = gateRules(options);
    this.#slots = localSlots(options);
  }

  get state(): GateState {
    if (this.#openedAt === undefined) return 'closed';
    return this.#now() - this.#openedAt >= this.#rules.openMs ? 'half-open' : 'open';
  }

  get load(): GateLoad {
    return { inFlight: this.#slots.active, queued: this.#slots.queued, paused: this.#now() < this.#pausedUntil };
  }

  get idle(): boolean {
    return this.#slots.idle;
  }

  async run<T>(method: string, path: string, attempt: () => Promise<T>, lane = DEFAULT_LANE): Promise<T> {
    this.#admit(method, path);
    // Marked before waiting for a slot, so a half-open breaker lets exactly one trial through.
    const trial = this.state === 'half-open';
    if (trial) this.#trialInFlight = true;
    try {
      await takeLocalSlot(this.#slots, method, path, lane);
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
      this.#slots.release();
    }
  }

  whenQuiet(): Promise<void> {
    return this.#slots.whenQuiet();
  }

  noteRemaining(remaining: number): void {
    if (remaining > 0) return;
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + this.#rules.exhaustedPauseMs);
  }

  #admit(method: string, path: string): void {
    const now = this.#now();
    if (now < this.#pausedUntil) throw throttled(method, path, this.#pausedUntil - now);
    const state = this.state;
    if (state === 'open' || (state === 'half-open' && this.#trialInFlight)) throw circuitOpen(method, path);
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
