import { estimateCart, type PricedVariant } from '../../src/cart/pricing.js';
import type { CartLine } from '../../src/cart/rules.js';
import type { HandlerContext } from '../../src/discord/context.js';
import { offerReader, pricedVariant } from '../../src/services/catalog.js';
import type { StoredCart } from '../../src/storage/carts.js';
import { cartView } from './views.js';

/** Draws the cart, with prices read through the offer cache (deferring only if the store must be asked). */
export async function showCart(ctx: HandlerContext, notice?: string): Promise<void> {
  const { t, userId, services } = ctx;
  const stored = await takeNotice(ctx);
  const message = notice ?? (stored.notice === 'license-changed' ? t.cart.licenseChanged : undefined);
  // The cart stays readable when the guild's license cannot be used; the member learns why checkout will not work.
  const warning = ctx.licenseProblem ? t.shop.misconfigured : undefined;
  const { variants, gone } = await priceLines(ctx, stored.lines);
  const nick = stored.lines.length > 0 ? await services.nicks.get(userId) : undefined;
  await ctx.respond.show(
    cartView(t, ctx.locale, userId, {
      lines: stored.lines,
      estimate: estimateCart(stored.lines, variants),
      gone,
      nick,
      ...(message ? { notice: message } : {}),
      ...(warning ? { warning } : {}),
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
