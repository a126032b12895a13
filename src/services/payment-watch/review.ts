import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import type { PaymentLink, PaymentLinkRepository } from '../../storage/payment-links.js';
import { guildsOf, reviewRef, REVIEW_TTL_MS, type PaymentReviewStore, type StoredReview } from '../../storage/payment-reviews.js';
import type { PaymentWatchStore, TxState } from '../../storage/payment-watch.js';
import type { PaymentEvents } from '../payment-events.js';
import type { StoreDirectory } from '../store-directory.js';
import type { OwnedLink, SeenTransaction } from './matcher.js';
import { runSteps } from './outbox.js';
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
  /** True when posted (or the guild has no log channel); false when the post failed. */
  post(guildId: string, review: PaymentUnderReview): Promise<boolean>;
}

export interface StaffReviewOptions {
  store: PaymentReviewStore;
  links: Pick<PaymentLinkRepository, 'get' | 'update'>;
  /** The watcher's records: the transaction's state and steps, the open-link index, and its inbox of work. */
  watch: Pick<PaymentWatchStore, 'tx' | 'saveTx' | 'addWork' | 'index'>;
  stores: Pick<StoreDirectory, 'shopKey'>;
  events: Pick<PaymentEvents, 'steps' | 'run'>;
  clock: Clock;
  logger: Logger;
  /** The log channel's post (app.ts); without it nothing is posted, and /links user still shows the buttons. */
  notices?: ReviewNotices;
}

export class StaffReviewService implements StaffReview {
  constructor(private readonly options: StaffReviewOptions) {}

  /**
   * The watcher found a paid purchase several members' links could be (settle.ts): it is kept for
   * staff, and each guild concerned gets one log post (made once, whichever round or process raises it).
   */
  async raise(transaction: SeenTransaction, candidates: readonly OwnedLink[]): Promise<void> {
    await this.#raise(transaction, candidates);
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
      // Who confirmed which link is named only to staff of the same Discord server (issue 36, point 6).
      if (review.confirmed) return { result: review.confirmed.guildId === guildId ? { kind: 'already', linkId: review.confirmed.linkId, by: review.confirmed.by } : { kind: 'already', linkId: undefined, by: undefined } };
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

  /**
   * After a confirmation: no guild lists the purchase, the link is no longer watched, and it settles
   * as paid with `confirmedBy`: the transaction is written as settled and the steps of PaymentEvents
   * (DM, log post, roles) run at once, each recorded when done (outbox.ts); what Discord did not
   * finish is handed to the license's next round, which offers it again with backoff.
   */
  async #settled(link: PaymentLink, review: StoredReview, ref: string, moderatorId: string): Promise<void> {
    const { store, watch, stores, clock, logger } = this.options;
    for (const guildId of guildsOf(review)) await store.forget(guildId, [ref]);
    await watch.index.closeOpen(link.license, [{ guildId: link.guildId, linkId: link.id }]);
    logger.info({ guild: link.guildId, link: link.id, transaction: review.transactionId, moderator: moderatorId }, 'payment review: a moderator confirmed which link a purchase paid');
    const shop = await stores.shopKey(link.license);
    const now = clock.now();
    const previous = await watch.tx(shop, review.transactionId);
    const tx: TxState = {
      ...(previous ?? { since: now, attempt: 0 }),
      state: 'settled',
      status: 'paid',
      at: now,
      link: { guildId: link.guildId, linkId: link.id },
      confirmedBy: moderatorId,
      attempt: 0,
    };
    // The intent first: a crash after it leaves work the license's round finishes.
    await watch.saveTx(shop, review.transactionId, tx);
    await watch.addWork(link.license, review.transactionId, now);
    const event = { link, status: 'paid' as const, transactionId: review.transactionId, at: now, confirmedBy: moderatorId };
    const { steps, left } = await runSteps(this.options, tx, event, (done) => watch.saveTx(shop, review.transactionId, done));
    if (left.length === 0) await watch.saveTx(shop, review.transactionId, { ...tx, steps, state: 'notified', at: clock.now() });
  }

  async #raise(transaction: SeenTransaction, candidates: readonly OwnedLink[]): Promise<void> {
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
      // A post Discord refused is not marked made; /links user still shows the purchase and its buttons.
      if (!(await notices.post(guildId, forGuild(review, guildId)))) await store.posts.release(`${guildId}:${ref}`);
    }
  }

}

/** What one guild is shown: its own candidates only (a moderator of one guild never sees another's members). */
function forGuild(review: StoredReview, guildId: string): PaymentUnderReview {
  const { confirmed: _confirmed, ...rest } = review;
  return { ...rest, candidates: review.candidates.filter((candidate) => candidate.guildId === guildId) };
}
