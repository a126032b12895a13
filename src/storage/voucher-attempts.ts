import { z } from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';

/**
 * The times of recent voucher attempts, per member and per guild: the limits against guessing codes
 * (src/services/vouchers.ts). Kept in storage, so they hold across restarts and, on Redis, across
 * processes; each window is changed under its record lock, so two processes never both take its
 * last place. Only the window's own span is kept: a handful of numbers per key.
 */
const timesSchema = z.array(z.number());

export interface Window {
  /** The record's name, e.g. `member:<guild>:<user>`. */
  key: string;
  limit: number;
  spanMs: number;
}

/** Admitted (the attempt is counted in every window), or the seconds until the first full window has room. */
export type Admission = { kind: 'admitted' } | { kind: 'full'; window: string; retryAfterSeconds: number };

export class VoucherAttempts {
  constructor(
    private readonly keyv: Keyv,
    private readonly locks: Locks,
  ) {}

  /**
   * Counts one attempt at `now` in every window, or in none when one of them is full (the first full
   * one is named). Windows are locked in the order given: callers always give the member's first.
   */
  admit(windows: readonly Window[], now: number): Promise<Admission> {
    const step = async (index: number): Promise<Admission> => {
      const window = windows[index];
      if (!window) return { kind: 'admitted' };
      return this.locks.run(recordKey(window.key), async () => {
        const times = await this.#recent(window, now);
        if (times.length >= window.limit) {
          const oldest = times[times.length - window.limit]!;
          return { kind: 'full', window: window.key, retryAfterSeconds: Math.max(1, Math.ceil((oldest + window.spanMs - now) / 1000)) };
        }
        const rest = await step(index + 1);
        if (rest.kind === 'admitted') await this.keyv.set(recordKey(window.key), [...times, now], window.spanMs);
        return rest;
      });
    };
    return step(0);
  }

  async #recent(window: Window, now: number): Promise<number[]> {
    const parsed = timesSchema.safeParse(await this.keyv.get(recordKey(window.key)));
    return parsed.success ? parsed.data.filter((time) => time <= now && now - time < window.spanMs).sort((a, b) => a - b) : [];
  }
}

function recordKey(name: string): string {
  return `voucher-attempts:${name}`;
}
