/**
 * The entries of one license's OfferCache, bounded by count and by size: past either bound the
 * expired entries go, then the oldest (a Map keeps the order entries were stored in). TTL expiry
 * keeps the usual size; the bounds are for a runaway offer (a shop with tens of thousands of
 * variants, a description pasted a thousand times) or a bug, so one license cannot take the
 * process's memory from the others.
 */
export interface OfferEntry {
  value: unknown;
  storedAt: number;
  /** The entry's size as its JSON length: an estimate of what it holds (a server offer kept under its id and its slug counts twice: the bound errs on the safe side). */
  bytes: number;
}

export interface EntryBounds {
  maxEntries: number;
  maxBytes: number;
  isFresh: (entry: OfferEntry) => boolean;
}

/** How much an offer value holds, near enough: its JSON length (a value is measured once, when the store's answer is stored). */
export function sizeOf(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}

export class OfferEntries {
  readonly #entries = new Map<string, OfferEntry>();
  #bytes = 0;

  constructor(private readonly bounds: EntryBounds) {}

  get(key: string): OfferEntry | undefined {
    return this.#entries.get(key);
  }

  /** Stores `entry` under `key` (replacing what was there), then holds the bounds. */
  set(key: string, entry: OfferEntry): void {
    this.delete(key);
    this.#entries.set(key, entry);
    this.#bytes += entry.bytes;
    this.#bound();
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  entries(): IterableIterator<[string, OfferEntry]> {
    return this.#entries.entries();
  }

  evictExpired(): void {
    for (const [key, entry] of this.#entries) if (!this.bounds.isFresh(entry)) this.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The sum of the entries' sizes (see OfferEntry.bytes). */
  get bytes(): number {
    return this.#bytes;
  }

  #over(): boolean {
    return this.#entries.size > this.bounds.maxEntries || this.#bytes > this.bounds.maxBytes;
  }

  #bound(): void {
    if (!this.#over()) return;
    this.evictExpired();
    for (const key of this.#entries.keys()) {
      if (!this.#over()) break;
      this.delete(key);
    }
  }
}
