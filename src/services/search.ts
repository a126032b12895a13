import type { Category, Product, Server, ServerOffer, Variant } from '../spaceis/schemas.js';
import { NUMBER, sameKindScore, words } from './search-words.js';
import { TopHits, type SearchHit, type SearchTarget } from './search-top-hits.js';

export { normalize, wordScore, words } from './search-words.js';

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
 * Until a product's variants are read, the words its name lacks may be its variant's
 * (searchUnreadProducts: "vip 30" suggests VIP before its "30 dni" is known, "Rank 30" or not).
 */

export type { SearchHit, SearchTarget } from './search-top-hits.js';

/** One indexed part of the offer: its own small vocabulary and documents pointing into it. */
export interface SearchPart {
  readonly serverId: string;
  /** `products`: a server's products (productPart); `variants`: one product's variants (variantPart). */
  readonly kind: 'products' | 'variants';
  /** For a variants part, its product (productKey): that product's variants are known. */
  readonly productKey?: string;
  readonly vocab: readonly string[];
  /** 1 where the vocabulary word is a number: a number only ever matches a number. */
  readonly numeric: Uint8Array;
  readonly docs: readonly SearchDoc[];
  /**
   * Scratch space: each query word's scores over the vocabulary, by the word's position in the
   * query. Reused on every keystroke (no allocation, so no garbage to collect mid-typing), and a
   * word already scored at its position is not scored again: typing changes only the last word.
   */
  readonly slots: { term: string | undefined; scores: Float32Array; any: boolean }[];
}

interface SearchDoc {
  target: SearchTarget;
  /** Ids into the part's vocabulary: product and variant name words. */
  primary: Uint32Array;
  /** Server and category name words: matched too, at a lower weight. */
  secondary: Uint32Array;
}

const SECONDARY_WEIGHT = 0.6;

class PartBuilder {
  readonly vocab: string[] = [];
  readonly docs: SearchDoc[] = [];
  readonly #ids = new Map<string, number>();

  constructor(
    readonly serverId: string,
    readonly kind: SearchPart['kind'],
    readonly productKey?: string,
  ) {}

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

