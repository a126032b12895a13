import { normalizeNick } from '../../src/cart/nick.js';
import type { CommandInteraction } from '../../src/discord/context.js';
import { slashCommand, type Feature } from '../../src/discord/feature.js';
import { guildCommand, optionalText } from '../../src/discord/localize.js';
import { commandTexts } from '../command-texts.js';
import { shopConfigured, type ShopContext } from '../../src/discord/preconditions.js';
import { clip, plain } from '../../src/discord/text.js';
import type { VoucherLogOutcome } from '../../src/discord/views/log.js';
import type { Messages } from '../../src/i18n/index.js';
import type { StoreError } from '../../src/spaceis/errors.js';
import { maskCode, MAX_CODE_LENGTH, withoutCode, type RedeemOutcome } from '../../src/services/vouchers.js';
import { redeemNames } from './names.js';
import { redeemedView, refusedText } from './views.js';
import { textView } from '../../src/discord/views/display.js';

/**
 * /redeem code: [nick:]: a voucher code of the shop, redeemed for a Minecraft nick (the option, else
 * the one remembered from the last checkout or redeem). The service keeps the limits against
 * guessing and sends the code once; every attempt that reached the store is posted to the log
 * channel with the code masked, and a member hitting the limit once per window.
 */

const texts = commandTexts('redeem');

const redeemCommand = slashCommand({
  name: redeemNames.name,
  preconditions: [shopConfigured],
  definition: () =>
    guildCommand(texts, {
      options: [
        optionalText(texts, 'code', { required: true, min_length: 1, max_length: MAX_CODE_LENGTH }),
        optionalText(texts, 'nick', { min_length: 1, max_length: 32 }),
      ],
    }),
  run: redeem,
});

async function redeem(interaction: CommandInteraction, ctx: ShopContext): Promise<void> {
  const { t, services, respond, guildId, userId, shop } = ctx;
  const code = interaction.options.getString(redeemNames.options.code, true);
  if (shop.source === 'demo') return respond.show(textView(t.vouchers.demo));
  const typed = interaction.options.getString(redeemNames.options.nick);
  let nick: string | undefined;
  if (typed !== null) {
    nick = normalizeNick(typed);
    if (!nick) return respond.show(textView(t.nick.invalid(clip(typed, 40))));
  } else {
    nick = await services.vouchers.rememberedNick(shop.license, userId);
    if (!nick) return respond.show(textView(t.vouchers.nickNeeded));
  }

  await respond.defer();
  const outcome = await services.vouchers.redeem(shop, { guildId, userId, nick, code });
  if (outcome.kind === 'invalid-code' || outcome.kind === 'invalid-nick') return respond.show(textView(refusedText(t, outcome)));

  const masked = maskCode(code);
  ctx.log.info({ code: masked, outcome: outcome.kind }, 'voucher code tried');
  // Not awaited: the member's answer must not wait on the log channel. Tries that reached the store
  // are posted (the store's own words kept for the staff); of the refused ones, only a member's
  // first hitting the limit in the window.
  const posted = logOutcome(outcome);
  const storeWords = withoutCode(outcome.kind === 'redeemed' ? outcome.state : 'message' in outcome ? outcome.message : undefined, code);
  if (posted) void services.guildLog.post(guildId, { kind: 'voucher-tried', userId, maskedCode: masked, nick, outcome: posted, ...(storeWords ? { storeWords } : {}) });

  if (outcome.kind === 'redeemed') return respond.show(redeemedView(t, outcome));
  if (outcome.kind === 'store-error') {
    ctx.log.warn({ code: masked, store: { kind: outcome.error.kind, status: outcome.error.status, message: withoutCode(outcome.error.apiMessage, code) } }, 'voucher request failed');
    if (outcome.error.isAuthProblem) await services.guildLog.licenseProblem(guildId, outcome.error);
    return respond.show(textView(storeFailureText(t, outcome.error)));
  }
  await respond.show(textView(refusedText(t, outcome)));
}

/** What the log channel is told of a try, or undefined when it is not posted (refused before the store saw it). */
function logOutcome(outcome: Exclude<RedeemOutcome, { kind: 'invalid-code' } | { kind: 'invalid-nick' }>): VoucherLogOutcome | undefined {
  switch (outcome.kind) {
    case 'redeemed':
    case 'used':
    case 'unknown':
    case 'conflict':
    case 'forbidden':
      return outcome.kind;
    case 'store-throttled':
      return 'storeThrottled';
    case 'rate-limited-member':
      return outcome.firstInWindow ? 'rateLimitedMember' : undefined;
    case 'rate-limited-guild':
    case 'rate-limited-shop':
    case 'not-sent':
      return undefined;
    case 'store-error':
      return 'storeError';
  }
}

/** A failure the outcomes do not name: never "try again" where the store may have taken the code. */
function storeFailureText(t: Messages, error: StoreError): string {
  if (error.isAuthProblem) return t.vouchers.notConfigured;
  if (error.kind === 'timeout' || error.kind === 'network') return t.vouchers.storeTimeout;
  if (error.kind === 'invalid-response') return t.vouchers.storeUnreadable;
  if (error.kind === 'http' && error.apiMessage && (error.status ?? 500) < 500) return t.vouchers.storeRefused(clip(plain(error.apiMessage), 300));
  return t.vouchers.storeUnavailable;
}

export const redeemFeature: Feature = {
  name: 'redeem',
  command: redeemCommand,
  components: [],
};
