/**
 * A short-lived cache of the store's offer, shared by every guild selling from one license.
 *
 * Why: the license's rate limit is shared with the shop's own website, and a crowd opening the
 * shop menu at once must cost the store one request, not one per member. So:
 * - fresh entries (younger than `ttlMs`) are served without a request;
 * - there is at most ONE request in flight per key; concurrent callers share its promise;
 * - failures are not cached (the next caller tries again);
 * - the synchronous `peek*` methods tell the bot whether it can answer at once or must defer
 *   the Discord interaction before calling the store.
 */
import type { ProductVariants, Server, ServerOffer } from './schemas.js';
import type { OfferDrop, SharedOfferCopy } from './shared-offer-copy.js';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRIES, DEFAULT_OFFER_TTL_MS, type OfferCacheOptions, type OfferCounts, type OfferSource } from './offer-cache-options.js';
import { OfferEntries, sizeOf } from './offer-entries.js';

export { DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRIES, DEFAULT_OFFER_TTL_MS, type OfferCacheOptions, type OfferCounts, type OfferSource } from './offer-cache-options.js';
import { laneOf, serverAliases, serverKey, SERVERS_KEY, variantsKey } from './offer-keys.js';

/** A reload asks for at most this many products' variants at once: the store's limit is the shop's, shared with its website. */
const RELOAD_CONCURRENCY = 4;

export class OfferCache {
  readonly ttlMs: number;
  readonly #source: OfferSource;
  readonly #now: () => number;
  readonly #entries: OfferEntries;
  readonly #inFlight = new Map<string, Promise<unknown>>();
  readonly #shared: SharedOfferCopy | undefined;
  /** How long an entry is served from this process's memory. */
  readonly #localTtlMs: number;
  /** The shared copy's deletion in progress: reads of the shared copy wait for it, so they never find what was just dropped. */
  #dropping: Promise<void> = Promise.resolve();
  readonly #onServers: ((servers: Server[]) => void) | undefined;
  readonly #onServerOffer: ((offer: ServerOffer) => void) | undefined;

