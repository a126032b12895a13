import { ButtonStyle, type APIEmbedField } from 'discord.js';
import type { CartEstimate } from '../../src/cart/pricing.js';
import { MAX_LINES, type CartLine } from '../../src/cart/rules.js';
import type { View } from '../../src/discord/respond.js';
import { clip, LIMITS, noticeLine, plain } from '../../src/discord/text.js';
import { button, row, select, type SelectOption } from '../../src/discord/views/components.js';
import { quantitySelect } from '../../src/discord/views/quantity-picker.js';
import { formatPln, type Locale, type Messages } from '../../src/i18n/index.js';
import { shortRef } from '../../src/services/short-ref.js';
import { checkoutRoutes } from '../checkout/routes.js';
import { myLinksRoutes } from '../my-links/routes.js';
import { shopRoutes } from '../shop/routes.js';
import { cartRoutes } from './routes.js';

/** The cart's screens: the cart itself, one line's editor, and the "clear everything?" question. */

const EMBED_COLOR = 0x1c7ed6;

/** A problem first (the shop cannot sell now), then information (what just changed). */
function noticeLines(input: { notice?: string | undefined; warning?: string | undefined }): string {
  return [noticeLine(input.warning), noticeLine(input.notice, 'info')].filter(Boolean).join('\n');
}

export function emptyCartView(t: Messages, owner: string, input: { notice?: string | undefined; warning?: string | undefined } = {}): View {
  return {
    content: noticeLines(input),
    embeds: [{ title: t.cart.title, description: t.cart.empty, color: EMBED_COLOR }],
    components: [row(button(shopRoutes.openFromCart.build(owner, {}), t.cart.openShop, ButtonStyle.Primary), button(myLinksRoutes.list.build(owner, { page: 0 }), t.links.myLinks))],
  };
}

export interface CartViewInput {
  lines: CartLine[];
  estimate: CartEstimate;
  /** Variant ids the shop no longer offers: flagged so the buyer removes them before checkout. */
  gone: ReadonlySet<string>;
  nick: string | undefined;
  notice?: string;
  /** Shown first, as a warning: the guild's license cannot be used right now. */
  warning?: string;
}

export function cartView(t: Messages, locale: Locale, owner: string, input: CartViewInput): View {
  if (input.lines.length === 0) return emptyCartView(t, owner, input);
  const multiServer = new Set(input.lines.map((line) => line.serverId)).size > 1;
  const lineTexts = input.lines.map((line, index) => {
    const where = multiServer ? ` (${plain(line.serverName)})` : '';
    const gone = input.gone.has(line.variantId) ? ` ⚠️ ${t.cart.goneMark}` : '';
    return `${index + 1}. ${t.cart.line(line.quantity, plain(line.variantName), plain(line.productName))}${where}${gone}`;
  });
  const fields: APIEmbedField[] = [
    { name: t.cart.linesHeading(input.lines.length, MAX_LINES), value: clip(lineTexts.join('\n'), LIMITS.fieldValue) },
    { name: t.cart.estimateHeading, value: clip(estimateText(t, locale, input.estimate), LIMITS.fieldValue) },
  ];
  if (input.nick) fields.push({ name: t.nick.label, value: t.cart.nickHint(plain(input.nick)) });

  const options: SelectOption[] = input.lines.map((line) => ({
    value: shortRef(line.variantId),
    label: t.cart.lineOption(line.quantity, line.variantName),
    description: line.productName,
  }));
  return {
    content: noticeLines(input),
    embeds: [{ title: t.cart.title, color: EMBED_COLOR, fields }],
    components: [
      row(select(cartRoutes.chooseLine.build(owner, {}), t.cart.chooseLine, options)),
      row(
        button(checkoutRoutes.fromCart.build(owner, {}), t.cart.checkout, ButtonStyle.Success),
        button(checkoutRoutes.changeNick.build(owner, {}), t.cart.changeNick),
        button(cartRoutes.askClear.build(owner, {}), t.cart.clear, ButtonStyle.Danger),
        button(myLinksRoutes.list.build(owner, { page: 0 }), t.links.myLinks),
      ),
    ],
  };
}

function estimateText(t: Messages, locale: Locale, estimate: CartEstimate): string {
  switch (estimate.kind) {
    case 'prices-unavailable':
      return t.cart.pricesUnavailable;
    case 'no-common-method':
      return t.cart.noCommonMethod;
    case 'totals': {
      const totals = estimate.totals.map((total) => `${plain(total.name)}: **${formatPln(total.totalGrosze, locale)}**`);
      return `${totals.join('\n')}\n*${t.cart.estimateNote}*`;
    }
  }
}

export function lineEditorView(t: Messages, owner: string, line: CartLine, message?: string): View {
  const v = shortRef(line.variantId);
  return {
    content: noticeLine(message),
    embeds: [
      {
        title: clip(t.cart.editLine(plain(line.variantName), plain(line.productName)), LIMITS.embedTitle),
        color: EMBED_COLOR,
        fields: [{ name: t.quantity.quantity, value: String(line.quantity), inline: true }],
      },
    ],
    components: [
      row(quantitySelect(t, cartRoutes.chooseLineQuantity.build(owner, { line: v }), line.quantity)),
      row(button(cartRoutes.removeLine.build(owner, { line: v }), t.cart.remove, ButtonStyle.Danger), button(cartRoutes.view.build(owner, {}), t.cart.backToCart)),
    ],
  };
}

export function clearConfirmView(t: Messages, owner: string, lines: number): View {
  return {
    content: '',
    embeds: [{ title: t.cart.title, description: t.cart.clearConfirm(lines), color: EMBED_COLOR }],
    components: [
      row(button(cartRoutes.confirmClear.build(owner, {}), t.cart.clearYes, ButtonStyle.Danger), button(cartRoutes.view.build(owner, {}), t.cart.cancel)),
    ],
  };
}
