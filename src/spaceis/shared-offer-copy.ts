/**
 * The offer cache's copy shared by every bot process selling from one license (Redis), so a menu
 * costs the store one request whatever process serves it, and a change seen by one process
 * (`invalid variant`, `/shop-admin refresh`) reaches them all.
 *
 * Best effort by design: a read that fails is a miss (the store is asked), a write that fails is
 * skipped. The copy only saves store requests; it must never make a member wait or see a wrong offer.
 */
export type OfferDrop =
  | { kind: 'all' }
  /** `invalid variant` on one of this product's variants: its variants and its server's offer. */
  | { kind: 'product'; serverId: string; categoryId: string; productId: string };

export interface SharedOfferEntry {
  value: unknown;
  /** When the store gave it, on the bot's clock (ms). */
  storedAt: number;
}

export interface SharedOfferCopy {
  /** How long an entry stays in this process's memory: short, since a drop notice can be lost. */
  readonly localTtlMs: number;
  /** The shared entry under this cache key, or undefined (absent, expired, or Redis unreachable). */
  get(key: string): Promise<SharedOfferEntry | undefined>;
  /**
   * Stores entries; Redis forgets them after `ttlMs` of its own time. Freshness is judged by the
   * caller against `storedAt` on the bot's clock, the same clock the in-process cache uses.
   */
  set(entries: ReadonlyArray<readonly [key: string, entry: SharedOfferEntry]>, ttlMs: number): Promise<void>;
  /** Deletes these keys (or every key of the license for `all`), then tells the other processes. */
  drop(keys: readonly string[], drop: OfferDrop): Promise<void>;
  /** Hears the drops made by other processes; one listener per license (a new one replaces the old). */
  onRemoteDrop(listener: (drop: OfferDrop) => void): void;
}
