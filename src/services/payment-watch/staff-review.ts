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
