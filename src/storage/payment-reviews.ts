import { createHash } from 'node:crypto';
import * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import type { Logger } from '../logger.js';
import { OncePerId } from './once-per-id.js';
import { parseRecord } from './records.js';

/**
 * The purchases waiting for staff (src/services/payment-watch/review.ts): a store purchase that
 * links of two or more members could have paid. Kept as
 *
 * - `pay-review:<ref>`: one record per transaction (`ref` is a short hash of the transaction id,
 *   what the moderators' buttons carry), written once when the watcher
 *   raises it, changed once when a moderator confirms a link; it lives REVIEW_TTL_MS;
 * - `pay-reviews-of:<guild>`: the refs still waiting with a candidate link in that guild, what
 *   /links user and /shop-admin status read (one small record per guild, no scan);
 * - `pay-review-post:<guild>:<ref>` (OncePerId): the log post made for that guild, so it is made once
 *   however many rounds, restarts or processes raise the same purchase.
 *
 * Nothing here holds the buyer's e-mail or a URL: the nick the store lists, the items, the links' ids.
 */

const DAY_MS = 86_400_000;
/** A purchase waits for staff this long; after it, it is no longer offered (the links' records stay as they were). */
export const REVIEW_TTL_MS = 30 * DAY_MS;

const candidateSchema = z.object({ guildId: z.string(), linkId: z.string(), userId: z.string(), createdAt: z.number() });
const reviewSchema = z.object({
  transactionId: z.string(),
  nick: z.string(),
  items: z.array(
    z.object({
      variantId: z.string(),
      quantity: z.number(),
      serverName: z.string().optional(),
      productName: z.string().optional(),
      variantName: z.string().optional(),
    }),
  ),
  madeAt: z.number(),
  raisedAt: z.number(),
  candidates: z.array(candidateSchema),
  /** Why it waits (services/payment-watch/matcher.ts, ReviewReason); absent (older records): links of several members. */
  reason: z.enum(['members', 'late', 'website-buyer', 'repeated']).optional(),
  /** Set once: the link a moderator chose, by whom and when. */
  confirmed: z.object({ guildId: z.string(), linkId: z.string(), by: z.string(), at: z.number() }).optional(),
});
export type StoredReview = z.infer<typeof reviewSchema>;
const refListSchema = z.array(z.string());

/** The short, route-safe reference of a transaction: 16 characters of base64url of its sha256. */
export function reviewRef(transactionId: string): string {
  return createHash('sha256').update(transactionId).digest('base64url').slice(0, REVIEW_REF_LENGTH);
}
export const REVIEW_REF_LENGTH = 16;

const recordKey = (ref: string) => `pay-review:${ref}`;
const guildKey = (guildId: string) => `pay-reviews-of:${guildId}`;

export class PaymentReviewStore {
  readonly posts: OncePerId;

  /** `locks`: shared by every process on one Redis (src/coordination); this process's own otherwise. */
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    private readonly locks: Locks = new KeyLock(),
  ) {
    this.posts = new OncePerId(keyv, 'pay-review-post', locks);
  }

  async get(ref: string): Promise<StoredReview | undefined> {
    const key = recordKey(ref);
    const raw: unknown = await this.keyv.get(key);
    if (raw === undefined) return undefined;
    return parseRecord(reviewSchema.optional(), raw, () => undefined, this.logger, key);
  }

  /**
   * Keeps a purchase for staff, unless it is kept already (another round or process raised it: its
   * first record stays). Either way, each guild of a waiting purchase lists it. Returns the record kept.
   */
  async raise(review: StoredReview): Promise<StoredReview> {
    const ref = reviewRef(review.transactionId);
    const kept = await this.locks.run(recordKey(ref), async () => {
      const before = await this.get(ref);
      if (before) return before;
      await this.keyv.set(recordKey(ref), review, REVIEW_TTL_MS);
      return review;
    });
    if (!kept.confirmed) for (const guildId of guildsOf(kept)) await this.#changeGuild(guildId, (refs) => (refs.includes(ref) ? refs : [...refs, ref]));
    return kept;
  }

  /**
   * Changes the record under its lock (`change` returns the record to write, or undefined to write
   * nothing); what `change` returned is passed on. A record written lives REVIEW_TTL_MS from then, so a
   * confirmed purchase still says who confirmed it to a late press.
   */
  async update<R>(ref: string, change: (review: StoredReview | undefined) => Promise<{ write?: StoredReview; result: R }>): Promise<R> {
    return this.locks.run(recordKey(ref), async () => {
      const current = await this.get(ref);
      const { write, result } = await change(current);
      if (write) await this.keyv.set(recordKey(ref), write, REVIEW_TTL_MS);
      return result;
    });
  }

  /** Writes the record as it is; only inside `update`'s change, which holds its lock. */
  async put(ref: string, review: StoredReview): Promise<void> {
    await this.keyv.set(recordKey(ref), review, REVIEW_TTL_MS);
  }

  /** The refs waiting in this guild (some may have expired or been confirmed since: see `forget`). */
  async waitingIn(guildId: string): Promise<string[]> {
    return parseRecord(refListSchema, await this.keyv.get(guildKey(guildId)), () => [], this.logger, guildKey(guildId));
  }

  /** Takes these refs off the guild's list (confirmed, or expired). */
  async forget(guildId: string, refs: readonly string[]): Promise<void> {
    if (refs.length === 0) return;
    await this.#changeGuild(guildId, (known) => known.filter((ref) => !refs.includes(ref)));
  }

  async #changeGuild(guildId: string, change: (refs: string[]) => string[]): Promise<void> {
    await this.locks.run(guildKey(guildId), async () => {
      const before = await this.waitingIn(guildId);
      const after = change(before);
      if (after.length === before.length && after.every((ref, index) => ref === before[index])) return;
      if (after.length > 0) await this.keyv.set(guildKey(guildId), after);
      else await this.keyv.delete(guildKey(guildId));
    });
  }
}

export function guildsOf(review: Pick<StoredReview, 'candidates'>): string[] {
  return [...new Set(review.candidates.map((candidate) => candidate.guildId))];
}
