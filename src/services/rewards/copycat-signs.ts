import type { PaymentLink } from '../../storage/payment-link-record.js';
import { nickKeyPart } from '../../storage/nick-uses.js';

/**
 * A copycat gets nothing: a member who asks for links for many other players' nicks and
 * pays none of them is casting a net for those players' website purchases (the store says which nick
 * paid, never who typed it). Such a member's paid link earns no role by itself: staff may give it
 * (the log post's Give role button). Pure: the member's recent links are read by the caller.
 */

/** Unpaid links with other nicks, in the window, that hold a member's roles back. */
export const MANY_NICKS = 3;
/** The window before the paid link's issue in which they count. */
export const MANY_NICKS_WINDOW_MS = 24 * 3_600_000;
/** Links read to decide: enough to see MANY_NICKS among a busy member's retries (a member gets at most 10 an hour). */
export const MANY_NICKS_READ = 50;

/** How many of the member's links issued from the window's start on were never paid (nor confirmed by staff) and name a nick other than the paid link's. */
export function foreignUnpaidLinks(paid: Pick<PaymentLink, 'id' | 'nick' | 'createdAt'>, recent: readonly Pick<PaymentLink, 'id' | 'nick' | 'createdAt' | 'payment'>[]): number {
  const own = nickKeyPart(paid.nick.trim());
  const since = paid.createdAt - MANY_NICKS_WINDOW_MS;
  return recent.filter((link) => link.id !== paid.id && link.createdAt >= since && link.payment?.status !== 'paid' && nickKeyPart(link.nick.trim()) !== own).length;
}
