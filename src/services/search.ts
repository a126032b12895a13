import type { Category, Product, Server, ServerOffer, Variant } from '../spaceis/schemas.js';

/**
 * Finding an item by what a member types ("vip 30", "1000 monet", "zloto"). Pure: no Discord, no
 * store. The offer arrives in parts the offer cache hands out (a server's offer, a product's
 * variant list); each part is indexed once per version (WeakMaps keyed by those immutable objects),
 * so a keystroke only scores, never re-reads names.
 *
 * A query word matches a name word when it is equal, a prefix of it, a typo of it (one edit, for
 * words of 3+ letters), or its abbreviation ("vp" → "vip"); numbers match as numbers ("500" →
 * "500 monet", "1000" → "1 000 monet"), never by typo. Every query word must match somewhere
 * (words in any order); product and variant names count more than server and category names.
 */

export interface SearchTarget {
  server: Server;
  category: Category;
  product: Product;
  /** Undefined for a product (its variant menu); set for one variant (its quantity screen). */
  variant?: Variant;
}

export interface SearchHit {
  target: SearchTarget;
  score: number;
}

/** One indexed part of the offer: its own small vocabulary and documents pointing into it. */
export interface SearchPart {
  readonly serverId: string;
  readonly vocab: readonly string[];
  readonly docs: readonly SearchDoc[];
}

interface SearchDoc {
  target: SearchTarget;
  /** Ids into the part's vocabulary: product and variant name words. */
  primary: Uint32Array;
  /** Server and category name words: matched too, at a lower weight. */
  secondary: Uint32Array;
}

const SECONDARY_WEIGHT = 0.6;

/** Lower case, no diacritics (NFD strips combining marks; ł has none, so it is mapped by hand). */
export function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ł/g, 'l')
    .replace(/ß/g, 'ss')
    .replace(/[øœ]/g, 'o')
    .replace(/æ/g, 'ae');
}

