import { InteractionContextType, type ChatInputCommandInteraction } from 'discord.js';
import { estimateCart, type PricedVariant } from '../src/cart/pricing.js';
import { MAX_QUANTITY, parseQuantity, removeLine, setQuantity, type CartLine } from '../src/cart/rules.js';
import type { CommandModule, ComponentInteraction, HandlerContext } from '../src/discord/context.js';
import { intArg, shortRef, type ComponentRoute } from '../src/discord/custom-id.js';
import { localized } from '../src/discord/localize.js';
import { clip } from '../src/discord/text.js';
import { CART_SCOPE, cartIds, cartView, clearConfirmView, lineEditorView } from '../src/discord/views/cart.js';
import { OTHER_QUANTITY, QUANTITY_INPUT, quantityModal } from '../src/discord/views/shop.js';
import { offerReader, pricedVariant } from '../src/services/catalog.js';
import { asCart, type StoredCart } from '../src/storage/carts.js';
import { startCheckout } from './checkout.js';
import { resendMyLink, showMyLinks } from './links.js';
import { openShop } from './shop.js';

/** /cart: what the member has picked, indicative totals, and the ways to change it or check out. */

export const cartCommand: CommandModule = {
  name: 'cart',

  definition: () => ({ ...localized('cart'), contexts: [InteractionContextType.Guild] }),

  async execute(_interaction: ChatInputCommandInteraction, ctx: HandlerContext) {
    await showCart(ctx);
  },

  components: {
    [CART_SCOPE]: handleCartComponent,
  },
};

/** Draws the cart, with prices read through the offer cache (deferring only if the store must be asked). */
export async function showCart(ctx: HandlerContext, notice?: string): Promise<void> {
  const { t, userId, services } = ctx;
  const stored = await takeNotice(ctx);
  const message = notice ?? (stored.notice === 'license-changed' ? t.cart.licenseChanged : undefined);
  const { variants, gone } = await priceLines(ctx, stored.lines);
  const nick = stored.lines.length > 0 ? await services.nicks.get(userId) : undefined;
  await ctx.respond.show(
    cartView(t, ctx.locale, userId, {
      lines: stored.lines,
      estimate: estimateCart(stored.lines, variants),
      gone,
      nick,
      ...(message ? { notice: message } : {}),
    }),
  );
}

/** Reads the cart and clears a pending notice in the same step, so it is shown exactly once. */
async function takeNotice(ctx: HandlerContext): Promise<StoredCart> {
  const takeIt = (cart: StoredCart) =>
    cart.notice ? { cart: { license: cart.license, lines: cart.lines }, result: cart } : { result: cart };
  return ctx.shop
    ? ctx.services.carts.updateFor(ctx.shop.license, ctx.guildId, ctx.userId, takeIt)
    : ctx.services.carts.update(ctx.guildId, ctx.userId, takeIt);
}

/** Current prices of the cart's variants, and the lines whose variant the shop no longer offers. */
async function priceLines(ctx: HandlerContext, lines: CartLine[]): Promise<{ variants: Map<string, PricedVariant>; gone: Set<string> }> {
  const variants = new Map<string, PricedVariant>();
  const gone = new Set<string>();
  if (!ctx.shop || lines.length === 0) return { variants, gone };
  const reader = offerReader(ctx.shop.offers, () => ctx.respond.defer());
  const products = new Map<string, CartLine>();
  for (const line of lines) products.set(`${line.serverId}\u0000${line.categoryId}\u0000${line.productId}`, line);
  try {
    const lists = await Promise.all(
      [...products.values()].map((line) => reader.variants(line.serverId, line.categoryId, line.productId).then((list) => list.variants)),
    );
    for (const variant of lists.flat()) variants.set(variant.id, pricedVariant(variant));
  } catch (error) {
    // Prices are only an estimate: the cart is still shown (and can be checked out) without them.
    ctx.log.warn({ err: error }, 'could not price the cart');
    return { variants: new Map(), gone };
  }
  for (const line of lines) if (!variants.has(line.variantId)) gone.add(line.variantId);
  return { variants, gone };
}

