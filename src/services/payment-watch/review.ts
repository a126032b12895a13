import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import type { PaymentLink, PaymentLinkRepository } from '../../storage/payment-links.js';
import { guildsOf, reviewRef, REVIEW_TTL_MS, type PaymentReviewStore, type StoredReview } from '../../storage/payment-reviews.js';
import type { PaymentWatchStore, TxState } from '../../storage/payment-watch.js';
import type { PaymentEvents } from '../payment-events.js';
import type { StoreDirectory } from '../store-directory.js';
import type { OwnedLink, ReviewReason, SeenTransaction } from './matcher.js';
import { claimLink, recordEvent } from './ledger.js';
import { runSteps } from './tell.js';

export { reviewRef, REVIEW_REF_LENGTH } from '../../storage/payment-reviews.js';

/**
 * When a store purchase could have paid the open links of two or more members (the same nick and
 * items: nicks are public), the bot does not guess: the payment waits for staff, who choose the
 * link it paid. This is the contract between the watcher, which finds such purchases and keeps
 * them, and the Discord side (the log post with one button per candidate, /links user,
 * /shop-admin status), which shows them and passes on the moderator's choice.
 */

/** One open link the purchase could have paid. */
export interface ReviewCandidate {
  guildId: string;
  linkId: string;
  userId: string;
  /** When the link was issued (the bot's clock). */
  createdAt: number;
}

/** A purchase waiting for staff to say which link it paid. */
export interface PaymentUnderReview {
  /** The store's transaction id: shown to moderators, never a secret. */
  transactionId: string;
  /** The nick the store lists (never the buyer's e-mail). */
  nick: string;
  /** What was bought, named as the candidate links name it. */
  items: { variantId: string; quantity: number; serverName?: string; productName?: string; variantName?: string }[];
  /** When the purchase was made, as the watcher placed it (the bot's clock). */
  madeAt: number;
  /** When the watcher set it aside for staff. */
  raisedAt: number;
  candidates: ReviewCandidate[];
  /** Why nothing settled by itself (matcher.ts, ReviewReason): several members' links (the default), a late purchase, a website buyer's nick, repeated unpaid links for the nick. */
  reason?: 'members' | 'late' | 'website-buyer' | 'repeated';
}

export type ConfirmOutcome =
  /** The chosen link is now paid (confirmed by the moderator); the other candidates stay open. */
  | { kind: 'confirmed'; linkId: string; userId: string }
  /** Another moderator (or the store's later answer) settled it already: nothing changed. */
  | { kind: 'already'; linkId: string | undefined; by: string | undefined }
  /** No such payment waits for staff (unknown transaction, or its time is over). */
  | { kind: 'not-waiting' }
  /** The link is not one of this payment's candidates in this guild. */
  | { kind: 'not-candidate' }
  /** The moderator is the member the link belongs to (its buyer, or a gift's recipient): another must confirm it. */
  | { kind: 'own-link'; linkId: string }
  /** The chosen link was withdrawn by a moderator meanwhile: nothing changed, the payment still waits. */
  | { kind: 'withdrawn'; linkId: string; by: string }
  /** The chosen link was paid by another purchase meanwhile: nothing changed, the payment still waits. */
  | { kind: 'link-taken'; linkId: string };

export interface StaffReview {
  /** The payments waiting for staff with at least one candidate link in this guild (its candidates limited to this guild's). */
  waiting(guildId: string): Promise<PaymentUnderReview[]>;
  /** Those among them with a candidate link of this member. */
  waitingFor(guildId: string, userId: string): Promise<PaymentUnderReview[]>;
  /** A moderator chose `linkId`: it settles as paid with `confirmedBy` (PaymentEvents), the others stay open. */
  confirm(guildId: string, transactionId: string, linkId: string, moderatorId: string): Promise<ConfirmOutcome>;
}

/**
 * "Who paid is a guess": the store lists a purchase's nick, items and time, never who
 * typed the nick, and nicks are public. So a purchase settles a link by itself only when every
 * open link it could have paid — in any guild of the same shop, under any of its keys — is one
 * member's (the newest of theirs). When links of two or more members could match, nothing settles:
 * the purchase is kept for staff (PaymentReviewStore), each guild concerned gets one log post with a
 * button per candidate (ReviewNotices), and the link a moderator chooses settles as paid with
 * `confirmedBy` through PaymentEvents, like any paid link (DM, log post, roles).
 *
 * What it costs: nothing for a purchase no open link could match. For one that could: a read of
 * the registry of watched licenses and one `sameShop` check per other license (the shop's identity
 * is kept, so usually no store request) and one read of each such license's open links; a link
 * record read per candidate whose index entry is older than the member id in it; when raised, one
 * record, one small list per guild and one post marker per guild. A purchase still `pending` at the
 * store with several members' links is asked about again on the next poll, until it is final.
 */

/** Where a purchase waiting for staff is told: the guild's log channel (src/discord/payment-links/review-posts.ts). */
export interface ReviewNotices {
  /** True when posted (or the guild has no log channel); false when the post failed. */
  post(guildId: string, review: PaymentUnderReview): Promise<boolean>;
}

