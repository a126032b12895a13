import { estimateCart, type PricedVariant } from '../../src/cart/pricing.js';
import type { CartLine } from '../../src/cart/rules.js';
import type { HandlerContext } from '../../src/discord/context.js';
import { offerReader, pricedVariant } from '../../src/services/catalog.js';
import { cartView } from './views.js';

/** Draws the cart, with prices read through the offer cache (deferring only if the store must be asked). */
export async function showCart(ctx: HandlerContext, notice?: string): Promise<void> {
  const { t, userId } = ctx;
  // With the guild's license the cart is read as it stands under it (a cart of another license is emptied, with a notice).
  const cart = await ctx.services.carts.read(ctx, ctx.shop?.license);
  const message = notice ?? (cart.notice === 'license-changed' ? t.cart.licenseChanged : undefined);
  // The cart stays readable when the guild's license cannot be used; the member learns why checkout will not work.
  const warning = ctx.licenseProblem ? t.shop.misconfigured : undefined;
  const { variants, gone } = await priceLines(ctx, cart.lines);
  await ctx.respond.show(
    cartView(t, ctx.locale, userId, {
      lines: cart.lines,
      estimate: estimateCart(cart.lines, variants),
      gone,
      nick: cart.nick,
      ...(message ? { notice: message } : {}),
      ...(warning ? { warning } : {}),
    }),
  );
}

/** Current prices of the cart's variants, and the lines whose variant the shop no longer offers. */
async function priceLines(ctx: HandlerContext, lines: CartLine[]): Promise<{ variants: Map<string, PricedVariant>; gone: Set<string> }> {
  const variants = new Map<string, PricedVariant>();
  const gone = new Set<string>();
  if (!ctx.shop || lines.length === 0) return { variants, gone };
  const reader = offerReader(ctx.shop.offers, () => ctx.respond.defer(), { lane: ctx.guildId });
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
