import type { StoreClient } from './client.js';
import type { Server, ServerOffer } from './schemas.js';
import type { SharedOfferCopy } from './shared-offer-copy.js';

/** What an OfferCache is built with (offer-cache.ts), and what it reports. */

/** How much of the offer a reload found. */
export interface OfferCounts {
  servers: number;
  categories: number;
  products: number;
  variants: number;
}

/** The part of StoreClient the cache needs; lets tests pass a stub. */
export type OfferSource = Pick<StoreClient, 'listServers' | 'getServer' | 'getVariants'>;

export interface OfferCacheOptions {
  /** Default 5 minutes. */
  ttlMs?: number;
  /** Default Date.now; inject a manual clock in tests. */
  now?: () => number;
  /**
   * A copy shared with the other bot processes on this license (Redis). With it, entries live
   * `ttlMs` there and only `shared.localTtlMs` here, a miss here looks there before asking the
   * store, and drops reach every process. Without it (one process) nothing changes.
   */
  shared?: SharedOfferCopy;
  /** Told every server list the cache takes in (from the store or the shared copy): what the store says about the shop. */
  onServers?: (servers: Server[]) => void;
  /** Told every server offer the cache takes in (from the store or the shared copy). */
  onServerOffer?: (offer: ServerOffer) => void;
  /** The most entries held at once (default DEFAULT_MAX_ENTRIES); past it the oldest go first. */
  maxEntries?: number;
  /** The most the entries may hold, as JSON length (default DEFAULT_MAX_BYTES); past it the oldest go first. */
  maxBytes?: number;
}

export const DEFAULT_OFFER_TTL_MS = 5 * 60_000;
/**
 * A bound on one license's entries, whatever the shop's size: a server list, each server's offer
 * (under its id and slug) and each product's variants. Far above a real shop (hundreds), so only a
 * runaway offer or a bug could reach it; TTL expiry keeps the usual size.
 */
export const DEFAULT_MAX_ENTRIES = 10_000;
/**
 * A bound on what one license's entries hold (their JSON length): about 16 000 variants with
 * names and prices, where the bench's shop-sized offer (4 servers, 43 products, 420 variants) is
 * about 0.2 MB. A larger offer is still sold: its oldest entries are read from the store again.
 */
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;