export interface StaffReviewOptions {
  store: PaymentReviewStore;
  links: Pick<PaymentLinkRepository, 'get' | 'claim'>;
  /** The watcher's records: the transaction's state and steps, the open-link index, and its inbox of work. */
  watch: Pick<PaymentWatchStore, 'tx' | 'saveTx' | 'addWork' | 'index'>;
  stores: Pick<StoreDirectory, 'shopKey'>;
  events: Pick<PaymentEvents, 'steps' | 'run' | 'refused'>;
  clock: Clock;
  logger: Logger;
  /** The log channel's post (app.ts); without it nothing is posted, and /links user still shows the buttons. */
  notices?: ReviewNotices;
}

export class StaffReviewService implements StaffReview {
  constructor(private readonly options: StaffReviewOptions) {}

  /**
   * The watcher found a paid purchase several members' links could be (round.ts): it is kept for
   * staff, and each guild concerned gets one log post (made once, whichever round or process raises it).
   */
  async raise(transaction: SeenTransaction, candidates: readonly OwnedLink[], reason: ReviewReason = 'members'): Promise<void> {
    await this.#raise(transaction, candidates, reason);
  }

  async waiting(guildId: string): Promise<PaymentUnderReview[]> {
    const { store } = this.options;
    const refs = await store.waitingIn(guildId);
    const found: PaymentUnderReview[] = [];
    const stale: string[] = [];
    for (const ref of refs) {
      const review = await store.get(ref);
      if (!review || review.confirmed) stale.push(ref);
      else found.push(forGuild(review, guildId));
    }
    // Expired or confirmed elsewhere: the guild's list follows.
    await store.forget(guildId, stale);
    return found;
  }

  async waitingFor(guildId: string, userId: string): Promise<PaymentUnderReview[]> {
    return (await this.waiting(guildId)).filter((review) => review.candidates.some((candidate) => candidate.userId === userId));
  }

  confirm(guildId: string, transactionId: string, linkId: string, moderatorId: string): Promise<ConfirmOutcome> {
    return this.confirmRef(guildId, reviewRef(transactionId), linkId, moderatorId);
  }

  /**
   * The moderators' button (it carries the transaction's ref). Under the purchase's lock, so of two
   * moderators pressing at once one confirms and the other is told who did.
   *
   * One write decides: the transaction's record, settled with `confirmedBy` and owing every step
   * (storage/payment-watch.ts). Before it, only the license's inbox of work is written (a hint: an
   * entry whose transaction owes nothing is dropped by the round); a failure up to and including it
   * throws, and the moderator is told nothing was saved — truly so, a second press starts afresh.
   * After it, the confirmation stands whatever else fails: the link's record, the review's, the
   * guilds' lists and the Discord steps are each finished by the license's next round (tell.ts)
   * when they fail here, and the moderator is told it is saved.
   */
  async confirmRef(guildId: string, ref: string, linkId: string, moderatorId: string): Promise<ConfirmOutcome> {
    const { store, links, watch, stores, clock } = this.options;
    let decided: { link: PaymentLink; review: StoredReview; tx: TxState; shop: string } | undefined;
    const outcome = await store.update<ConfirmOutcome>(ref, async (review) => {
      if (!review) return { result: { kind: 'not-waiting' } };
      // Who confirmed which link is named only to staff of the same Discord server.
      if (review.confirmed) return { result: review.confirmed.guildId === guildId ? { kind: 'already', linkId: review.confirmed.linkId, by: review.confirmed.by } : { kind: 'already', linkId: undefined, by: undefined } };
      const candidate = review.candidates.find((one) => one.guildId === guildId && one.linkId === linkId);
      if (!candidate) return { result: { kind: 'not-candidate' } };
      const link = await links.get(guildId, linkId);
      if (!link) return { result: { kind: 'not-candidate' } };
      // Nobody confirms a payment for their own link (or a gift to them): the bot's word would be theirs alone.
      if (link.userId === moderatorId || link.gift?.recipientId === moderatorId) return { result: { kind: 'own-link', linkId } };
      const shop = await stores.shopKey(link.license);
      const previous = (await watch.tx(shop, review.transactionId)) ?? (shop === link.license ? undefined : await watch.tx(link.license, review.transactionId));
      // Its record says it is settled already (a confirmation whose review record was not written, or the store's answer).
      if (previous && (previous.state === 'settled' || previous.state === 'notified')) return { result: { kind: 'already', linkId: previous.link?.linkId, by: previous.confirmedBy } };
      if (link.payment?.status === 'paid' || (link.payment && link.payment.transactionId !== review.transactionId)) return { result: { kind: 'link-taken', linkId } };
      if (link.revoked) return { result: { kind: 'withdrawn', linkId, by: link.revoked.by } };
      const now = clock.now();
      // The work hint first, then the one write that decides (the ledger's, as every path's): settled, paid, with the moderator's name, owing every step.
      await watch.addWork(link.license, review.transactionId, now);
      const tx = (await recordEvent({ store: watch, clock }, shop, review.transactionId, previous, { kind: 'confirmed', link: { guildId, linkId }, by: moderatorId }, NO_FOLLOW_UP)).record!;
      // Saved. What follows is finished by the license's round when it fails here.
      const confirmed = { ...review, confirmed: { guildId, linkId, by: moderatorId, at: now } };
      decided = { link, review: confirmed, tx, shop };
      await this.#afterwards('the review record', () => store.put(ref, confirmed));
      return { result: { kind: 'confirmed', linkId, userId: link.userId } };
    });
    if (outcome.kind === 'confirmed' && decided) await this.#settled(decided, ref);
    return outcome;
  }

