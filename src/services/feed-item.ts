import type { Logger } from '../logger.js';
import { PAYMENT_WATCH_LANE } from '../spaceis/gate-rules.js';
import { shortRef } from './short-ref.js';
import type { ShopAccess } from './store-directory.js';

/** Where a purchase's variant is in today's offer, as the Buy button carries it (short references). */
export interface FeedItem {
  server: string;
  category: string;
  product: string;
  variant: string;
}

export interface FeedPurchase {
  transactionId: string;
  productName: string;
  variantName: string;
  /** undefined when the guild hides nicks (or the store listed none): "a player". */
  nick: string | undefined;
  madeAt: number;
  /** Absent when the names were not found in the offer: no Buy button then. */
  item?: FeedItem;
  /** The product's image as the store gives it; the post shows it only when Discord can (picture() in the view). */
  imageUrl?: string;
  /** It paid a gift link: said as "a gift", the giver never named. */
  gift?: boolean;
}

/**
 * latest_buyers names a purchase's product and variant, never their ids: they are looked up by
 * name in the server's offer (the offer cache). The Buy button goes only to the one variant the
 * names fit: none found (renamed, removed), or the names shared by two products or variants (the
 * purchase may have been either), and the post goes out without it; the thumbnail needs the
 * product to be the only one of its name.
 */
export async function findFeedItem(shop: ShopAccess, serverId: string, productName: string, variantName: string, logger: Logger): Promise<Pick<FeedPurchase, 'item' | 'imageUrl'>> {
  try {
    const offer = shop.offers.peekServer(serverId) ?? (await shop.offers.server(serverId, PAYMENT_WATCH_LANE));
    const products = offer.categories.flatMap((category) => category.products.filter((candidate) => sameName(candidate.name, productName)).map((product) => ({ category, product })));
    const only = products.length === 1 ? products[0]! : undefined;
    const image = only?.product.imageUrl ? { imageUrl: only.product.imageUrl } : {};
    const items: FeedItem[] = [];
    for (const { category, product } of products) {
      const { variants } = shop.offers.peekVariants(serverId, category.id, product.id) ?? (await shop.offers.variants(serverId, category.id, product.id, PAYMENT_WATCH_LANE));
      for (const variant of variants.filter((candidate) => sameName(candidate.name, variantName))) {
        items.push({ server: shortRef(serverId), category: shortRef(category.id), product: shortRef(product.id), variant: shortRef(variant.id) });
      }
    }
    return items.length === 1 ? { ...image, item: items[0]! } : image;
  } catch (error) {
    logger.debug({ err: error }, 'purchase feed: the offer could not be read; posted without a Buy button');
  }
  return {};
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase() && b.trim() !== '';
}
