import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';

/**
 * "Once per id": one record per id, with a lifetime, claimed by the first caller only. The payment
 * watcher (a store transaction handled once) and the purchase feed (a purchase posted once per
 * guild) both use it instead of a capped list or a read-modify-write of one big record, so nothing
 * is forgotten early however busy a shop is, and nothing is ever rewritten whole.
 *
 * The check and the write run under the id's lock (src/coordination: in this process on SQLite,
 * through Redis when processes share it), so of two callers — two rounds, two processes — exactly
 * one is told it was first. A claim that was made but whose work then failed can be `release`d so
 * a later round tries again.
 */
export class OncePerId {
  constructor(
    private readonly keyv: Keyv,
    /** Keys are `<namespace>:<id>`. */
    private readonly namespace: string,
    private readonly locks: Locks = new KeyLock(),
  ) {}

  /** True for the first claim of `id` within its lifetime (the record is then written), false after. */
  async claim(id: string, ttlMs: number, value: Record<string, unknown> = {}): Promise<boolean> {
    const key = this.#key(id);
    return this.locks.run(key, async () => {
      if ((await this.keyv.get(key)) !== undefined) return false;
      await this.keyv.set(key, { ...value, claimed: true }, ttlMs);
      return true;
    });
  }

  /** Whether `id` was claimed and its record still lives. */
  async claimed(id: string): Promise<boolean> {
    return (await this.keyv.get(this.#key(id))) !== undefined;
  }

  /** What the claim stored with the id (undefined when not claimed). */
  async valueOf(id: string): Promise<Record<string, unknown> | undefined> {
    const stored: unknown = await this.keyv.get(this.#key(id));
    return stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : undefined;
  }

  /** Forgets a claim (its work failed and must be tried again). */
  async release(id: string): Promise<void> {
    await this.keyv.delete(this.#key(id));
  }

  #key(id: string): string {
    return `${this.namespace}:${id}`;
  }
}
