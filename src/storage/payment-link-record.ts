import { createHash, randomBytes } from 'node:crypto';
import * as z from 'zod';
import { stringListSchema } from './records.js';

/** What one payment link record holds, its id, and the keys it and its indexes are stored under. */

/** Where a cart started: `/shop`, the panel, the feed's Buy button, a search, Buy again. */
export const cartSourceSchema = z.enum(['shop', 'panel', 'feed', 'search', 'again']);
export type CartSource = z.infer<typeof cartSourceSchema>;

const linkItemSchema = z.object({
  variantId: z.string(),
  quantity: z.number().int(),
  serverName: z.string(),
  productName: z.string(),
  variantName: z.string(),
  /**
   * Where the variant sat in the offer, so "Buy again" finds it without searching. Records written
   * before these were kept have only the names; they are still read, and searched by name.
   */
  serverId: z.string().optional(),
  categoryId: z.string().optional(),
  productId: z.string().optional(),
});

const linkFieldsSchema = z.object({
  id: z.string(),
  guildId: z.string(),
  userId: z.string(),
  nick: z.string(),
  items: z.array(linkItemSchema),
  /** The license's full id; records from before it existed hold its 8-character fingerprint. */
  license: z.string(),
  createdAt: z.number(),
  /** Where the link was delivered, so it can be edited later (e.g. withdrawn by a moderator). */
  delivery: z
    .object({
      kind: z.enum(['dm', 'reply']),
      channelId: z.string().optional(),
      messageId: z.string().optional(),
      /** Also shown in the member's reply (DMs closed, or the DM was slow under a crowd). */
      shownInReply: z.boolean().optional(),
      /**
       * The DM was sent as display components. Absent: a DM from before them (text and an embed),
       * which is edited in that form when its link is withdrawn or settled (dm-views-classic.ts).
       */
      display: z.boolean().optional(),
    })
    .optional(),
  revoked: z.object({ by: z.string(), at: z.number() }).optional(),
  /**
   * What the store says of the link's payment, once the payment watcher matched a transaction to it
   * (src/services/payment-watch/): the transaction's id and status. `paid` is about the payment
   * (the shop took the money), not delivery, which is the game server's job. Never the buyer's
   * e-mail or anything else the store tells about them.
   */
  payment: z
    .object({
      status: z.enum(['pending', 'paid', 'failed', 'expired']),
      transactionId: z.string(),
      /** When the bot matched the transaction to the link. */
      matchedAt: z.number(),
      /** When the bot learned the final status (paid, failed, expired). */
      settledAt: z.number().optional(),
      /**
       * The moderator who chose this link among several members' links the purchase could have paid
       * (src/services/payment-watch/review.ts); absent when the shop's list left no doubt.
       */
      confirmedBy: z.string().optional(),
    })
    .optional(),
  /**
   * A gift: bought for someone else's nick. `recipientId`: the member of this server it is for, when the
   * buyer chose one (a player chosen by nick alone has none). Absent: the buyer's own purchase.
   */
  gift: z.object({ recipientId: z.string().optional() }).optional(),
  /**
   * A transaction for this link the store reported `fail` or `expired` while the link was still
   * within its lifetime: the link stays open (the member may pay again); if its lifetime ends with no
   * paid transaction, it settles with this status (src/services/payment-watch/sense.ts, `readOpenLinks`).
   */
  attempt: z.object({ transactionId: z.string(), status: z.enum(['failed', 'expired']), at: z.number() }).optional(),
  /** The buyer's language at checkout: the DM is rewritten in it when the payment settles. Records from before it: the guild's. */
  locale: z.enum(['en', 'pl']).optional(),
  /** How the member came to the cart this link was made of (its first line decides): the insights' sources. */
  source: cartSourceSchema.optional(),
});

/**
 * A link record as stored. Its URL is a capability (whoever holds it can pay and see the order), so
 * with ENCRYPTION_KEY set it is kept sealed (`sealedUrl`, src/security/secret-box.ts, bound to the
 * record's key) beside `urlHash`, the SHA-256 the URL index is keyed by (payment-links.ts compares a
 * pasted URL by it, without opening anything). Without the key, and in records written before
 * sealing, `url` holds it in the clear.
 */
