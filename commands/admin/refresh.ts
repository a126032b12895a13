import type { ShopContext } from '../../src/discord/preconditions.js';
import { textView } from '../../src/discord/views/display.js';

/** /shop-admin refresh: drops the cached offer and reads all of it again, to report what the store now shows. */
export async function refreshOffer(ctx: ShopContext): Promise<void> {
  await ctx.respond.defer();
  const counts = await ctx.shop.offers.reload();
  ctx.log.info(counts, 'offer refreshed');
  await ctx.respond.show(textView(ctx.t.admin.refreshed(counts.servers, counts.categories, counts.products, counts.variants)));
}
