import type * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import type { Logger } from '../logger.js';
import { parseRecord } from './records.js';

/** What a guild keeps until its status shows it: the newest, a bound not a list that grows. */
export const MAX_SHOWN_ONCE_KEPT = 10;

/**
 * A guild's list of ends to show once in /shop-admin status (every retry has an end, shown once):
 * what Discord refused for good, noted when it happens, taken off the record by
 * the status that shows it. One key per guild and kind; one read when there is nothing to show.
 * Used by role-work-ends.ts (ended roles Discord refused to take back) and
 * payment-step-refusals.ts (a settled payment's steps Discord refused).
 */
export class ShownOnceList<T> {
  readonly #schema: z.ZodType<T[]>;

  constructor(
    private readonly o: { keyv: Keyv; logger: Logger; locks: Locks; schema: z.ZodType<T[]>; key: (guildId: string) => string },
  ) {
    this.#schema = o.schema;
  }

  /** Notes one entry for the guild's next status (one read-modify-write under the guild's lock). */
  async note(guildId: string, entry: T): Promise<void> {
    const key = this.o.key(guildId);
    await this.o.locks.run(key, async () => {
      const kept = await this.#read(key);
      await this.o.keyv.set(key, [...kept, entry].slice(-MAX_SHOWN_ONCE_KEPT));
    });
  }

  /** The entries not shown yet, taken off the record: a status shows each once. */
  async take(guildId: string): Promise<T[]> {
    const key = this.o.key(guildId);
    // One read when there is nothing to show (the usual case); the lock only when there is.
    if ((await this.o.keyv.get(key)) === undefined) return [];
    return this.o.locks.run(key, async () => {
      const kept = await this.#read(key);
      await this.o.keyv.delete(key);
      return kept;
    });
  }

  async #read(key: string): Promise<T[]> {
    return parseRecord(this.#schema, await this.o.keyv.get(key), () => [], this.o.logger, key);
  }
}