export const storedLinkSchema = linkFieldsSchema
  .extend({
    url: z.string().optional(),
    sealedUrl: z.string().optional(),
    urlHash: z.string().optional(),
  })
  .refine((record) => record.url !== undefined || (record.sealedUrl !== undefined && record.urlHash !== undefined), 'a link record needs its URL, clear or sealed');
export type StoredLink = z.infer<typeof storedLinkSchema>;

export type PaymentLink = z.infer<typeof linkFieldsSchema> & {
  /**
   * Exactly as the store returned it. Undefined when the record holds it sealed and this process
   * cannot open it (ENCRYPTION_KEY changed or removed since): whoever would be shown the link is told
   * so instead (never another link, never a crash).
   */
  url: string | undefined;
};
/** A link whose URL this process can read: what a Pay button or a DM needs. */
export type ReadableLink = PaymentLink & { url: string };
export type NewPaymentLink = Omit<ReadableLink, 'id'>;

/** Transaction ids are the same whatever the case of their letters (a post may spell one in capitals). */
export const sameTransaction = (a: string | undefined, b: string | undefined): boolean => a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();

/** What the store said of a transaction a link was matched to; `final`: it settles the link (paid; a failed attempt when the link ended). */
export type PaymentClaim = { transactionId: string; status: 'paid' | 'pending' | 'failed' | 'expired'; final: boolean; confirmedBy?: string | undefined };

/**
 * A transaction's claim on a link's record: a settled or withdrawn link never changes ('taken', unless
 * this very transaction settled it: a round finishing after a crash). Pending marks the payment; a
 * failed or expired attempt is noted beside it, and undoes the payment this transaction had pending.
 */
export function claimed(record: PaymentLink, claim: PaymentClaim, now: number): { record: PaymentLink; outcome: 'claimed' | 'taken' } {
  const { transactionId, status, final, confirmedBy } = claim;
  const payment = record.payment;
  if (payment?.settledAt !== undefined || record.revoked) return { record, outcome: sameTransaction(payment?.transactionId, transactionId) && payment?.settledAt !== undefined ? 'claimed' : 'taken' };
  const matchedAt = payment && sameTransaction(payment.transactionId, transactionId) ? payment.matchedAt : now;
  if (status !== 'pending' && final) return { record: { ...record, payment: { status, transactionId, matchedAt, settledAt: now, ...(confirmedBy ? { confirmedBy } : {}) } }, outcome: 'claimed' };
  if (status === 'pending') return { record: { ...record, payment: { status: 'pending', transactionId, matchedAt } }, outcome: 'claimed' };
  if (status === 'paid') return { record, outcome: 'claimed' };
  const next: PaymentLink = { ...record, attempt: { transactionId, status, at: now } };
  if (sameTransaction(payment?.transactionId, transactionId)) delete next.payment;
  return { record: next, outcome: 'claimed' };
}

/**
 * A link the store issued but storage could not record: it gets a reference all the same, so the
 * member's DM and the operator's log line name the same link.
 */
export function unrecordedLink(link: NewPaymentLink): ReadableLink {
  return { ...link, id: newLinkId() };
}

/** Short ids a moderator can read out or type: 8 characters of Crockford base32 (no I, L, O, U). */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export function newLinkId(): string {
  const bytes = randomBytes(8);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % 32];
  return id;
}

/** A member's or the guild's recent index: link ids, newest first. */
export const idListSchema = stringListSchema();

export function recordKey(guildId: string, id: string): string {
  return `link:${guildId}:${id}`;
}
export function memberKey(guildId: string, userId: string): string {
  return `links-of:${guildId}:${userId}`;
}
export function recentKey(guildId: string): string {
  return `links-recent:${guildId}`;
}
/** The UTC day (`yyyy-mm-dd`) a timestamp falls in. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
/**
 * URLs can be long; the index key is their hash, and the record's own URL (or, sealed, its hash) is
 * compared in full. An unkeyed hash reveals nothing here: a payment URL carries the store's random
 * token, so it cannot be guessed back from its hash.
 */
export function urlKey(guildId: string, url: string): string {
  return urlKeyOfHash(guildId, urlHashOf(url));
}
export function urlKeyOfHash(guildId: string, hash: string): string {
  return `link-url:${guildId}:${hash}`;
}
export function urlHashOf(url: string): string {
  return createHash('sha256').update(url).digest('hex');
}
