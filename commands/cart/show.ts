import { compareWithOffer, rememberedPrices } from '../../src/cart/price-changes.js';
import { estimateCart } from '../../src/cart/pricing.js';
import type { CartLine } from '../../src/cart/rules.js';
import type { HandlerContext } from '../../src/discord/context.js';
import { currentPrices } from '../../src/services/cart-prices.js';
import { cartView, type CartViewInput } from './views.js';

/**
 * Draws the cart, with what changed since each line was added: prices read within the last minute
 * through the offer cache (deferring only if the store must be asked), compared with the ones the
 * cart remembered. The shop unreachable: the remembered prices, marked unconfirmed.
 */
export async function showCart(ctx: HandlerContext, notice?: string): Promise<void> {
  const { t, userId } = ctx;
  // With the guild's license the cart is read as it stands under it (a cart of another license is emptied, with a notice).
  const cart = await ctx.services.carts.read(ctx, ctx.shop?.license);
  const message = notice ?? (cart.notice === 'license-changed' ? t.cart.licenseChanged : undefined);
  // The cart stays readable when the guild's license cannot be used; the member learns why checkout will not work.
  const warning = ctx.licenseProblem ? t.shop.misconfigured : undefined;
  await ctx.respond.show(
    cartView(t, ctx.locale, userId, {
      ...(await pricedCart(ctx, cart.lines)),
      lines: cart.lines,
      nick: cart.nick,
      ...(message ? { notice: message } : {}),
      ...(warning ? { warning } : {}),
    }),
  );
}

type Priced = Pick<CartViewInput, 'estimate' | 'gone' | 'changes' | 'unconfirmed' | 'unknownPrices'>;

async function pricedCart(ctx: HandlerContext, lines: CartLine[]): Promise<Priced> {
  if (!ctx.shop || lines.length === 0) return { estimate: estimateCart(lines, new Map()), gone: new Set() };
  const prices = await currentPrices(ctx.shop, lines, { lane: ctx.guildId, beforeStoreCall: () => ctx.respond.defer(), log: ctx.log });
  if (prices.kind === 'unreachable') {
    return { estimate: estimateCart(lines, rememberedPrices(lines)), gone: new Set(), unconfirmed: true };
  }
  const changes = compareWithOffer(lines, prices.variants);
  const kept = lines.filter((line) => !changes.leftOut.has(line.variantId));
  return {
    estimate: estimateCart(kept, prices.variants),
    gone: changes.leftOut,
    changes: changes.lines,
    unknownPrices: [...changes.lines.values()].some((change) => change.kind === 'unknown'),
  };
}
