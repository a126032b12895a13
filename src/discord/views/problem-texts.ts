import type { RuleViolation } from '../../cart/rules.js';
import type { Messages } from '../../i18n/index.js';
import type { StoreError } from '../../spaceis/errors.js';
import { throttlePauseMs } from '../../spaceis/gate-rules.js';
import { clip, plain } from '../text.js';

/** The buyer-facing sentence for a cart rule the bot refused to break. */
export function violationText(violation: RuleViolation, t: Messages): string {
  switch (violation.code) {
    case 'cart-full':
      return t.rules.cartFull(violation.max);
    case 'other-server':
      return t.rules.otherServer(plain(violation.serverName));
    case 'other-license':
      return t.rules.otherLicense;
    case 'quantity-range':
      return t.rules.quantityRange(violation.min, violation.max);
    case 'already-at-max':
      return t.rules.alreadyAtMax(violation.max);
    case 'line-missing':
      return t.cart.lineGone;
    case 'empty':
      return t.checkout.emptyCart;
  }
}

/**
 * What the buyer reads when the store said no. The store's own message is quoted verbatim
 * (with its field errors) and followed by a short hint; nothing here ever says an order is paid.
 */
export function storeErrorText(error: StoreError, t: Messages, during: 'browse' | 'checkout'): string {
  if (error.isAuthProblem) return t.storeErrors.notConfigured;
  if (error.kind === 'unavailable') return t.storeErrors.temporarilyUnavailable;
  if (error.kind === 'timeout' || error.kind === 'network') {
    return during === 'checkout' && error.kind === 'timeout' ? t.storeErrors.timeoutCheckout : t.storeErrors.unavailable;
  }
  if (error.kind === 'invalid-response') return t.storeErrors.badResponse;
  if (error.isThrottled) {
    // The wait the license is paused for, not the header as sent: an absurd Retry-At pauses it 30 s.
    const seconds = error.retryAfterSeconds === undefined ? undefined : throttlePauseMs(error.retryAfterSeconds) / 1000;
    return t.storeErrors.throttled(seconds);
  }
  if ((error.status ?? 0) >= 500) {
    // The store failed, it did not refuse: say so, with its own words when it gave any.
    return error.apiMessage ? `${t.storeErrors.failed}\n(${t.storeErrors.quoted(clip(plain(error.apiMessage), 200))})` : t.storeErrors.failed;
  }

  const parts: string[] = [];
  if (error.apiMessage) parts.push(t.storeErrors.refused(clip(plain(error.apiMessage), 300)));
  const fields = Object.entries(error.fieldErrors ?? {});
  if (fields.length > 0) {
    parts.push(t.storeErrors.fieldErrors);
    for (const [field, problems] of fields.slice(0, 10)) parts.push(`• ${clip(plain(field), 60)}: ${t.storeErrors.quoted(clip(plain(problems.join('; ')), 200))}`);
  }
  // Own keys only: a store message such as "constructor" must not find Object's.
  const known = error.apiMessage?.trim().toLowerCase();
  const hint = known !== undefined && Object.hasOwn(t.storeErrors.hints, known) ? t.storeErrors.hints[known] : undefined;
  if (hint) parts.push(hint);
  if (parts.length === 0) parts.push((error.status ?? 0) >= 500 ? t.storeErrors.failed : t.storeErrors.badResponse);
  return clip(parts.join('\n'), 1900);
}
