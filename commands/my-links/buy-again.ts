import type { ShopContext } from '../../src/discord/preconditions.js';
import { offerReader } from '../../src/services/catalog.js';
import { putBackInCart } from '../../src/services/reorder.js';
import { showMyLinks } from './list.js';
import { counted } from '../shop/counted.js';
import { buyAgainView } from './views.js';

/**
 * "Buy again" under a link in My payment links: the link's items go back into the member's cart
 * (src/services/reorder.ts), and the member is told item by item what was added and what was not.
 */
export async function buyAgain(ctx: ShopContext, id: string, page: number): Promise<void> {
  const { t, services, guildId, userId, shop, settings } = ctx;
  const link = await services.links.memberLink(guildId, userId, id);
  if (!link) return showMyLinks(ctx, page, t.buyAgain.notYours(id));

  const reader = offerReader(shop.offers, () => ctx.respond.defer(), { hiddenServerIds: settings.hiddenServerIds, lane: guildId });
  const policy = { license: shop.license, multiServer: settings.multiServerCart };
  const lines = await putBackInCart(services.carts, reader, ctx, policy, link);

  const added = lines.filter((line) => line.outcome.kind === 'added').length;
  if (added > 0) counted(ctx, 'cart');
  ctx.log.info({ link: id, added, skipped: lines.length - added }, 'link items put back into the cart');
  return ctx.respond.show(buyAgainView(t, { owner: userId, linkId: id, page, lines }));
}