  part(): SearchPart {
    const numeric = Uint8Array.from(this.vocab, (word) => (NUMBER.test(word) ? 1 : 0));
    return {
      serverId: this.serverId,
      kind: this.kind,
      ...(this.productKey === undefined ? {} : { productKey: this.productKey }),
      vocab: this.vocab,
      numeric,
      docs: this.docs,
      slots: [],
    };
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
  const builder = new PartBuilder(server.id, 'products');
  for (const category of offer.categories) {
    for (const product of category.products) builder.add({ server, category, product }, [product.name]);
  }
  const part = builder.part();
  productParts.set(offer, { key: server, part });
  return part;
}

/** A product's variants, indexed once per variant list the cache hands out (a 300-variant range included). */
export function variantPart(path: { server: Server; category: Category; product: Product }, variants: readonly Variant[]): SearchPart {
  const cached = variantParts.get(variants);
  if (cached && cached.key === path.product) return cached.part;
  const builder = new PartBuilder(path.server.id, 'variants', productKey(path));
  for (const variant of variants) builder.add({ ...path, variant }, [path.product.name, variant.name]);
  const part = builder.part();
  variantParts.set(variants, { key: path.product, part });
  return part;
}

/** A product's place in the offer, as one string (JSON keeps ids containing any character apart). */
function productKey(target: { server: Server; category: Category; product: Product }): string {
  return JSON.stringify([target.server.id, target.category.id, target.product.id]);
}

// --- matching ------------------------------------------------------------------------------------

const MAX_TERMS = 8;

/** The scores of the query word at `slot` over a part's vocabulary, in the part's scratch space. */
function scoresFor(part: SearchPart, slot: number, term: string): { scores: Float32Array; any: boolean } {
  let entry = part.slots[slot];
  if (!entry) {
    entry = { term: undefined, scores: new Float32Array(part.vocab.length), any: false };
    part.slots[slot] = entry;
  }
  if (entry.term === term) return entry;
  const numeric = NUMBER.test(term);
  const kind = numeric ? 1 : 0;
  const { scores } = entry;
  let any = false;
  for (let id = 0; id < scores.length; id++) {
    const score = part.numeric[id] === kind ? sameKindScore(term, part.vocab[id]!, numeric) : 0;
    scores[id] = score;
    if (score > 0) any = true;
  }
  entry.term = term;
  entry.any = any;
  return entry;
}

/** Forgets every remembered score (the benchmark's worst case: a query pasted whole). */
export function forgetScores(part: SearchPart): void {
  for (const slot of part.slots) slot.term = undefined;
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
  const terms = [...new Set(words(query))].slice(0, MAX_TERMS);
  const best = new TopHits(options.limit);
  let order = 0;
  const covered = new Int32Array(terms.length);
  for (const part of parts) {
    const slots = terms.map((term, slot) => scoresFor(part, slot, term));
    // A part where some word of the query matches nothing cannot hold a hit: skip its documents (a 1 000-variant range for "vip").
    if (options.requireAll && slots.some((slot) => !slot.any)) {
      order += part.docs.length;
      continue;
    }
    for (const doc of part.docs) {
      order++;
      if (terms.length === 0) {
        if (!doc.target.variant) best.offer(doc.target, 0, order);
        continue;
      }
      const score = docScore(doc, slots, options.requireAll, covered);
      if (score > 0) best.offer(doc.target, score, order);
    }
  }
  return best.hits();
}

/** What autocomplete suggests: the items with every word, then the unread products (two lists that share no item). */
export function suggest(parts: readonly SearchPart[], query: string, limit: number): SearchHit[] {
  const hits = search(parts, query, { limit, requireAll: true });
  if (hits.length < limit) hits.push(...searchUnreadProducts(parts, query, limit - hits.length));
  return hits;
}

/**
 * The products whose variants are not read yet (no variants part among `parts` for them), for the
 * words their names lack, the other words being left to those unread variants ("vip 30" on a fresh
 * bot: VIP, whose "30 dni" nobody has read yet). Decided per product: one whose name (or server's or
 * category's) matches some of the words, by the same matching as `search`, but not all of them (with
 * all, `search` has found it). Another product named like VIP's variant ("Rank 30") changes nothing
 * for VIP. Ranked by the words of letters lacking (fewest first), then by the words matched and how
 * well. A product whose variants are known is never suggested: search would have found the variant.
 */
export function searchUnreadProducts(parts: readonly SearchPart[], query: string, limit: number): SearchHit[] {
  const terms = [...new Set(words(query))].slice(0, MAX_TERMS);
  if (terms.length < 2) return []; // one word: a product either holds it (search found it) or has nothing to go on
  const read = new Set(parts.map((part) => part.productKey));
  const best = new TopHits(limit);
  const covered = new Int32Array(terms.length);
  let order = 0;
  for (const part of parts) {
    if (part.kind !== 'products') continue;
    const slots = terms.map((term, slot) => scoresFor(part, slot, term));
    // Only words that hit some name of this part can make a product here partly match; with none, skip it whole.
    const hitting = slots.filter((slot) => slot.any);
    if (hitting.length === 0) {
      order += part.docs.length;
      continue;
    }
    const allHit = hitting.length === slots.length;
    for (const doc of part.docs) {
      order++;
      if (read.has(productKey(doc.target))) continue;
      // Holding every word, it is among search's hits already.
      if (allHit && docScore(doc, slots, true, covered) > 0) continue;
      const score = docScore(doc, hitting, false, covered);
      if (score > 0) best.offer(doc.target, score - LETTER_WORD_LEFT * lettersLacking(doc, terms, slots), order);
    }
  }
  return best.hits();
}

/**
 * A lacking word of letters costs more than any match scores; a lacking number costs nothing. Variants
 * are mostly amounts and durations ("30 dni", "500 monet"): "vip 30" is VIP's "30 …" far more likely
 * than a "vip …" variant of "Rank 30".
 */
const LETTER_WORD_LEFT = MAX_TERMS + 1;

/** How many of the query's words of letters match none of a document's names. */
function lettersLacking(doc: SearchDoc, terms: readonly string[], slots: readonly { scores: Float32Array }[]): number {
  const hit = (slot: number) => [doc.primary, doc.secondary].some((ids) => ids.some((id) => slots[slot]!.scores[id]! > 0));
  return terms.filter((term, slot) => !NUMBER.test(term) && !hit(slot)).length;
}

/**
 * One document's score for the query words' `slots`: each word's best match in its names (server
 * and category names weighing less), plus a little for how much of its name was typed; 0 when no
 * word matches, or with `requireAll` when one does not. `covered` is scratch space.
 */
function docScore(doc: SearchDoc, slots: readonly { scores: Float32Array }[], requireAll: boolean, covered: Int32Array): number {
  let total = 0;
  let matched = 0;
  let coveredCount = 0;
  const { primary, secondary } = doc;
  for (const { scores: table } of slots) {
    let best = 0;
    let bestId = -1;
    for (let k = 0; k < primary.length; k++) {
      const score = table[primary[k]!]!;
      if (score > best) {
        best = score;
        bestId = primary[k]!;
      }
    }
    for (let k = 0; k < secondary.length; k++) best = Math.max(best, table[secondary[k]!]! * SECONDARY_WEIGHT);
    if (best === 0 && requireAll) return 0;
    if (best > 0) matched++;
    if (bestId >= 0 && !seen(covered, coveredCount, bestId)) covered[coveredCount++] = bestId;
    total += best;
  }
  if (matched === 0) return 0;
  // Among equal matches the item whose name is mostly what was typed comes first ("VIP" before "VIP Wyspy").
  const coverage = primary.length === 0 ? 0 : coveredCount / primary.length;
  return total + 0.1 * coverage;
}

function seen(ids: Int32Array, count: number, id: number): boolean {
  for (let k = 0; k < count; k++) if (ids[k] === id) return true;
  return false;
}
