import type { Category, Product, ProductVariants, Server, ServerOffer, Variant } from '../spaceis/schemas.js';
import { isSmsPrice } from '../spaceis/schemas.js';
import type { OfferCache } from '../spaceis/offer-cache.js';
import type { PricedVariant } from '../cart/pricing.js';
import type { CartLine } from '../cart/rules.js';
import { shortRef } from '../discord/custom-id.js';

/**
 * Reading the offer for one interaction. Served from the cache when fresh; the first read that
 * must reach the store calls `beforeStoreCall` (the handler defers the Discord interaction
 * there), so cached answers go out at once and slow ones are still acknowledged in time.
 */
export interface OfferReader {
  servers(): Promise<Server[]>;
  server(serverId: string): Promise<ServerOffer>;
  variants(serverId: string, categoryId: string, productId: string): Promise<ProductVariants>;
}

export function offerReader(
  offers: OfferCache,
  beforeStoreCall: () => Promise<void>,
  options: { hiddenServerIds?: readonly string[] } = {},
): OfferReader {
  const read = async <T>(cached: T | undefined, fetch: () => Promise<T>): Promise<T> => {
    if (cached !== undefined) return cached;
    await beforeStoreCall();
    return fetch();
  };
  // Servers the guild's admins chose not to offer are invisible everywhere the shop is browsed.
  const hidden = new Set(options.hiddenServerIds ?? []);
  const visible = (servers: Server[]): Server[] => (hidden.size === 0 ? servers : servers.filter((server) => !hidden.has(server.id)));
  return {
    servers: () => read(offers.peekServers(), () => offers.servers()).then(visible),
    server: (serverId) => read(offers.peekServer(serverId), () => offers.server(serverId)),
    variants: (serverId, categoryId, productId) =>
      read(offers.peekVariants(serverId, categoryId, productId), () => offers.variants(serverId, categoryId, productId)),
  };
}

/** Finds an offer entry by the short reference a component carries. */
export function byRef<T extends { id: string }>(items: readonly T[], ref: string | undefined): T | undefined {
  return ref === undefined ? undefined : items.find((item) => shortRef(item.id) === ref);
}

/** What a buyer may type in `/shop server:`: the id, the slug, or the name (case-insensitive). */
export function matchServer(servers: readonly Server[], input: string): Server | undefined {
  const wanted = input.trim().toLowerCase();
  return (
    servers.find((server) => server.id === input.trim()) ??
    servers.find((server) => server.slug?.toLowerCase() === wanted) ??
    servers.find((server) => server.name.toLowerCase() === wanted)
  );
}

export interface OfferPath {
  server: Server;
  category: Category;
  product: Product;
}

/**
 * The store's variant, in the shape the price rules read. Variants come from the offer cache and
 * are never changed, so each one is converted once (a 300-variant range is read on every click).
 */
export function pricedVariant(variant: Variant): PricedVariant {
  let priced = pricedVariants.get(variant);
  if (!priced) {
    priced = {
      id: variant.id,
      prices: variant.prices.map((price) => ({
        method: price.method,
        name: price.name ?? price.method,
        amountGrosze: price.amountGrosze,
        sms: isSmsPrice(price),
      })),
    };
    pricedVariants.set(variant, priced);
  }
  return priced;
}
const pricedVariants = new WeakMap<Variant, PricedVariant>();

/** A cart line (without its quantity) for a variant, with the names the buyer and moderators will read. */
export function cartItemFrom(path: OfferPath, variant: Variant): Omit<CartLine, 'quantity'> {
  return {
    variantId: variant.id,
    serverId: path.server.id,
    categoryId: path.category.id,
    productId: path.product.id,
    serverName: path.server.name,
    productName: path.product.name,
    variantName: variant.name,
  };
}
