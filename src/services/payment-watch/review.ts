import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import type { TransactionStatus } from '../../spaceis/payment-schemas.js';
import type { PaymentLink, PaymentLinkRepository } from '../../storage/payment-links.js';
import { guildsOf, reviewRef, REVIEW_TTL_MS, type PaymentReviewStore, type StoredReview } from '../../storage/payment-reviews.js';
import type { PaymentWatchStore } from '../../storage/payment-watch.js';
import type { PaymentEvents } from '../payment-events.js';
import type { StoreDirectory } from '../store-directory.js';
import { couldPay, decideMatch, type OwnedLink, type SeenTransaction, type WatchedLink } from './matcher.js';
import type { ConfirmOutcome, PaymentUnderReview, StaffReview } from './staff-review.js';

export { reviewRef, REVIEW_REF_LENGTH } from '../../storage/payment-reviews.js';

/**
 * Issue 28, "who paid is a guess": the store lists a purchase's nick, items and time, never who
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
  post(guildId: string, review: PaymentUnderReview): Promise<void>;
}

/** The watcher's one question: which link, if any, a purchase settles now. */
export type ReviewDecision<L> =
  /** `license` when the link is another key's of the same shop (its index entry is there). */
  | { kind: 'link'; link: L | WatchedLink; license?: string }
  /** No open link could have paid it (or it failed at the store with several members' links: nobody's). */
  | { kind: 'none' }
  /** Kept for staff: the transaction is handled. */
  | { kind: 'raised' }
  /** Several members' links, and the store has no final word yet: not handled, asked again next poll. */
  | { kind: 'later' };

export interface StaffReviewOptions {
  store: PaymentReviewStore;
  links: Pick<PaymentLinkRepository, 'get' | 'update'>;
  watch: Pick<PaymentWatchStore, 'licenses' | 'openLinks' | 'closeLinks'>;
  stores: Pick<StoreDirectory, 'sameShop'>;
  events: Pick<PaymentEvents, 'emit'>;
  clock: Clock;
  logger: Logger;
  /** The log channel's post (app.ts); without it nothing is posted, and /links user still shows the buttons. */
  notices?: ReviewNotices;
}

export class StaffReviewService implements StaffReview {
  constructor(private readonly options: StaffReviewOptions) {}

  /**
   * Decides a transaction the store described, against the round's open links (`license`'s) and
   * those of the same shop's other keys. Several members' links: raises it for staff when paid.
   */
  async decide<L extends WatchedLink>(license: string, transaction: SeenTransaction, status: TransactionStatus, open: readonly L[]): Promise<ReviewDecision<L>> {
    const possible: WatchedLink[] = open.filter((link) => couldPay(transaction, link));
    if (possible.length === 0) return { kind: 'none' };
    const foreign = await this.#sameShopLinks(license, transaction);
    possible.push(...foreign.keys());
    const owned = await this.#owners(possible);
    const decision = decideMatch(transaction, [...owned.keys()]);
    if (decision.kind === 'none') return { kind: 'none' };
    if (decision.kind === 'sole') {
      const link = owned.get(decision.link)!;
      const elsewhere = foreign.get(link);
      return { kind: 'link', link, ...(elsewhere ? { license: elsewhere } : {}) };
    }
    if (status === 'pending') return { kind: 'later' };
    if (status !== 'paid') return { kind: 'none' };
    await this.#raise(transaction, decision.candidates);
    return { kind: 'raised' };
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
   * moderators pressing at once one confirms and the other is told who did; the link changes under
   * its own lock, so a purchase settling it meanwhile is seen.
   */
  async confirmRef(guildId: string, ref: string, linkId: string, moderatorId: string): Promise<ConfirmOutcome> {
    const { store, links, clock } = this.options;
    let paid: { link: PaymentLink; review: StoredReview } | undefined;
    const outcome = await store.update<ConfirmOutcome>(ref, async (review) => {
      if (!review) return { result: { kind: 'not-waiting' } };
      if (review.confirmed) return { result: { kind: 'already', linkId: review.confirmed.linkId, by: review.confirmed.by } };
      const candidate = review.candidates.find((one) => one.guildId === guildId && one.linkId === linkId);
      if (!candidate) return { result: { kind: 'not-candidate' } };
      const now = clock.now();
      let refused: ConfirmOutcome | undefined;
      const link = await links.update(guildId, linkId, (record) => {
        if (record.payment?.status === 'paid' || (record.payment && record.payment.transactionId !== review.transactionId)) refused = { kind: 'link-taken', linkId };
        else if (record.revoked) refused = { kind: 'withdrawn', linkId, by: record.revoked.by };
        if (refused) return record;
        return { ...record, payment: { status: 'paid', transactionId: review.transactionId, matchedAt: now, settledAt: now, confirmedBy: moderatorId } };
      });
      if (!link) return { result: { kind: 'not-candidate' } };
      if (refused) return { result: refused };
      const confirmed = { ...review, confirmed: { guildId, linkId, by: moderatorId, at: now } };
      paid = { link, review: confirmed };
      return { write: confirmed, result: { kind: 'confirmed', linkId, userId: link.userId } };
    });
    if (outcome.kind === 'confirmed' && paid) await this.#settled(paid.link, paid.review, ref, moderatorId);
    return outcome;
  }

  /** After a confirmation: no guild lists the purchase, the link is no longer watched, and it settles as paid. */
  async #settled(link: PaymentLink, review: StoredReview, ref: string, moderatorId: string): Promise<void> {
    const { store, watch, events, clock, logger } = this.options;
    for (const guildId of guildsOf(review)) await store.forget(guildId, [ref]);
    await watch.closeLinks(link.license, [{ guildId: link.guildId, linkId: link.id }]);
    logger.info({ guild: link.guildId, link: link.id, transaction: review.transactionId, moderator: moderatorId }, 'payment review: a moderator confirmed which link a purchase paid');
    await events.emit({ link, status: 'paid', transactionId: review.transactionId, at: clock.now(), confirmedBy: moderatorId });
  }

