import { ButtonStyle } from 'discord.js';
import type { CartChanges } from '../../src/cart/price-changes.js';
import type { CartLine } from '../../src/cart/rules.js';
import type { View } from '../../src/discord/respond.js';
import { clip, plain } from '../../src/discord/text.js';
import { button, row, textInputModal, userSelect } from '../../src/discord/views/components.js';
import { screen, small, text } from '../../src/discord/views/display.js';
import { formatPln, type Locale, type Messages } from '../../src/i18n/index.js';
import { cartRoutes } from '../cart/routes.js';
import { checkoutRoutes } from './routes.js';

/** The nick question and the prices question. The link's own messages (DM, replies) are src/discord/payment-links/dm-views.ts. */

export function nickModal(t: Messages, owner: string, current: string | undefined) {
  return textInputModal(checkoutRoutes.nickForm.build(owner, {}), t.nick.modalTitle, {
    customId: checkoutRoutes.nickForm.fields.nick,
    label: t.nick.label,
    placeholder: t.nick.placeholder,
    minLength: 3,
    maxLength: 16,
    ...(current ? { value: current } : {}),
  });
}

/**
 * The question checkout asks when a price went up since the line was added: each change ("was
 * 10,50 zł, now 12,00 zł", per unit, the cheapest method), the lines left out of the link, and the
 * two ways on. Continue carries `shown` (offerDigest): asked again if the offer differs when pressed.
 */
export function pricesUpView(
  t: Messages,
  locale: Locale,
  owner: string,
  nick: string,
  lines: readonly CartLine[],
  changes: CartChanges,
  shown: string,
  gift?: { recipientId?: string },
): View {
  const accept = gift
    ? checkoutRoutes.acceptGiftPrices.build(owner, { nick, member: gift.recipientId ?? '0', shown })
    : checkoutRoutes.acceptPrices.build(owner, { nick, shown });
  const name = (line: CartLine) => t.cart.line(line.quantity, plain(line.variantName), plain(line.productName));
  const changed = lines.flatMap((line) => {
    const change = changes.lines.get(line.variantId);
    if (change?.kind !== 'up' && change?.kind !== 'down') return [];
    const mark = change.kind === 'up' ? '🔺' : '🔻';
    return [`${mark} ${name(line)}: ${t.cart.priceChanged(formatPln(change.wasGrosze, locale), formatPln(change.nowGrosze, locale))}`];
  });
  const leftOut = lines.filter((line) => changes.leftOut.has(line.variantId)).map((line) => `⚠️ ${name(line)}`);
  return screen({
    accent: 0xf08c00,
    title: t.checkout.pricesUpTitle,
    body: [
      text(clip([t.checkout.pricesUp, ...changed].join('\n'), 1800)),
      ...(leftOut.length > 0 ? [text(clip([t.checkout.pricesLeftOut, ...leftOut].join('\n'), 1200))] : []),
      small(t.cart.estimateNote),
    ],
    controls: [
      row(
        button(accept, t.checkout.continueNewPrices, ButtonStyle.Success),
        button(cartRoutes.view.build(owner, {}), t.checkout.backToCart),
      ),
    ],
  });
}

/** "Who is it for?": a member of this server (a user select), a player by nick, or the buyer themselves. */
export function giftChoiceView(t: Messages, owner: string): View {
  return screen({
    accent: 0xf08c00,
    title: t.gift.title,
    body: [text(t.gift.intro)],
    controls: [
      row(userSelect(checkoutRoutes.giftMember.build(owner, {}), t.gift.memberPlaceholder)),
      row(
        button(checkoutRoutes.giftByNick.build(owner, {}), t.gift.byNick),
        button(checkoutRoutes.fromCart.build(owner, {}), t.gift.forMyself),
        button(cartRoutes.view.build(owner, {}), t.checkout.backToCart),
      ),
    ],
  });
}

/** The gift's nick form (`member`: the recipient, or `0` for a player by nick alone). */
export function giftNickModal(t: Messages, owner: string, member: string) {
  return textInputModal(checkoutRoutes.giftNickForm.build(owner, { member }), t.gift.nickTitle, {
    customId: checkoutRoutes.giftNickForm.fields.nick,
    label: t.nick.label,
    placeholder: t.nick.placeholder,
    minLength: 3,
    maxLength: 16,
  });
}
