import type { PricedVariant } from '../cart/pricing.js';
import type { CartLine } from '../cart/rules.js';
import type { Logger } from '../logger.js';
import { isStoreError } from '../spaceis/errors.js';
import { pricedVariant } from './catalog.js';
import type { ShopAccess } from './store-directory.js';

/**
 * The current prices of a cart's variants, for "what changed since it went into the cart": read as
 * the store gave them within the last PRICE_AGE_MS. The offer cache serves a younger copy, and reads
 * each product concerned at most once per PRICE_AGE_MS and license however many members look (its
 * shared copy spans the processes on Redis): at most one store request per product a minute.
 */
export const PRICE_AGE_MS = 60_000;

export type CurrentPrices =
  | { kind: 'read'; variants: Map<string, PricedVariant> }
  /** The store could not be reached: the cart's remembered prices stand, unconfirmed. */
  | { kind: 'unreachable' };

export async function currentPrices(
  shop: ShopAccess,
  lines: readonly CartLine[],
  options: { lane: string; beforeStoreCall: () => Promise<void>; log: Logger },
): Promise<CurrentPrices> {
  const products = new Map<string, CartLine>();
  for (const line of lines) products.set(JSON.stringify([line.serverId, line.categoryId, line.productId]), line);
  const variants = new Map<string, PricedVariant>();
  try {
    const lists = await Promise.all(
      [...products.values()].map(async (line) => {
        const cached = shop.offers.peekVariants(line.serverId, line.categoryId, line.productId, PRICE_AGE_MS);
        if (cached) return cached.variants;
        await options.beforeStoreCall();
        try {
          return (await shop.offers.variants(line.serverId, line.categoryId, line.productId, options.lane, PRICE_AGE_MS)).variants;
        } catch (error) {
          // The product itself is gone from the shop: its lines are, not the whole reading.
          if (isStoreError(error) && error.kind === 'http' && error.status === 404) return [];
          throw error;
        }
      }),
    );
    for (const variant of lists.flat()) variants.set(variant.id, pricedVariant(variant));
  } catch (error) {
    // Prices only inform the member: the cart is still shown, and checked out, with the last known ones.
    options.log.warn({ err: error }, 'could not read the cart’s current prices');
    return { kind: 'unreachable' };
  }
  return { kind: 'read', variants };
}
