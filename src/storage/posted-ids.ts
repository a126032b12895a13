import * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import type { Logger } from '../logger.js';
import { parseRecord } from './records.js';

/**
 * The queue of transaction ids the store's webhook posts named (docs/store-webhook.md, "What the
 * bot does with a post"), per license: `pay-posted:<license>`. Ids wait here instead of being
 * dropped; what is paced is the store questions, taken by the license's round (payment-watch,
 * payment-watch/ledger.ts, `takePosted`) as the budgets allow:
 *
 * - `followed`: the bot already follows the transaction (its key: the id), and `nick`: the post
 *   names, beside the id, the nick of an open link (its key: that link). At most one question per
 *   key per PRIORITY_EVERY_MS, newest first: a forger who copies an open link's nick beside made-up
 *   ids gets one question per 10 s for that link, and nothing for any other.
 * - `unknown`: anything else. At most UNKNOWN_PER_MINUTE questions a minute per license, newest first.
 *
 * Bounded: at most QUEUE_BOUND ids per license; past it the oldest `unknown` ones go (counted), never
 * a `followed` or a `nick` one. Survives a restart (it is storage); shared by every process on Redis
 * (written under the license's lock). One record: about 120 bytes an id, 120 KB at the bound.
 */

export const QUEUE_BOUND = 1_000;
export const UNKNOWN_PER_MINUTE = 10;
export const PRIORITY_EVERY_MS = 10_000;
const MINUTE_MS = 60_000;

const entrySchema = z.object({
  /** Lower case: ids are compared whatever the letters' case. */
  id: z.string(),
  /** When the post came. */
  at: z.number(),
  kind: z.enum(['followed', 'nick', 'unknown']),
  /** The budget's key: the transaction (followed) or the open link (nick); '' for unknown. */
  key: z.string(),
  /** The guild whose webhook posted it (its health counts it once the store confirms it). */
  guildId: z.string(),
});
export type PostedId = z.infer<typeof entrySchema>;

const queueSchema = z.object({
  entries: z.array(entrySchema).default([]),
  /** When each unknown id was taken, within the last minute. */
  asked: z.array(z.number()).default([]),
  /** When each priority key last got a question, within PRIORITY_EVERY_MS. */
  cooled: z.record(z.string(), z.number()).default({}),
});
type Queue = z.infer<typeof queueSchema>;

const RANK = { followed: 2, nick: 1, unknown: 0 } as const;
const key = (license: string) => `pay-posted:${license}`;

export interface Taken {
  taken: PostedId[];
  /** Ids still waiting after this take. */
  waiting: number;
  /** When the next of them may be taken (undefined: none wait). */
  nextAt: number | undefined;
}

export class PostedIdStore {
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    private readonly locks: Locks = new KeyLock(),
  ) {}

  async #read(license: string): Promise<Queue> {
    return parseRecord(queueSchema, await this.keyv.get(key(license)), () => ({ entries: [], asked: [], cooled: {} }), this.logger, key(license));
  }

  async #write(license: string, queue: Queue): Promise<void> {
    if (queue.entries.length === 0 && queue.asked.length === 0 && Object.keys(queue.cooled).length === 0) await this.keyv.delete(key(license));
    else await this.keyv.set(key(license), queue);
  }

  /** Queues a post's ids (an id already waiting keeps the higher of its kinds); returns how many unknown ids the bound pushed out. */
  async add(license: string, posted: readonly PostedId[]): Promise<number> {
    if (posted.length === 0) return 0;
    return this.locks.run(key(license), async () => {
      const queue = await this.#read(license);
      const byId = new Map(queue.entries.map((entry) => [entry.id, entry]));
      for (const entry of posted) {
        const known = byId.get(entry.id);
        if (!known || RANK[entry.kind] > RANK[known.kind]) byId.set(entry.id, known ? { ...entry, at: known.at } : entry);
      }
      let entries = [...byId.values()].sort((a, b) => a.at - b.at);
      let dropped = 0;
      while (entries.length > QUEUE_BOUND) {
        const oldest = entries.findIndex((entry) => entry.kind === 'unknown');
        if (oldest < 0) break;
        entries = [...entries.slice(0, oldest), ...entries.slice(oldest + 1)];
        dropped += 1;
      }
      await this.#write(license, { ...queue, entries });
      return dropped;
    });
  }

  /** Takes the ids the budgets allow now (the budget spent in the same write), newest first. */
  async take(license: string, now: number): Promise<Taken> {
    return this.locks.run(key(license), async () => {
      const queue = await this.#read(license);
      const asked = queue.asked.filter((at) => at > now - MINUTE_MS);
      const cooled = Object.fromEntries(Object.entries(queue.cooled).filter(([, at]) => at > now - PRIORITY_EVERY_MS));
      const taken: PostedId[] = [];
      const left: PostedId[] = [];
      for (const entry of [...queue.entries].sort((a, b) => b.at - a.at)) {
        if (entry.kind !== 'unknown' && cooled[entry.key] === undefined) {
          cooled[entry.key] = now;
          taken.push(entry);
        } else if (entry.kind === 'unknown' && asked.length < UNKNOWN_PER_MINUTE) {
          asked.push(now);
          taken.push(entry);
        } else left.push(entry);
      }
      const nextAt = left.length === 0 ? undefined : Math.min(...left.map((entry) => (entry.kind === 'unknown' ? Math.min(...asked) + MINUTE_MS : (cooled[entry.key] ?? now) + PRIORITY_EVERY_MS)));
      if (taken.length > 0 || asked.length !== queue.asked.length) await this.#write(license, { entries: left.reverse(), asked, cooled });
      return { taken, waiting: left.length, nextAt };
    });
  }
}