/** Words of a name or query: letters and digits, with "1 000" / "1.000" read as one number and "30d" as two words. */
export function words(text: string): string[] {
  return normalize(text)
    .replace(/(\d)[\s\u00a0.,'’](?=\d{3}(?!\d))/g, '$1')
    .replace(/(\d)(?=[a-z])|([a-z])(?=\d)/g, '$1$2 ')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

// --- building parts ------------------------------------------------------------------------------

class PartBuilder {
  readonly vocab: string[] = [];
  readonly docs: SearchDoc[] = [];
  readonly #ids = new Map<string, number>();

  constructor(readonly serverId: string) {}

  ids(texts: string[]): Uint32Array {
    const found = new Set<number>();
    for (const text of texts) {
      for (const word of words(text)) {
        let id = this.#ids.get(word);
        if (id === undefined) {
          id = this.vocab.length;
          this.vocab.push(word);
          this.#ids.set(word, id);
        }
        found.add(id);
      }
    }
    return Uint32Array.from(found);
  }

  add(target: SearchTarget, primary: string[]): void {
    const secondaryIds = this.ids([target.server.name, target.category.name]);
    const primaryIds = this.ids(primary);
    // A word that is also in the product's name is not a second, weaker match.
    this.docs.push({ target, primary: primaryIds, secondary: secondaryIds.filter((id) => !primaryIds.includes(id)) });
  }
}

interface Cached {
  key: object;
  part: SearchPart;
}
const productParts = new WeakMap<ServerOffer, Cached>();
const variantParts = new WeakMap<readonly Variant[], Cached>();

/** A server's products, indexed once per offer the cache hands out (and per server record: its name is searched too). */
export function productPart(server: Server, offer: ServerOffer): SearchPart {
  const cached = productParts.get(offer);
  if (cached && cached.key === server) return cached.part;
  const builder = new PartBuilder(server.id);
  for (const category of offer.categories) {
    for (const product of category.products) builder.add({ server, category, product }, [product.name]);
  }
  const part = { serverId: server.id, vocab: builder.vocab, docs: builder.docs };
  productParts.set(offer, { key: server, part });
  return part;
}

/** A product's variants, indexed once per variant list the cache hands out (a 300-variant range included). */
export function variantPart(path: { server: Server; category: Category; product: Product }, variants: readonly Variant[]): SearchPart {
  const cached = variantParts.get(variants);
  if (cached && cached.key === path.product) return cached.part;
  const builder = new PartBuilder(path.server.id);
  for (const variant of variants) builder.add({ ...path, variant }, [path.product.name, variant.name]);
  const part = { serverId: path.server.id, vocab: builder.vocab, docs: builder.docs };
  variantParts.set(variants, { key: path.product, part });
  return part;
}

// --- matching ------------------------------------------------------------------------------------

const NUMBER = /^\d+$/;

/** How well one query word matches one name word: 0 (not at all) to 1 (the same word). */
export function wordScore(query: string, word: string): number {
  if (query === word) return 1;
  const numeric = NUMBER.test(query);
  if (numeric !== NUMBER.test(word)) return 0;
  if (word.startsWith(query)) return 0.6 + 0.3 * (query.length / word.length);
  if (numeric) return 0; // 500 is not a typo of 600
  if (query.length >= 3 && word.length >= 3) {
    if (withinOneEdit(query, word)) return 0.5;
    // A typo in a word still being typed: "kulc" → "klucz".
    if (word.length > query.length && withinOneEdit(query, word.slice(0, query.length))) return 0.4;
  }
  if (query.length >= 2 && word.length <= query.length + 3 && query[0] === word[0] && isSubsequence(query, word)) return 0.35;
  return 0;
}

/** Optimal string alignment distance ≤ 1: one insertion, deletion, substitution or swap of neighbours. */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

function isSubsequence(short: string, long: string): boolean {
  let at = 0;
  for (const char of long) if (char === short[at]) at++;
  return at === short.length;
}

export interface SearchOptions {
  limit: number;
  /** Every query word must match (autocomplete); otherwise at least one (the fallback "closest matches"). */
  requireAll: boolean;
}

/**
 * The best matches for `query` over the given parts, best first; ties keep the offer's order, a
 * product before its variants. An empty query lists products in the offer's order.
 */
export function search(parts: readonly SearchPart[], query: string, options: SearchOptions): SearchHit[] {
  const terms = [...new Set(words(query))].slice(0, 8);
  const hits: { hit: SearchHit; order: number; product: boolean }[] = [];
  let order = 0;
  for (const part of parts) {
    const scores = terms.map((term) => Float32Array.from(part.vocab, (word) => wordScore(term, word)));
    for (const doc of part.docs) {
      order++;
      if (terms.length === 0) {
        if (!doc.target.variant) hits.push({ hit: { target: doc.target, score: 0 }, order, product: true });
        continue;
      }
      let total = 0;
      let matched = 0;
      const covered = new Set<number>();
      for (const table of scores) {
        let best = 0;
        let bestId = -1;
        for (const id of doc.primary) {
          const score = table[id]!;
          if (score > best) {
            best = score;
            bestId = id;
          }
        }
        for (const id of doc.secondary) best = Math.max(best, table[id]! * SECONDARY_WEIGHT);
        if (best === 0 && options.requireAll) {
          matched = -1;
          break;
        }
        if (best > 0) matched++;
        if (bestId >= 0) covered.add(bestId);
        total += best;
      }
      if (matched <= 0) continue;
      // Among equal matches the item whose name is mostly what was typed comes first ("VIP" before "VIP Wyspy").
      const coverage = doc.primary.length === 0 ? 0 : covered.size / doc.primary.length;
      hits.push({ hit: { target: doc.target, score: total + 0.1 * coverage }, order, product: !doc.target.variant });
    }
  }
  hits.sort((a, b) => b.hit.score - a.hit.score || Number(b.product) - Number(a.product) || a.order - b.order);
  return hits.slice(0, options.limit).map((entry) => entry.hit);
}
