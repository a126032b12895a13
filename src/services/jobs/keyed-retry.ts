import type { Clock } from '../../clock.js';
import type { Backoff, Random } from './backoff.js';

/** What a failure of one key came to: when to try it again, and whether to say so (the first failure in a row only). */
interface KeyFailure {
  failures: number;
  retryAt: number;
  /** True for the first failure of a run: log it then, not at every retry. */
  sayIt: boolean;
}

/**
 * Per-key failure backoff for a job that serves many keys due at different times (the payment
 * rounds: one license per key). The job asks `blocked(key)` before working on a key; a failure
 * (`failed`) puts the key off by the backoff and says whether to log it (once per run of failures);
 * `due()` lists the failing keys whose wait is over (tried again even when nothing else makes them
 * due); a success (`succeeded`) clears it and says whether it had been failing (log the recovery
 * once). Memory: one small entry per failing key, none for a healthy one.
 */
export class KeyedRetry {
  readonly #failing = new Map<string, { failures: number; retryAt: number }>();

  constructor(private readonly o: { backoff: Backoff; clock: Clock; random: Random }) {}

  /** Whether the key is backing off now: skip it this tick. */
  blocked(key: string): boolean {
    const entry = this.#failing.get(key);
    return entry !== undefined && this.o.clock.now() < entry.retryAt;
  }

  /** The failing keys whose wait is over. */
  due(): string[] {
    const now = this.o.clock.now();
    return [...this.#failing].filter(([, entry]) => entry.retryAt <= now).map(([key]) => key);
  }

  failed(key: string): KeyFailure {
    const failures = (this.#failing.get(key)?.failures ?? 0) + 1;
    const retryAt = this.o.clock.now() + this.o.backoff.delayMs(failures, this.o.random);
    this.#failing.set(key, { failures, retryAt });
    return { failures, retryAt, sayIt: failures === 1 };
  }

  /** True when the key had been failing: its recovery is worth one log line. */
  succeeded(key: string): boolean {
    return this.#failing.delete(key);
  }
}
