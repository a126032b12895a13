import type { PaymentLink } from '../storage/payment-links.js';

/**
 * What a moderator or buyer is told about a payment link. Always computed from the record, the
 * guild's current link lifetime and the clock, never stored: the bot cannot see whether a link
 * was paid, so there is deliberately no "paid" state, and an admin changing the lifetime changes
 * every link's state at once.
 */
export type LinkState = 'pending' | 'expired' | 'revoked';

const HOUR_MS = 3_600_000;

export function linkState(link: Pick<PaymentLink, 'createdAt' | 'revoked'>, lifetimeHours: number, now: number): LinkState {
  if (link.revoked) return 'revoked';
  return now < linkExpiresAt(link, lifetimeHours) ? 'pending' : 'expired';
}

/** When the link stops being `pending` (unless withdrawn before). */
export function linkExpiresAt(link: Pick<PaymentLink, 'createdAt'>, lifetimeHours: number): number {
  return link.createdAt + lifetimeHours * HOUR_MS;
}
