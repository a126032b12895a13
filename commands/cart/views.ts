import { ButtonStyle } from 'discord.js';
import type { LineChange } from '../../src/cart/price-changes.js';
import type { CartEstimate } from '../../src/cart/pricing.js';
import { MAX_LINES, type CartLine } from '../../src/cart/rules.js';
import type { View } from '../../src/discord/respond.js';
import { plain } from '../../src/discord/text.js';
import { button, row, select, type SelectOption } from '../../src/discord/views/components.js';
import { screen, separator, small, text, type Part } from '../../src/discord/views/display.js';
import { quantitySelect } from '../../src/discord/views/quantity-picker.js';
import { formatPln, type Locale, type Messages } from '../../src/i18n/index.js';
import { shortRef } from '../../src/services/short-ref.js';
import { checkoutRoutes } from '../checkout/routes.js';
import { myLinksRoutes } from '../my-links/routes.js';
import { shopRoutes } from '../shop/routes.js';
import { cartRoutes } from './routes.js';

/**
 * The cart's screens: the cart itself, one line's editor, and the "clear everything?" question.
 * Each is one container: the heading, what is in the cart, the estimate, then the controls.
 */

const ACCENT = 0x1c7ed6;

export function emptyCartView(t: Messages, owner: string, input: { notice?: string | undefined; warning?: string | undefined } = {}): View {
  return screen({
    accent: ACCENT,
    title: t.cart.title,
    warning: input.warning,
    info: input.notice,
    body: [text(t.cart.empty)],
    controls: [row(button(shopRoutes.openFromCart.build(owner, {}), t.cart.openShop, ButtonStyle.Primary), button(myLinksRoutes.list.build(owner, { page: 0 }), t.links.myLinks))],
  });
}

export interface CartViewInput {
  lines: CartLine[];
  estimate: CartEstimate;
  /** Variant ids the shop no longer offers (or no longer sells for a cart): flagged, and left out of the payment link. */
  gone: ReadonlySet<string>;
  /** What changed per line since it was added (src/cart/price-changes.ts), when the current prices were read. */
  changes?: ReadonlyMap<string, LineChange>;
  /** The shop could not be reached: the estimate is from the prices remembered when the lines were added. */
  unconfirmed?: boolean;
  /** Some line was added before the cart remembered prices: its changes are unknown, and that is said. */
  unknownPrices?: boolean;
  nick: string | undefined;
  notice?: string;
  /** Shown first, as a warning: the guild's license cannot be used right now. */
  warning?: string;
}

/**
 * The cart: its lines (numbered, as the line menu lists them), the estimate per payment method, the
 * nick checkout will use. A cart of MAX_LINES lines with the longest names stays within Discord's
 * 4000 characters: the lines give way (display.ts shortens the longest text), never the estimate.
 */
export function cartView(t: Messages, locale: Locale, owner: string, input: CartViewInput): View {
  if (input.lines.length === 0) return emptyCartView(t, owner, input);
  const multiServer = new Set(input.lines.map((line) => line.serverId)).size > 1;
  const lineTexts = input.lines.map((line, index) => {
    const where = multiServer ? ` (${plain(line.serverName)})` : '';
    return `${index + 1}. ${t.cart.line(line.quantity, plain(line.variantName), plain(line.productName))}${where}${changeMark(t, locale, input, line.variantId)}`;
  });

  const options: SelectOption[] = input.lines.map((line) => ({
    value: shortRef(line.variantId),
    label: t.cart.lineOption(line.quantity, line.variantName, line.productName),
  }));
  return screen({
    accent: ACCENT,
    title: t.cart.title,
    subtitle: t.cart.linesHeading(input.lines.length, MAX_LINES),
    warning: input.warning,
    info: input.notice,
    body: [
      text(lineTexts.join('\n')),
      separator(),
      ...estimateParts(t, locale, input.estimate),
      ...(input.unconfirmed ? [small(`⚠️ ${t.cart.pricesUnconfirmed}`)] : []),
      ...(input.unknownPrices ? [small(t.cart.pricesUnknown)] : []),
      ...(input.nick ? [small(t.cart.nickHint(plain(input.nick)))] : []),
    ],
    controls: [
      row(select(cartRoutes.chooseLine.build(owner, {}), t.cart.chooseLine, options)),
      row(
        button(checkoutRoutes.fromCart.build(owner, {}), t.cart.checkout, ButtonStyle.Success),
        button(checkoutRoutes.giftChoice.build(owner, {}), t.gift.button),
        button(checkoutRoutes.changeNick.build(owner, {}), t.cart.changeNick),
        button(cartRoutes.askClear.build(owner, {}), t.cart.clear, ButtonStyle.Danger),
        button(myLinksRoutes.list.build(owner, { page: 0 }), t.links.myLinks),
      ),
    ],
  });
}

/** What changed on a line since it was added: a price up or down, or that it is left out of the link. */
function changeMark(t: Messages, locale: Locale, input: CartViewInput, variantId: string): string {
  const change = input.changes?.get(variantId);
  if (change?.kind === 'not-buyable') return ` ⚠️ ${t.cart.notBuyableMark}`;
  if (input.gone.has(variantId)) return ` ⚠️ ${t.cart.goneMark}`;
  if (change?.kind === 'up' || change?.kind === 'down') {
    return ` ${change.kind === 'up' ? '🔺' : '🔻'} ${t.cart.priceChanged(formatPln(change.wasGrosze, locale), formatPln(change.nowGrosze, locale))}`;
  }
  return '';
}

/** The estimate per payment method every line offers, and that it is one. */
function estimateParts(t: Messages, locale: Locale, estimate: CartEstimate): Part[] {
  switch (estimate.kind) {
    case 'prices-unavailable':
      return [text(t.cart.pricesUnavailable)];
    case 'no-common-method':
      return [text(t.cart.noCommonMethod)];
    case 'totals': {
      const totals = estimate.totals.map((total) => `${plain(total.name)}: **${formatPln(total.totalGrosze, locale)}**`);
      return [text([`**${t.cart.estimateHeading}**`, ...totals].join('\n')), small(t.cart.estimateNote)];
    }
  }
}

export function lineEditorView(t: Messages, owner: string, line: CartLine, message?: string): View {
  const v = shortRef(line.variantId);
  return screen({
    accent: ACCENT,
    title: t.cart.editLine(plain(line.variantName), plain(line.productName)),
    subtitle: t.cart.title,
    warning: message,
    body: [text(`${t.quantity.quantity}: **${line.quantity}**`)],
    controls: [
      row(quantitySelect(t, cartRoutes.chooseLineQuantity.build(owner, { line: v }), line.quantity)),
      row(button(cartRoutes.removeLine.build(owner, { line: v }), t.cart.remove, ButtonStyle.Danger), button(cartRoutes.view.build(owner, {}), t.cart.backToCart)),
    ],
  });
}

export function clearConfirmView(t: Messages, owner: string, lines: number): View {
  return screen({
    accent: ACCENT,
    title: t.cart.title,
    body: [text(t.cart.clearConfirm(lines))],
    controls: [row(button(cartRoutes.confirmClear.build(owner, {}), t.cart.clearYes, ButtonStyle.Danger), button(cartRoutes.view.build(owner, {}), t.cart.cancel))],
  });
}