  constructor(source: OfferSource, options: OfferCacheOptions = {}) {
    this.#source = source;
    this.ttlMs = options.ttlMs ?? DEFAULT_OFFER_TTL_MS;
    this.#now = options.now ?? Date.now;
    this.#shared = options.shared;
    this.#onServers = options.onServers;
    this.#onServerOffer = options.onServerOffer;
    this.#localTtlMs = this.#shared ? Math.min(this.#shared.localTtlMs, this.ttlMs) : this.ttlMs;
    this.#entries = new OfferEntries({
      maxEntries: options.maxEntries ?? DEFAULT_MAX_ENTRIES,
      maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
      isFresh: (entry) => this.#isFresh(entry),
    });
    // Another process dropped part of the offer: drop it here too (the shared copy is already gone).
    this.#shared?.onRemoteDrop((drop) => this.#dropLocally(drop));
  }

  // --- async readers ---------------------------------------------------------------------------

  /** `lane`: the guild asking, for fairness at the license's gate when the store must be asked. */
  servers(lane?: string): Promise<Server[]> {
    return this.#load(SERVERS_KEY, () => this.#source.listServers(laneOf(lane)), this.#onServers) as Promise<Server[]>;
  }

  /**
   * `param` may be an id or a slug. The result is cached under the param given and also under
   * the server's id and slug when the response reveals them, so browsing by slug and buying by
   * id share one entry.
   */
  server(param: string, lane?: string): Promise<ServerOffer> {
    return this.#load(serverKey(param), () => this.#source.getServer(param, laneOf(lane)), (offer, storedAt) => {
      const bytes = sizeOf(offer);
      for (const alias of serverAliases(offer)) {
        if (alias !== param) this.#entries.set(serverKey(alias), { value: offer, storedAt, bytes });
      }
      this.#onServerOffer?.(offer);
    }) as Promise<ServerOffer>;
  }

  /** `maxAgeMs`: only a copy read that recently (here or shared) is served, else one shared read (a cart's prices: a minute). */
  variants(serverId: string, categoryId: string, productId: string, lane?: string, maxAgeMs?: number): Promise<ProductVariants> {
    const fetch = () => this.#source.getVariants(serverId, categoryId, productId, laneOf(lane));
    return this.#load(variantsKey(serverId, categoryId, productId), fetch, undefined, maxAgeMs) as Promise<ProductVariants>;
  }

  // --- synchronous peeks -----------------------------------------------------------------------

  peekServers(): Server[] | undefined {
    return this.#fresh(SERVERS_KEY) as Server[] | undefined;
  }

  peekServer(param: string): ServerOffer | undefined {
    return this.#fresh(serverKey(param)) as ServerOffer | undefined;
  }

  peekVariants(serverId: string, categoryId: string, productId: string, maxAgeMs?: number): ProductVariants | undefined {
    return this.#fresh(variantsKey(serverId, categoryId, productId), maxAgeMs) as ProductVariants | undefined;
  }

  // --- invalidation ----------------------------------------------------------------------------

  /**
   * Called when the store answers `invalid variant`: the offer was changed in the panel. Drops
   * the product's variants and the server's offer (under every alias), since the product list
   * itself may have changed too. Requests already in flight for those keys are detached so
   * their (possibly stale) results are not stored.
   */
  dropProduct(serverId: string, categoryId: string, productId: string): void {
    const drop: OfferDrop = { kind: 'product', serverId, categoryId, productId };
    this.#dropLocally(drop);
    // Server offers are shared under the id they were asked by (the bot always asks by id).
    this.#dropShared([variantsKey(serverId, categoryId, productId), serverKey(serverId)], drop);
  }

  dropAll(): void {
    this.#dropLocally({ kind: 'all' });
    this.#dropShared([], { kind: 'all' });
  }

  #dropLocally(drop: OfferDrop): void {
    if (drop.kind === 'all') {
      this.#entries.clear();
      this.#inFlight.clear();
      return;
    }
    const { serverId, categoryId, productId } = drop;
    this.#drop(variantsKey(serverId, categoryId, productId));
    this.#drop(serverKey(serverId));
    for (const [key, entry] of [...this.#entries.entries()]) {
      if (key.startsWith('server:') && serverAliases(entry.value as ServerOffer).includes(serverId)) {
        this.#drop(key);
      }
    }
  }

  /** Deletes the shared copy's keys and tells the other processes; reads of the shared copy wait for it. */
  #dropShared(keys: string[], drop: OfferDrop): void {
    const shared = this.#shared;
    if (!shared) return;
    const previous = this.#dropping;
    const dropping = previous.then(() => shared.drop(keys, drop)).catch(() => undefined);
    this.#dropping = dropping;
  }

  /** Resolves once every drop made so far reached the shared copy (and was told to the other processes). */
  settled(): Promise<void> {
    return this.#dropping;
  }

  /**
   * Drops everything and reads the whole offer again (every server, then every product's
   * variants, four requests at a time), so the next buyers find it warm. Returns what the store now shows.
   */
  async reload(): Promise<OfferCounts> {
    this.dropAll();
    const servers = await this.servers();
    const offers = await Promise.all(servers.map((server) => this.server(server.id)));
    const products = servers.flatMap((server, index) =>
      (offers[index]?.categories ?? []).flatMap((category) => category.products.map((product) => ({ server, category, product }))),
    );
    let variants = 0;
    for (let start = 0; start < products.length; start += RELOAD_CONCURRENCY) {
      const batch = products.slice(start, start + RELOAD_CONCURRENCY);
      const lists = await Promise.all(batch.map(({ server, category, product }) => this.variants(server.id, category.id, product.id)));
      variants += lists.reduce((sum, list) => sum + list.variants.length, 0);
    }
    const categories = offers.reduce((sum, offer) => sum + offer.categories.length, 0);
    return { servers: servers.length, categories, products: products.length, variants };
  }

  /** Age of the oldest fresh entry, or undefined when nothing fresh is cached. */
  oldestEntryAgeMs(): number | undefined {
    this.#entries.evictExpired();
    const now = this.#now();
    let oldest: number | undefined;
    for (const [, { storedAt }] of this.#entries.entries()) {
      const age = now - storedAt;
      if (oldest === undefined || age > oldest) oldest = age;
    }
    return oldest;
  }

  /** Number of fresh entries (aliases of one server offer count separately). */
  get size(): number {
    this.#entries.evictExpired();
    return this.#entries.size;
  }

  /** What the fresh entries hold, estimated (their JSON length; see offer-entries.ts). */
  get bytes(): number {
    this.#entries.evictExpired();
    return this.#entries.bytes;
  }

  // --- internals -------------------------------------------------------------------------------

  #load<T>(key: string, fetcher: () => Promise<T>, onStored?: (value: T, storedAt: number) => void, maxAgeMs?: number): Promise<T> {
    const cached = this.#fresh(key, maxAgeMs);
    if (cached !== undefined) return Promise.resolve(cached as T);
    // A request in flight is as fresh as can be: shared whatever the bound.
    const pending = this.#inFlight.get(key);
    if (pending) return pending as Promise<T>;

    const shared = this.#shared;
    const read: () => Promise<T> = shared ? () => this.#readThroughShared(shared, key, fetcher, () => this.#inFlight.get(key) === request, maxAgeMs) : fetcher;
    // `new Promise` turns a synchronous throw from a stub into a rejection too.
    const request: Promise<T> = new Promise<T>((resolve) => resolve(read())).then(
      (value) => {
        // Store only if this request was not detached by a drop meanwhile.
        if (this.#inFlight.get(key) === request) {
          this.#inFlight.delete(key);
          const storedAt = this.#now();
          this.#entries.set(key, { value, storedAt, bytes: sizeOf(value) });
          onStored?.(value, storedAt);
        }
        return value;
      },
      (error: unknown) => {
        if (this.#inFlight.get(key) === request) this.#inFlight.delete(key);
        throw error;
      },
    );
    this.#inFlight.set(key, request);
    return request;
  }

  /**
   * The shared copy first, then the store. What the store gave is written to the shared copy
   * before the caller gets it (one round trip, small next to the store's), unless a drop detached
   * this request meanwhile: a stale answer must not outlive the drop in Redis.
   */
  async #readThroughShared<T>(shared: SharedOfferCopy, key: string, fetcher: () => Promise<T>, stillWanted: () => boolean, maxAgeMs?: number): Promise<T> {
    await this.#dropping;
    const copy = await shared.get(key);
    if (copy !== undefined && this.#now() - copy.storedAt < Math.min(this.ttlMs, maxAgeMs ?? Infinity)) return copy.value as T;
    const value = await fetcher();
    if (stillWanted()) await shared.set([[key, { value, storedAt: this.#now() }]], this.ttlMs);
    return value;
  }

  #fresh(key: string, maxAgeMs?: number): unknown {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (!this.#isFresh(entry)) {
      this.#entries.delete(key);
      return undefined;
    }
    // Older than the caller's bound but still fresh for everyone else: kept, not served to this caller.
    return maxAgeMs !== undefined && this.#now() - entry.storedAt >= maxAgeMs ? undefined : entry.value;
  }

  #isFresh(entry: { storedAt: number }): boolean {
    return this.#now() - entry.storedAt < this.#localTtlMs;
  }

  #drop(key: string): void {
    this.#entries.delete(key);
    this.#inFlight.delete(key);
  }
}
