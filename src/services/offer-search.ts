import type { OfferCache } from '../spaceis/offer-cache.js';
import type { Server } from '../spaceis/schemas.js';
import type { OfferReader, OfferRefs } from './catalog.js';
import { productPart, variantPart, type SearchPart, type SearchTarget } from './search.js';
import { SHORT_REF_LENGTH, shortRef } from './short-ref.js';

/**
 * The search over the offer as the cache holds it. Autocomplete may only read what is cached (it
 * has under 3 s and cannot defer), so `cachedParts` never asks the store; `searchableParts` is
 * for a typed query the member submitted, which may defer and read the variants still missing.
 */

/** Every part the cache holds now for these servers: their products, and the variants already read. */
export function cachedParts(offers: OfferCache, servers: readonly Server[]): SearchPart[] {
  const parts: SearchPart[] = [];
  for (const server of servers) {
    const offer = offers.peekServer(server.id);
    if (!offer) continue;
    parts.push(productPart(server, offer));
    for (const category of offer.categories) {
      for (const product of category.products) {
        const variants = offers.peekVariants(server.id, category.id, product.id);
        if (variants) parts.push(variantPart({ server, category, product }, variants.variants));
      }
    }
  }
  return parts;
}

/** The most products whose variants one submitted search reads (a refresh reads them all anyway). */
export const MAX_PRODUCTS_READ = 60;
const READ_CONCURRENCY = 4;

/**
 * Every part for these servers, reading through the reader (which defers first) what the cache lacks:
 * the servers' offers, then up to MAX_PRODUCTS_READ products' variants, four at a time. Each is
 * read once per cache lifetime for every guild on the license. A product whose variants cannot be
 * read is searched by its name only.
 */
export async function searchableParts(reader: OfferReader, offers: OfferCache, servers: readonly Server[]): Promise<SearchPart[]> {
  const wanted: { server: Server; category: string; product: string }[] = [];
  for (const server of servers) {
    const offer = await reader.server(server.id);
    for (const category of offer.categories) {
      for (const product of category.products) {
        if (!offers.peekVariants(server.id, category.id, product.id)) wanted.push({ server, category: category.id, product: product.id });
      }
    }
  }
  const batch = wanted.slice(0, MAX_PRODUCTS_READ);
  for (let start = 0; start < batch.length; start += READ_CONCURRENCY) {
    await Promise.allSettled(batch.slice(start, start + READ_CONCURRENCY).map((item) => reader.variants(item.server.id, item.category, item.product)));
  }
  return cachedParts(offers, servers);
}

/**
 * Fills what autocomplete needs (the server list and each visible server's offer) within `budgetMs`,
 * then answers from the cache. The requests go on after the budget, so the next keystroke finds
 * them; the cache shares a request in flight, so keystrokes never add requests. Variants are never
 * read here: they are read when a member opens a product or submits a search, and in the background
 * once a search starts the license's warm-up (ShopAccess.warmUp, src/spaceis/variant-warm-up.ts).
 */
export async function warmForSearch(offers: OfferCache, hidden: ReadonlySet<string>, budgetMs: number): Promise<Server[]> {
  const deadline = Date.now() + budgetMs;
  const within = async <T>(work: Promise<T>, fallback: T): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(fallback), Math.max(0, deadline - Date.now()));
    });
    try {
      return await Promise.race([work.catch(() => fallback), late]);
    } finally {
      clearTimeout(timer);
    }
  };
  const all = offers.peekServers() ?? (await within(offers.servers(), [] as Server[]));
  const servers = all.filter((server) => !hidden.has(server.id));
  const missing = servers.filter((server) => !offers.peekServer(server.id));
  if (missing.length > 0) await within(Promise.allSettled(missing.map((server) => offers.server(server.id))), []);
  return servers;
}

/**
 * Reads the server list and every server's offer into the cache: what autocomplete searches. Run
 * when an admin sets a license, so a member's first keystroke on it is answered from the cache
 * (autocomplete cannot wait for two store round trips behind a slow store). A failure leaves the
 * cache as it was: the next keystroke asks the store again. Returns how many servers were listed.
 */
export async function readOfferForSearch(offers: OfferCache): Promise<number> {
  const servers = await offers.servers().catch((): Server[] => []);
  await Promise.allSettled(servers.map((server) => offers.server(server.id)));
  return servers.length;
}

// --- choices as values ----------------------------------------------------------------------------

/**
 * A chosen item as an autocomplete or select value: `p:<s>.<c>.<p>` for a product, `v:<s>.<c>.<p>.<v>`
 * for a variant, in short references (37 characters at most; Discord allows 100). Resolved against
 * the current offer when submitted, like a menu's custom id.
 */
export function itemRef(target: SearchTarget): string {
  const refs = [target.server.id, target.category.id, target.product.id].map(shortRef);
  return target.variant ? `v:${[...refs, shortRef(target.variant.id)].join('.')}` : `p:${refs.join('.')}`;
}

const REF = `[A-Za-z0-9_-]{${SHORT_REF_LENGTH}}`;
const ITEM_REF = new RegExp(`^(?:p:(${REF})\\.(${REF})\\.(${REF})|v:(${REF})\\.(${REF})\\.(${REF})\\.(${REF}))$`);

/** The references a value carries, or undefined when it is text the member typed. */
export function readItemRef(value: string): (Required<Pick<OfferRefs, 'server' | 'category' | 'product'>> & { variant?: string }) | undefined {
  const match = ITEM_REF.exec(value.trim());
  if (!match) return undefined;
  if (match[1]) return { server: match[1], category: match[2]!, product: match[3]! };
  return { server: match[4]!, category: match[5]!, product: match[6]!, variant: match[7]! };
}
