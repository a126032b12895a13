import { ButtonStyle, type APIEmbedField } from 'discord.js';
import type { CartEstimate } from '../../cart/pricing.js';
import { MAX_LINES, type CartLine } from '../../cart/rules.js';
import { formatPln, type Locale, type Messages } from '../../i18n/index.js';
import { encodeCustomId, shortRef } from '../custom-id.js';
import type { View } from '../respond.js';
import { clip, LIMITS, noticeLine, plain } from '../text.js';
import { button, row, select, type SelectOption } from './components.js';
import { quantityOptions } from './shop.js';

/** The cart's screens: the cart itself, one line's editor, and the "clear everything?" question. */

export const CART_SCOPE = 'cart';
const EMBED_COLOR = 0x1c7ed6;

export const cartIds = {
  view: (owner: string) => encodeCustomId(CART_SCOPE, 'view', owner),
  line: (owner: string) => encodeCustomId(CART_SCOPE, 'line', owner),
  lineQuantity: (owner: string, v: string) => encodeCustomId(CART_SCOPE, 'lqty', owner, v),
  lineQuantityModal: (owner: string, v: string) => encodeCustomId(CART_SCOPE, 'lqtym', owner, v),
  remove: (owner: string, v: string) => encodeCustomId(CART_SCOPE, 'rm', owner, v),
  clear: (owner: string) => encodeCustomId(CART_SCOPE, 'clr', owner),
  clearConfirmed: (owner: string) => encodeCustomId(CART_SCOPE, 'clry', owner),
  checkout: (owner: string) => encodeCustomId(CART_SCOPE, 'co', owner),
  changeNick: (owner: string) => encodeCustomId(CART_SCOPE, 'nick', owner),
  openShop: (owner: string) => encodeCustomId(CART_SCOPE, 'shop', owner),
  /** The buyer's own payment links (commands/links.ts draws them). */
  myLinks: (owner: string, page = 0) => encodeCustomId(CART_SCOPE, 'links', owner, page),
  resendLink: (owner: string, page: number) => encodeCustomId(CART_SCOPE, 'resend', owner, page),
};

export function emptyCartView(t: Messages, owner: string, message?: string): View {
  return {
    content: noticeLine(message, 'info'),
    embeds: [{ title: t.cart.title, description: t.cart.empty, color: EMBED_COLOR }],
    components: [row(button(cartIds.openShop(owner), t.cart.openShop, ButtonStyle.Primary), button(cartIds.myLinks(owner), t.links.myLinks))],
  };
}

export interface CartViewInput {
  lines: CartLine[];
  estimate: CartEstimate;
  /** Variant ids the shop no longer offers: flagged so the buyer removes them before checkout. */
  gone: ReadonlySet<string>;
  nick: string | undefined;
  notice?: string;
}

export function cartView(t: Messages, locale: Locale, owner: string, input: CartViewInput): View {
  if (input.lines.length === 0) return emptyCartView(t, owner, input.notice);
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
    content: noticeLine(input.notice, 'info'),
    embeds: [{ title: t.cart.title, color: EMBED_COLOR, fields }],
    components: [
      row(select(cartIds.line(owner), t.cart.chooseLine, options)),
      row(
        button(cartIds.checkout(owner), t.cart.checkout, ButtonStyle.Success),
        button(cartIds.changeNick(owner), t.cart.changeNick),
        button(cartIds.clear(owner), t.cart.clear, ButtonStyle.Danger),
        button(cartIds.myLinks(owner), t.links.myLinks),
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
  const quantities = quantityOptions(t, line.quantity);
  return {
    content: noticeLine(message),
    embeds: [
      {
        title: clip(t.cart.editLine(line.variantName, line.productName), LIMITS.embedTitle),
        color: EMBED_COLOR,
        fields: [{ name: t.quantity.quantity, value: String(line.quantity), inline: true }],
      },
    ],
    components: [
      row(select(cartIds.lineQuantity(owner, v), t.quantity.placeholder, quantities)),
      row(button(cartIds.remove(owner, v), t.cart.remove, ButtonStyle.Danger), button(cartIds.view(owner), t.cart.backToCart)),
    ],
  };
}

export function clearConfirmView(t: Messages, owner: string, lines: number): View {
  return {
    content: '',
    embeds: [{ title: t.cart.title, description: t.cart.clearConfirm(lines), color: EMBED_COLOR }],
    components: [
      row(button(cartIds.clearConfirmed(owner), t.cart.clearYes, ButtonStyle.Danger), button(cartIds.view(owner), t.cart.cancel)),
    ],
  };
}