function lineByRef(lines: CartLine[], ref: string | undefined): CartLine | undefined {
  return ref === undefined ? undefined : lines.find((line) => shortRef(line.variantId) === ref);
}

async function handleCartComponent(interaction: ComponentInteraction, route: ComponentRoute, ctx: HandlerContext): Promise<void> {
  const { t, guildId, userId, services } = ctx;
  const [ref] = route.args;
  switch (route.action) {
    case 'view':
      return showCart(ctx);
    case 'shop':
      return openShop(ctx);
    case 'co':
      return startCheckout(ctx, {});
    case 'nick':
      return startCheckout(ctx, { askNick: true });
    case 'links':
      return showMyLinks(ctx, intArg(ref) ?? 0);
    case 'resend':
      return resendMyLink(interaction, ctx, intArg(ref) ?? 0);
    case 'clr': {
      const cart = await services.carts.get(guildId, userId);
      if (cart.lines.length === 0) return showCart(ctx);
      return ctx.respond.show(clearConfirmView(t, userId, cart.lines.length));
    }
    case 'clry':
      await services.carts.update(guildId, userId, (cart) => ({ cart: { license: cart.license, lines: [] }, result: undefined }));
      ctx.log.info('cart cleared');
      return showCart(ctx, t.cart.cleared);
    case 'line': {
      const value = interaction.isStringSelectMenu() ? interaction.values[0] : undefined;
      const line = lineByRef((await services.carts.get(guildId, userId)).lines, value);
      if (!line) return showCart(ctx, t.cart.lineGone);
      return ctx.respond.show(lineEditorView(t, userId, line));
    }
    case 'rm': {
      const removed = await services.carts.update(guildId, userId, (cart) => {
        const line = lineByRef(cart.lines, ref);
        return line ? { cart: { ...cart, ...removeLine(asCart(cart), line.variantId) }, result: true } : { result: false };
      });
      return showCart(ctx, removed ? undefined : t.cart.lineGone);
    }
    case 'lqty': {
      const value = interaction.isStringSelectMenu() ? interaction.values[0] : undefined;
      if (value === OTHER_QUANTITY && ref) {
        return ctx.respond.showModal(quantityModal(t, cartIds.lineQuantityModal(userId, ref)));
      }
      return changeQuantity(ctx, ref, intArg(value, MAX_QUANTITY) ?? 0, value ?? '');
    }
    case 'lqtym': {
      const typed = interaction.isModalSubmit() ? interaction.fields.getTextInputValue(QUANTITY_INPUT).trim() : '';
      return changeQuantity(ctx, ref, parseQuantity(typed), typed);
    }
    default:
      return ctx.respond.notice(t.common.expired);
  }
}

async function changeQuantity(ctx: HandlerContext, ref: string | undefined, quantity: number, typed: string): Promise<void> {
  const { t, guildId, userId, services } = ctx;
  type Outcome = { kind: 'gone' } | { kind: 'refused'; line: CartLine } | { kind: 'changed' };
  const outcome = await services.carts.update<Outcome>(guildId, userId, (cart) => {
    const line = lineByRef(cart.lines, ref);
    if (!line) return { result: { kind: 'gone' } };
    const change = setQuantity(asCart(cart), line.variantId, quantity);
    if (!change.ok) return { result: { kind: 'refused', line } };
    return { cart: { ...cart, ...change.cart }, result: { kind: 'changed' } };
  });
  if (outcome.kind === 'gone') return showCart(ctx, t.cart.lineGone);
  if (outcome.kind === 'refused') return ctx.respond.show(lineEditorView(t, userId, outcome.line, t.quantity.invalid(clip(typed, 20))));
  return showCart(ctx);
}
