/**
 * What a payment URL must be for the bot to hand it to a member. The store's answer is used exactly
 * as returned, never rewritten (docs/spaceis-api.md), so a URL that Discord cannot carry is refused
 * before anything changes (the cart is kept, nothing is recorded) instead of failing at delivery,
 * after the cart was emptied.
 */

/**
 * The longest URL the bot shows. A URL too long for a link button (512 characters) is shown in
 * full as text in a code block, beside the order (nick, items, the safety note, the reference): all
 * of it within the 4000 characters Discord allows over a display message's texts, with room for
 * the demo banner. The order's item list gives way; the URL never does.
 * test/unit/discord/payment-links/dm-views.test.ts checks that the longest DM and reply fit.
 */
export const MAX_PAYMENT_URL_LENGTH = 3_000;

export type PaymentUrlProblem = 'not-http-url' | 'whitespace-or-control' | 'too-long';

/** Undefined when the URL can be shown; otherwise why not (for the log: never the URL itself). */
export function paymentUrlProblem(url: string): PaymentUrlProblem | undefined {
  if (url.length > MAX_PAYMENT_URL_LENGTH) return 'too-long';
  // Whitespace (any, Unicode included), control characters, and a backtick, which would end the code block.
  if (/[\s\p{Cc}`]/u.test(url)) return 'whitespace-or-control';
  // `https:host` parses as a URL but is not what a browser opens from a button: the slashes and a host are required.
  if (!/^https?:\/\/[^/?#]/i.test(url)) return 'not-http-url';
  try {
    const parsed = new URL(url);
    return parsed.hostname ? undefined : 'not-http-url';
  } catch {
    return 'not-http-url';
  }
}
