import type { HandlerContext } from '../../src/discord/context.js';
import { readOfferForSearch } from '../../src/services/offer-search.js';
import type { ShopAccess } from '../../src/services/store-directory.js';

/**
 * The shop the guild sells from after an admin changed it (a license set, cleared or rotated, the
 * demo on or off), with its server list and offers read into the cache while the admin waits for
 * the answer: autocomplete cannot wait for the store, so a member's first `/shop item:` keystroke
 * after the change must find them there. The caller has deferred its answer. A failed
 * read leaves the cache as it was; the next keystroke asks the store again.
 */
export async function readOfferAfterChange(ctx: HandlerContext): Promise<ShopAccess | undefined> {
  const shop = await ctx.services.stores.forGuild(ctx.guildId);
  if (!shop) return undefined;
  const started = performance.now();
  const servers = await readOfferForSearch(shop.offers);
  ctx.log.debug({ fingerprint: shop.fingerprint, servers, ms: Math.round(performance.now() - started) }, 'offer read for search');
  return shop;
}
