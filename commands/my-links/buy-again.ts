import { isPurchasable } from '../../src/cart/pricing.js';
import { addItem, type Cart } from '../../src/cart/rules.js';
import type { ShopContext } from '../../src/discord/preconditions.js';
import { cartItemFrom, offerReader } from '../../src/services/catalog.js';
import { sameLicense } from '../../src/security/license-id.js';
import { findLinkItems } from '../../src/services/reorder.js';
import { asCart } from '../../src/storage/carts.js';
import { showMyLinks } from './list.js';
import { buyAgainView, type ReorderLine } from './views.js';

/**
 * "Buy again" under a link in My payment links: the link's items go back into the member's cart
 * with the same quantities, each checked against today's offer and the cart rules, under the
 * member's cart lock and the same license check as Add to cart. It never asks for a payment link:
 * that waits for the member's own Checkout.
 */
export async function buyAgain(ctx: ShopContext, id: string, page: number): Promise<void> {
  const { t, services, guildId, userId, shop, settings } = ctx;
  const link = await services.paymentLinks.get(guildId, id);
  if (!link || link.userId !== userId) return showMyLinks(ctx, page, t.buyAgain.notYours(id));

  // Items of a link issued from another license belong to another shop: none of them is on offer here.
  const reader = offerReader(shop.offers, () => ctx.respond.defer(), { hiddenServerIds: settings.hiddenServerIds, lane: ctx.guildId });
  // Records from before full license ids hold the short fingerprint: sameLicense reads both.
  const found = sameLicense(link.license, shop.license) ? await findLinkItems(reader, link.items) : link.items.map(() => undefined);
  const policy = { license: shop.license, multiServer: settings.multiServerCart };

  const lines = await services.carts.updateFor<ReorderLine[]>(shop.license, guildId, userId, (stored) => {
    let cart: Cart = asCart(stored);
    const result = link.items.map((item, index): ReorderLine => {
      const match = found[index];
      if (!match) return { item, outcome: { kind: 'gone' } };
      if (!isPurchasable(match.variant.priced)) return { item, outcome: { kind: 'unavailable' } };
      const change = addItem(cart, cartItemFrom(match.path, match.variant.variant), item.quantity, policy);
      if (!change.ok) return { item, outcome: { kind: 'refused', violation: change.violation } };
      cart = change.cart;
      return { item, outcome: { kind: 'added', lineQuantity: change.line.quantity, capped: change.capped } };
    });
    const added = result.some((line) => line.outcome.kind === 'added');
    return added ? { cart: { ...stored, ...cart }, result } : { result };
  });

  const count = (kind: ReorderLine['outcome']['kind']) => lines.filter((line) => line.outcome.kind === kind).length;
  ctx.log.info({ link: id, added: count('added'), skipped: lines.length - count('added') }, 'link items put back into the cart');
  return ctx.respond.show(buyAgainView(t, { owner: userId, linkId: id, page, lines }));
}

