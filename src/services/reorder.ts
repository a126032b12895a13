import { isPurchasable } from '../cart/pricing.js';
import type { CartPolicy, RuleViolation } from '../cart/rules.js';
import type { Server } from '../spaceis/schemas.js';
import type { PaymentLink } from '../storage/payment-links.js';
import type { CartOwner, CartService } from './cart-service.js';
import { byRef, cartItemFrom, pricedVariant, type OfferPath, type OfferReader, type VariantChoice } from './catalog.js';
import { shortRef } from './short-ref.js';

/**
 * "Buy again": a payment link's items found in the current offer. A record keeps the variant id
 * (what the store sells), the names, and (since Buy again) the server, category and product ids.
 * An item is looked up where its ids say; failing that (an older record, or the product moved), by
 * the product's name within the server named, then within any server offered. Only the variant id
 * decides that it is the same item: names are only where to look.
 */

export type LinkItem = PaymentLink['items'][number];

export interface FoundItem {
  path: OfferPath;
  variant: VariantChoice;
}

/** What Buy again did with one item of the link. */
export interface ReorderLine {
  item: LinkItem;
  outcome:
    | { kind: 'added'; lineQuantity: number; capped: boolean }
    | { kind: 'gone' }
    | { kind: 'unavailable' }
    | { kind: 'refused'; violation: RuleViolation };
}

/**
 * Buy again: a link's items go back into the member's cart with the same quantities, each checked
 * against today's offer and the cart rules, in one cart change (the cart service's `addMany`). It
 * never asks for a payment link: that waits for the member's own Checkout.
 */
export async function putBackInCart(
  carts: CartService,
  reader: OfferReader,
  owner: CartOwner,
  policy: CartPolicy,
  link: PaymentLink,
): Promise<ReorderLine[]> {
  // Items of a link issued from another shop are not on offer here. The same shop may have been reached
  // with another key (rotated since) or named by the older short fingerprint: the cart service knows both.
  const sameShop = await carts.sameShop(link.license, policy.license);
  const found = sameShop ? await findLinkItems(reader, link.items) : link.items.map(() => undefined);
  const lines: ReorderLine[] = link.items.map((item) => ({ item, outcome: { kind: 'gone' } }));
  const wanted: { index: number; item: ReturnType<typeof cartItemFrom>; quantity: number }[] = [];
  for (const [index, match] of found.entries()) {
    if (!match) continue;
    if (!isPurchasable(match.variant.priced)) lines[index]!.outcome = { kind: 'unavailable' };
    else wanted.push({ index, item: cartItemFrom(match.path, match.variant.variant), quantity: link.items[index]!.quantity });
  }
  if (wanted.length === 0) return lines;
  // A cart Buy again starts counts as started there (the insights' sources).
  const outcomes = await carts.addMany(owner, policy, wanted, 'again');
  for (const [position, outcome] of outcomes.entries()) {
    lines[wanted[position]!.index]!.outcome =
      outcome.kind === 'added' ? { kind: 'added', lineQuantity: outcome.line.quantity, capped: outcome.capped } : outcome;
  }
  return lines;
}

export async function findLinkItems(reader: OfferReader, items: readonly LinkItem[]): Promise<(FoundItem | undefined)[]> {
  const servers = await reader.servers();
  const found: (FoundItem | undefined)[] = [];
  for (const item of items) found.push((await byIds(reader, servers, item)) ?? (await byNames(reader, servers, item)));
  return found;
}

async function byIds(reader: OfferReader, servers: Server[], item: LinkItem): Promise<FoundItem | undefined> {
  if (!item.serverId || !item.categoryId || !item.productId) return undefined;
  const server = servers.find((candidate) => candidate.id === item.serverId);
  if (!server) return undefined;
  const category = byRef((await reader.server(server.id)).categories, shortRef(item.categoryId));
  const product = category && byRef(category.products, shortRef(item.productId));
  return category && product ? inProduct(reader, { server, category, product }, item.variantId) : undefined;
}

async function byNames(reader: OfferReader, servers: Server[], item: LinkItem): Promise<FoundItem | undefined> {
  const named = servers.filter((server) => server.name === item.serverName);
  // A server renamed since keeps its products: look in the others too, the named one first.
  for (const server of [...named, ...servers.filter((server) => !named.includes(server))]) {
    const offer = await reader.server(server.id);
    for (const category of offer.categories) {
      for (const product of category.products) {
        if (product.name !== item.productName) continue;
        const found = await inProduct(reader, { server, category, product }, item.variantId);
        if (found) return found;
      }
    }
  }
  return undefined;
}

async function inProduct(reader: OfferReader, path: OfferPath, variantId: string): Promise<FoundItem | undefined> {
  const { variants } = await reader.variants(path.server.id, path.category.id, path.product.id);
  const variant = variants.find((candidate) => candidate.id === variantId);
  return variant ? { path, variant: { variant, priced: pricedVariant(variant) } } : undefined;
}
