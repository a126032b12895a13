import type { Category, Product, ProductVariants, Server, ServerOffer, Variant } from '../spaceis/schemas.js';
import { isSmsPrice } from '../spaceis/schemas.js';
import type { OfferCache } from '../spaceis/offer-cache.js';
import type { PricedVariant } from '../cart/pricing.js';
import type { CartLine } from '../cart/rules.js';
import { shortRef } from './short-ref.js';

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
  /** `lane`: the guild reading, so its cold reads queue in its own lane at the license's gate. */
  options: { hiddenServerIds?: readonly string[]; lane?: string } = {},
): OfferReader {
  const { lane } = options;
  const read = async <T>(cached: T | undefined, fetch: () => Promise<T>): Promise<T> => {
    if (cached !== undefined) return cached;
    await beforeStoreCall();
    return fetch();
  };
  // Servers the guild's admins chose not to offer are invisible everywhere the shop is browsed.
  const hidden = new Set(options.hiddenServerIds ?? []);
  const visible = (servers: Server[]): Server[] => (hidden.size === 0 ? servers : servers.filter((server) => !hidden.has(server.id)));
  return {
    servers: () => read(offers.peekServers(), () => offers.servers(lane)).then(visible),
    server: (serverId) => read(offers.peekServer(serverId), () => offers.server(serverId, lane)),
    variants: (serverId, categoryId, productId) =>
      read(offers.peekVariants(serverId, categoryId, productId), () => offers.variants(serverId, categoryId, productId, lane)),
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
    addedPrices: pricedVariant(variant).prices,
  };
}

/** A variant as menus list it: the store's record and its prices in the rules' shape. */
export interface VariantChoice {
  variant: Variant;
  priced: PricedVariant;
}

/** Where a component points in the offer, resolved as deep as the offer still goes. */
export interface Located {
  servers: Server[];
  server?: Server;
  offer?: ServerOffer;
  category?: Category;
  product?: Product;
  variants?: VariantChoice[];
  variant?: VariantChoice;
}

/** Short references (as components carry them) from the server down to a variant; each level is optional. */
export interface OfferRefs {
  server?: string | undefined;
  category?: string | undefined;
  product?: string | undefined;
  variant?: string | undefined;
}

/** Follows short references down the offer, stopping where the offer no longer has what they name. */
export async function locate(reader: OfferReader, refs: OfferRefs): Promise<Located> {
  const located: Located = { servers: await reader.servers() };
  located.server = byRef(located.servers, refs.server);
  if (!located.server || refs.category === undefined) return located;
  located.offer = await reader.server(located.server.id);
  located.category = byRef(located.offer.categories, refs.category);
  if (!located.category || refs.product === undefined) return located;
  located.product = byRef(located.category.products, refs.product);
  if (!located.product) return located;
  const { variants } = await reader.variants(located.server.id, located.category.id, located.product.id);
  const index = variantIndex(variants);
  located.variants = index.choices;
  located.variant = refs.variant === undefined ? undefined : index.byRef.get(refs.variant);
  return located;
}

/** The page of a variant menu that shows `variant` (the first page when it is not listed). */
export function variantPageOf(variants: VariantChoice[], variant: VariantChoice | undefined, pageSize: number): number {
  const index = variant ? variants.indexOf(variant) : -1;
  return index < 0 ? 0 : Math.floor(index / pageSize);
}

/**
 * A product's variants as menu choices, and by the short reference components carry. Built once per
 * variant list the offer cache hands out (a list is never changed), not on every click: a range
 * product has hundreds of variants, and choosing one, its quantity and adding it each look it up.
 */
interface VariantIndex {
  choices: VariantChoice[];
  byRef: Map<string, VariantChoice>;
}
const variantIndexes = new WeakMap<readonly Variant[], VariantIndex>();
function variantIndex(variants: readonly Variant[]): VariantIndex {
  let index = variantIndexes.get(variants);
  if (!index) {
    const choices = variants.map((variant) => ({ variant, priced: pricedVariant(variant) }));
    const byRef = new Map<string, VariantChoice>();
    for (const choice of choices) {
      const ref = shortRef(choice.variant.id);
      if (!byRef.has(ref)) byRef.set(ref, choice);
    }
    index = { choices, byRef };
    variantIndexes.set(variants, index);
  }
  return index;
}
