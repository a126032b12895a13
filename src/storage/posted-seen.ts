import * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import type { Logger } from '../logger.js';
import { parseRecord } from './records.js';

/**
 * The bound on what the bot remembers of posted ids the store does not know (docs/store-webhook.md,
 * "What it costs"). Each posted id the round asked about keeps a transaction record for 100 days
 * (payment-watch.ts, `pay-tx`), so a repost of it costs no question; the ids the store answered 404
 * about are the only ones anyone can make without paying (a forger's, 10 a minute per license at
 * most), so they alone are counted: in the order they were found unknown, per shop, at most
 * SEEN_BOUND. Past it the oldest go: their records are deleted (a repost of one is asked about again,
 * within the same budget), unless the record says more by then (a poll listed it: matched, settled,
 * set aside): such an id only leaves the count. A real purchase is never counted: its records are
 * bounded by the shop's own sales, as polled ones are.
 *
 * Stored in chunks of CHUNK ids (`pay-posted-seen:<shop>:<n>`) under a head listing their sizes
 * (`pay-posted-seen:<shop>`), so a note writes one chunk of at most CHUNK ids, not the whole list:
 * about 65 bytes an id, 32 KB a chunk, 650 KB at the bound (and the records
 * themselves, about 300 bytes each with their keys: 3 MB). Each kept as long as the records it
 * names (HANDLED_TTL_MS from its last write); an entry older than that is dropped unread.
 */

export const SEEN_BOUND = 10_000;
const CHUNK = 500;

const entrySchema = z.object({ id: z.string(), at: z.number() });
type Entry = z.infer<typeof entrySchema>;
const chunkSchema = z.array(entrySchema);
const headSchema = z.object({
  /** The number of the oldest chunk. */
  first: z.number().int(),
  /** How many ids each chunk holds, oldest chunk first. */
  sizes: z.array(z.number().int()),
});
type Head = z.infer<typeof headSchema>;

const headKey = (shop: string) => `pay-posted-seen:${shop}`;
const chunkKey = (shop: string, n: number) => `pay-posted-seen:${shop}:${n}`;

/** What the bound asks of the transaction records: whether one still says only "posted, unknown to the store", and forgetting it. */
export interface SeenRecords {
  postedUnknown(shop: string, transactionId: string): Promise<boolean>;
  forget(shop: string, transactionId: string): Promise<void>;
}

export class PostedSeenIndex {
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    private readonly ttlMs: number,
    private readonly locks: Locks = new KeyLock(),
  ) {}

  /**
   * Counts ids the store answered 404 about (lower case, oldest first), then forgets the oldest past
   * the bound or past their records' lifetime. Returns how many records were forgotten.
   */
  async add(shop: string, entries: readonly Entry[], now: number, records: SeenRecords): Promise<number> {
    if (entries.length === 0) return 0;
    return this.locks.run(headKey(shop), async () => {
      const head = await this.#head(shop);
      const chunks = new Map<number, Entry[]>();
      const changed = new Set<number>();
      const chunk = async (n: number) => {
        let found = chunks.get(n);
        if (!found) chunks.set(n, (found = await this.#chunk(shop, n)));
        return found;
      };
      for (const entry of entries) {
        let last = head.first + head.sizes.length - 1;
        if (head.sizes.length === 0 || head.sizes.at(-1)! >= CHUNK) {
          head.sizes.push(0);
          last += 1;
          chunks.set(last, []);
        }
        (await chunk(last)).push(entry);
        head.sizes[head.sizes.length - 1]! += 1;
        changed.add(last);
      }
      const expired = now - this.ttlMs;
      let forgotten = 0;
      for (;;) {
        const count = head.sizes.reduce((sum, size) => sum + size, 0);
        const front = await chunk(head.first);
        const oldest = front[0];
        if (!oldest) {
          // An empty oldest chunk (all its ids left): gone, unless it is the one being written.
          if (head.sizes.length <= 1) break;
          await this.keyv.delete(chunkKey(shop, head.first));
          changed.delete(head.first);
          head.first += 1;
          head.sizes.shift();
          continue;
        }
        if (count <= SEEN_BOUND && oldest.at >= expired) break;
        front.shift();
        head.sizes[0]! -= 1;
        changed.add(head.first);
        if (oldest.at >= expired && (await records.postedUnknown(shop, oldest.id))) {
          await records.forget(shop, oldest.id);
          forgotten += 1;
        }
      }
      for (const n of changed) await this.keyv.set(chunkKey(shop, n), chunks.get(n), this.ttlMs);
      await this.keyv.set(headKey(shop), head, this.ttlMs);
      return forgotten;
    });
  }

  /** How many ids are counted now (the status and the tests). */
  async count(shop: string): Promise<number> {
    return (await this.#head(shop)).sizes.reduce((sum, size) => sum + size, 0);
  }

  async #head(shop: string): Promise<Head> {
    return parseRecord(headSchema, await this.keyv.get(headKey(shop)), () => ({ first: 0, sizes: [] }), this.logger, headKey(shop));
  }

  async #chunk(shop: string, n: number): Promise<Entry[]> {
    // A chunk gone (its lifetime over, or unreadable) names nothing still remembered.
    return parseRecord(chunkSchema, await this.keyv.get(chunkKey(shop, n)), () => [], this.logger, chunkKey(shop, n));
  }
}
