import type { PaymentLink } from '../storage/payment-links.js';

/**
 * What a moderator or buyer is told about a payment link. Always computed from the record, the
 * guild's current link lifetime and the clock, never stored, so an admin changing the lifetime
 * changes every unpaid link's state at once.
 *
 * `paid`, `failed` and (from the store) `expired` come from the shop: the payment watcher matched a
 * transaction to the link and the store reported that status (src/services/payment-watch/). Without
 * that, a link is `pending` within the guild's lifetime and `expired` after it: "pending" means no
 * payment has been reported, not that none was made (a shop whose API has no payment endpoints
 * reports none). A payment the store reports as paid is shown as paid even on a withdrawn link: the
 * money was taken, and that is what moderators must see.
 */
export type LinkState = 'pending' | 'paid' | 'failed' | 'expired' | 'revoked';

const HOUR_MS = 3_600_000;

export type StatedLink = Pick<PaymentLink, 'createdAt' | 'revoked' | 'payment'>;

export function linkState(link: StatedLink, lifetimeHours: number, now: number): LinkState {
  const status = link.payment?.status;
  if (status === 'paid') return 'paid';
  if (link.revoked) return 'revoked';
  if (status === 'failed') return 'failed';
  if (status === 'expired') return 'expired';
  return now < linkExpiresAt(link, lifetimeHours) ? 'pending' : 'expired';
}

/** When the link stops being `pending` (unless withdrawn or settled before). */
export function linkExpiresAt(link: Pick<PaymentLink, 'createdAt'>, lifetimeHours: number): number {
  return link.createdAt + lifetimeHours * HOUR_MS;
}