  async #raise(transaction: SeenTransaction, candidates: OwnedLink[]): Promise<void> {
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
    });
    if (review.confirmed) return;
    const ref = reviewRef(review.transactionId);
    logger.info({ transaction: review.transactionId, candidates: review.candidates.length, guilds: guildsOf(review).length }, 'payment watch: a purchase could have paid several members’ links; waiting for staff');
    for (const guildId of guildsOf(review)) {
      if (!notices || !(await store.posts.claim(`${guildId}:${ref}`, REVIEW_TTL_MS))) continue;
      await notices.post(guildId, forGuild(review, guildId));
    }
  }

  /**
   * Open links of the same shop under its other keys (a rotated license) that could have paid:
   * one purchase is the shop's, whichever key the bot issued the link with.
   */
  async #sameShopLinks(license: string, transaction: SeenTransaction): Promise<Map<WatchedLink, string>> {
    const { watch, stores, logger } = this.options;
    const found = new Map<WatchedLink, string>();
    for (const other of await watch.licenses()) {
      if (other === license) continue;
      try {
        if (!(await stores.sameShop(other, license))) continue;
      } catch (error) {
        // Unknown now: those links are not counted this time (their own license's round sees the purchase too).
        logger.debug({ err: error }, 'payment review: could not tell whether another license is the same shop');
        continue;
      }
      for (const link of await watch.openLinks(other)) if (couldPay(transaction, link)) found.set(link, other);
    }
    return found;
  }

  /** Each link with its member: from the index entry, or (entries written before it was kept) the link's record. */
  async #owners(links: readonly WatchedLink[]): Promise<Map<OwnedLink, WatchedLink>> {
    const owned = new Map<OwnedLink, WatchedLink>();
    for (const link of links) {
      const userId = link.userId ?? (await this.options.links.get(link.guildId, link.linkId))?.userId;
      // A link whose record is gone cannot be paid any more.
      if (userId) owned.set({ ...link, userId }, link);
    }
    return owned;
  }
}

/** What one guild is shown: its own candidates only (a moderator of one guild never sees another's members). */
function forGuild(review: StoredReview, guildId: string): PaymentUnderReview {
  const { confirmed: _confirmed, ...rest } = review;
  return { ...rest, candidates: review.candidates.filter((candidate) => candidate.guildId === guildId) };
}
