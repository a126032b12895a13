import type { Category, Product, Server, Variant } from '../spaceis/schemas.js';

/* What search.ts finds, and how its matches are ranked: the best few kept in order while the offer is walked. */

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

/**
 * The best `limit` hits seen so far, kept in order: "m" matches thousands of range variants, and
 * sorting them all on every keystroke would cost more than the matching.
 */
export class TopHits {
  readonly #kept: { target: SearchTarget; score: number; order: number }[] = [];
  constructor(readonly limit: number) {}

  offer(target: SearchTarget, score: number, order: number): void {
    const kept = this.#kept;
    // Most candidates of a broad query ("m") lose to the last kept hit: turn them away before allocating.
    const last = kept[kept.length - 1];
    if (kept.length >= this.limit && last && (score < last.score || (score === last.score && (target.variant !== undefined || last.target.variant === undefined)))) return;
    const entry = { target, score, order };
    let at = kept.length;
    while (at > 0 && ahead(entry, kept[at - 1]!)) at--;
    kept.splice(at, 0, entry);
    if (kept.length > this.limit) kept.pop();
  }

  hits(): SearchHit[] {
    return this.#kept.map(({ target, score }) => ({ target, score }));
  }
}

/** Higher score first; on a tie a product before a variant, then the offer's order. */
function ahead(a: { target: SearchTarget; score: number; order: number }, b: { target: SearchTarget; score: number; order: number }): boolean {
  if (a.score !== b.score) return a.score > b.score;
  const aProduct = a.target.variant ? 0 : 1;
  const bProduct = b.target.variant ? 0 : 1;
  return aProduct !== bProduct ? aProduct > bProduct : a.order < b.order;
}
