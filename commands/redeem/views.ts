import type { View } from '../../src/discord/respond.js';
import { clip, plain } from '../../src/discord/text.js';
import { screen, small, text } from '../../src/discord/views/display.js';
import type { Messages } from '../../src/i18n/index.js';
import type { RedeemOutcome } from '../../src/services/vouchers.js';
import { throttlePauseMs } from '../../src/spaceis/gate-rules.js';

/** What /redeem answers for each outcome. The store's own words are quoted as they came (never "paid"). */

const VOUCHER_COLOR = 0x7048e8;

export function redeemedView(t: Messages, outcome: Extract<RedeemOutcome, { kind: 'redeemed' }>): View {
  const answer: string[] = [];
  if (outcome.state) answer.push(t.vouchers.storeState(clip(plain(outcome.state), 200)));
  if (outcome.transactionId) answer.push(t.vouchers.transaction(clip(outcome.transactionId.replace(/`/g, ''), 100)));
  return screen({
    accent: VOUCHER_COLOR,
    title: t.vouchers.redeemedTitle,
    body: [text(t.vouchers.redeemed(plain(outcome.nick))), ...answer.map(small)],
  });
}

const quoted = (message: string | undefined): string | undefined => (message === undefined ? undefined : clip(plain(message), 300));

/** The answer for every outcome but `redeemed` and a failure of the store (store-failure text). */
export function refusedText(t: Messages, outcome: Exclude<RedeemOutcome, { kind: 'redeemed' } | { kind: 'store-error' }>): string {
  switch (outcome.kind) {
    case 'used':
      return t.vouchers.used(quoted(outcome.message));
    case 'unknown':
      return t.vouchers.unknown(quoted(outcome.message));
    case 'conflict':
      return t.vouchers.conflict(quoted(outcome.message));
    case 'forbidden':
      return t.vouchers.forbidden(quoted(outcome.message));
    case 'store-throttled':
      return t.vouchers.storeThrottled(outcome.retryAfterSeconds === undefined ? undefined : Math.ceil(throttlePauseMs(outcome.retryAfterSeconds) / 1000), quoted(outcome.message));
    case 'rate-limited-member':
      return t.vouchers.memberLimit(outcome.retryAfterSeconds);
    case 'rate-limited-guild':
      return t.vouchers.guildLimit(outcome.retryAfterSeconds);
    case 'rate-limited-shop':
      return t.vouchers.shopLimit(outcome.retryAfterSeconds);
    case 'not-sent':
      return t.vouchers.notSent(outcome.retryAfterSeconds === undefined ? undefined : Math.ceil(throttlePauseMs(outcome.retryAfterSeconds) / 1000));
    case 'invalid-nick':
      return t.vouchers.nickNeeded;
    case 'invalid-code':
      return t.vouchers.invalidCode;
  }
}