  /**
   * After a confirmation is saved: no guild lists the purchase, the link is no longer watched, its
   * record says paid with `confirmedBy`, and the steps of PaymentEvents (DM, log post, roles) run at
   * once, each recorded when done (tell.ts). Whatever fails here is left to the license's next
   * round, which has the work in its inbox.
   */
  async #settled({ link, review, tx, shop }: { link: PaymentLink; review: StoredReview; tx: TxState; shop: string }, ref: string): Promise<void> {
    const { store, watch, clock, logger } = this.options;
    const { transactionId } = review;
    logger.info({ guild: link.guildId, link: link.id, transaction: transactionId, moderator: tx.confirmedBy }, 'payment review: a moderator confirmed which link a purchase paid');
    for (const guildId of guildsOf(review)) await this.#afterwards('a guild’s list of reviews', () => store.forget(guildId, [ref]));
    await this.#afterwards('the open-link index', () => watch.index.closeOpen(link.license, [{ guildId: link.guildId, linkId: link.id }]));
    const claimed = await this.#afterwards('the link’s record', () => claimLink(this.options, tx.link!, transactionId, 'paid', true, tx.confirmedBy));
    if (claimed !== 'claimed') return;
    const paid = await this.options.links.get(link.guildId, link.id).catch(() => undefined);
    if (!paid?.payment || paid.payment.settledAt === undefined) return;
    const event = { link: paid, status: 'paid' as const, transactionId, at: paid.payment.settledAt, confirmedBy: tx.confirmedBy!, ...(tx.amounts ? { amounts: tx.amounts } : {}) };
    await this.#afterwards('the payment’s steps', async () => {
      const write = { store: watch, clock };
      const { done } = await runSteps(this.options, tx, event, async (record, step) => (await recordEvent(write, shop, transactionId, record, step, NO_FOLLOW_UP)).record);
      // Every step ended: notified. Some left: the license's round offers them again (a pass here counts as no attempt).
      await recordEvent(write, shop, transactionId, done, { kind: 'steps-tried', steps: this.options.events.steps(), counted: false }, NO_FOLLOW_UP);
    });
  }

  /** A write after the confirmation was saved: a failure is logged and left to the license's round. */
  async #afterwards<T>(what: string, write: () => Promise<T>): Promise<T | undefined> {
    try {
      return await write();
    } catch (error) {
      this.options.logger.warn({ err: error, what }, 'payment review: a write after a saved confirmation failed; the license’s next round finishes it');
      return undefined;
    }
  }

  async #raise(transaction: SeenTransaction, candidates: readonly OwnedLink[], reason: ReviewReason): Promise<void> {
    const { store, links, clock, logger, notices } = this.options;
    const first = candidates[0]!;
    // The items as the links name them (the store's details carry ids only).
    const named = await links.get(first.guildId, first.linkId);
    const review = await store.raise({
      transactionId: transaction.id,
      nick: transaction.nick ?? first.nick,
      items: named?.items.map(({ variantId, quantity, serverName, productName, variantName }) => ({ variantId, quantity, serverName, productName, variantName })) ?? [...first.items],
      madeAt: transaction.madeAt,
      raisedAt: clock.now(),
      candidates: candidates.map(({ guildId, linkId, userId, createdAt }) => ({ guildId, linkId, userId, createdAt })),
      ...(reason === 'members' ? {} : { reason }),
    });
    if (review.confirmed) return;
    const ref = reviewRef(review.transactionId);
    logger.info({ transaction: review.transactionId, candidates: review.candidates.length, guilds: guildsOf(review).length, reason }, 'payment watch: a purchase whose link is not certain; waiting for staff');
    for (const guildId of guildsOf(review)) {
      if (!notices || !(await store.posts.claim(`${guildId}:${ref}`, REVIEW_TTL_MS))) continue;
      // A post Discord refused is not marked made; /links user still shows the purchase and its buttons.
      if (!(await notices.post(guildId, forGuild(review, guildId)))) await store.posts.release(`${guildId}:${ref}`);
    }
  }

}

/** A confirmation's events schedule nothing by the poll interval: its follow-ups are the license's round's. */
const NO_FOLLOW_UP = { pollMs: 0 };

/** What one guild is shown: its own candidates only (a moderator of one guild never sees another's members). */
function forGuild(review: StoredReview, guildId: string): PaymentUnderReview {
  const { confirmed: _confirmed, ...rest } = review;
  return { ...rest, candidates: review.candidates.filter((candidate) => candidate.guildId === guildId) };
}
