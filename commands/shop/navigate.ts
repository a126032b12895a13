import type { ShopContext } from '../../src/discord/preconditions.js';
import { LIMITS } from '../../src/discord/text.js';
import { textView } from '../../src/discord/views/display.js';
import { locate, offerReader, variantPageOf, type Located, type OfferReader } from '../../src/services/catalog.js';
import type { SearchTarget } from '../../src/services/search.js';
import type { ShopAccess } from '../../src/services/store-directory.js';
import type { Category, Product, Server, Variant } from '../../src/spaceis/schemas.js';
import { lowestOf } from './search-views.js';
import { counted } from './counted.js';
import { categoryListView, productListView, serverListView, variantListView } from './views.js';

/** The offer as this member may see it (hidden servers left out), deferring only when the store must be asked. */
export function readerFor(ctx: ShopContext): OfferReader {
  return offerReader(ctx.shop.offers, () => ctx.respond.defer(), { hiddenServerIds: ctx.settings.hiddenServerIds, lane: ctx.guildId });
}

/**
 * The deepest menu that still exists on the way to what the member asked for. Used when a
 * component points at something the shop no longer sells: the member gets a notice and the
 * current offer instead of an error.
 */
export async function showNearest(ctx: ShopContext, reader: OfferReader, located: Located, notice?: string): Promise<void> {
  const { t, userId } = ctx;
  if (!located.server) {
    if (located.servers.length === 0) return ctx.respond.show(textView(t.shop.noServers));
    return ctx.respond.show(serverListView(t, userId, located.servers, 0, notice));
  }
  const offer = located.offer ?? (await reader.server(located.server.id));
  if (!located.category) {
    return ctx.respond.show(
      categoryListView(t, userId, located.server, offer.categories, 0, { canGoBack: located.servers.length > 1, ...(notice ? { notice } : {}) }),
    );
  }
  if (!located.product || !located.variants) {
    return showProductList(ctx, located.server, located.category, 0, notice);
  }
  const page = variantPageOf(located.variants, located.variant, LIMITS.selectOptions);
  return ctx.respond.show(
    variantListView(t, ctx.locale, userId, { server: located.server, category: located.category, product: located.product }, located.variants, page, notice),
  );
}

/** A server's categories, or the nearest menu when the server is gone. */
export async function showCategories(ctx: ShopContext, reader: OfferReader, located: Located, page: number): Promise<void> {
  if (!located.server) return showNearest(ctx, reader, located, ctx.t.shop.itemGone);
  const offer = located.offer ?? (await reader.server(located.server.id));
  counted(ctx, 'open', { server: located.server.id });
  return ctx.respond.show(categoryListView(ctx.t, ctx.userId, located.server, offer.categories, page, { canGoBack: located.servers.length > 1 }));
}

/** A product's variant menu, or the nearest menu when the product is gone. */
export async function showVariants(ctx: ShopContext, refs: { server: string; category: string; product: string }, page: number): Promise<void> {
  const reader = readerFor(ctx);
  const located = await locate(reader, refs);
  if (!located.server || !located.category || !located.product || !located.variants) {
    return showNearest(ctx, reader, located, ctx.t.shop.itemGone);
  }
  const path = { server: located.server, category: located.category, product: located.product };
  counted(ctx, 'view', { server: located.server.id, product: located.product.id });
  return ctx.respond.show(variantListView(ctx.t, ctx.locale, ctx.userId, path, located.variants, page));
}

/** A category's products, each with its "from" price when the cache already holds its variants. */
export function showProductList(ctx: ShopContext, server: Server, category: Category, page: number, notice?: string): Promise<void> {
  const variantsOf = cachedVariants(ctx.shop);
  const lowest = (product: Product): number | undefined => lowestOf({ server, category, product }, variantsOf);
  return ctx.respond.show(productListView(ctx.t, ctx.locale, ctx.userId, server, category, page, { lowest, notice }));
}

/** A product's variants if the cache holds them (for its "from" price); never a store request. */
export function cachedVariants(shop: ShopAccess): (target: SearchTarget) => readonly Variant[] | undefined {
  return (target) => shop.offers.peekVariants(target.server.id, target.category.id, target.product.id)?.variants;
}
