import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { Coordination } from '../../src/coordination/coordination.js';
import { createLogger } from '../../src/logger.js';
import { ManualClock } from '../../src/clock.js';
import { DEFAULT_OFFER_TTL_MS, OfferCache, type OfferSource } from '../../src/spaceis/offer-cache.js';
import { RedisOfferCopies } from '../../src/spaceis/redis-offer-copy.js';
import { VariantWarmUp } from '../../src/spaceis/variant-warm-up.js';
import type { ProductVariants, Server, ServerOffer } from '../../src/spaceis/schemas.js';
import { coordinationsPerTest } from '../support/redis.js';

/**
 * The offer cache's shared copy on a real Redis: two caches on two connections stand for two bot
 * processes on one license. One store request serves both; a drop in one reaches the other.
 */
const LICENSE = 'e'.repeat(64);

/** A store that counts what it was asked; `name` changes what it answers. */
class CountingStore implements OfferSource {
  calls: string[] = [];
  name = 'VIP';
  listServers(): Promise<Server[]> {
    this.calls.push('servers');
    return Promise.resolve([{ id: 's1', name: 'Survival' } as Server]);
  }
  getServer(param: string): Promise<ServerOffer> {
    this.calls.push(`server:${param}`);
    return Promise.resolve({ categories: [{ id: 'c1', name: 'Rangi', products: [{ id: 'p1', name: this.name }] }] } as unknown as ServerOffer);
  }
  getVariants(serverId: string, categoryId: string, productId: string): Promise<ProductVariants> {
    this.calls.push(`variants:${serverId}/${categoryId}/${productId}`);
    return Promise.resolve({ product: { id: productId, name: this.name }, variants: [{ id: 'v1', name: '30 dni', prices: [] }] } as unknown as ProductVariants);
  }
}

/** A logger that resolves `dropped` when this process hears another one's drop, and keeps its warnings. */
function listeningLogger() {
  let heard!: () => void;
  const state = { dropped: new Promise<void>((resolve) => (heard = resolve)), warnings: [] as string[] };
  const logger = createLogger('debug', {
    write(line: string) {
      const { msg, level } = JSON.parse(line) as { msg: string; level: number };
      if (msg === 'offer dropped by another process') heard();
      if (level === 40) state.warnings.push(msg);
    },
  });
  return { logger, state };
}

describe('the shared offer copy (Redis)', () => {
  const shared = coordinationsPerTest('offers');

  function cacheIn(coordination: Coordination, store: OfferSource, logger = listeningLogger()) {
    const copies = new RedisOfferCopies(coordination.redis!, coordination, logger.logger);
    return { cache: new OfferCache(store, { shared: copies.forLicense(LICENSE) }), ...logger };
  }

  it('asks the store once for what any process already read', async () => {
    const [storeA, storeB] = [new CountingStore(), new CountingStore()];
    const a = cacheIn(shared.processes[0]!, storeA).cache;
    const b = cacheIn(shared.processes[1]!, storeB).cache;
    await a.variants('s1', 'c1', 'p1');
    const seen = await b.variants('s1', 'c1', 'p1');
    expect(seen.product.name).toBe('VIP');
    expect(storeA.calls).toEqual(['variants:s1/c1/p1']);
    expect(storeB.calls).toEqual([]);
    // In memory here as well now: a menu can be answered at once.
    expect(b.peekVariants('s1', 'c1', 'p1')?.product.name).toBe('VIP');
  });

  it('drops a product in every process on `invalid variant`, so the next read is fresh', async () => {
    const [storeA, storeB] = [new CountingStore(), new CountingStore()];
    const a = cacheIn(shared.processes[0]!, storeA).cache;
    const b = cacheIn(shared.processes[1]!, storeB);
    await a.variants('s1', 'c1', 'p1');
    await b.cache.variants('s1', 'c1', 'p1');
    expect(b.cache.peekVariants('s1', 'c1', 'p1')).toBeDefined();

    storeA.name = storeB.name = 'VIP (nowość)';
    a.dropProduct('s1', 'c1', 'p1');
    await b.state.dropped;
    expect(b.cache.peekVariants('s1', 'c1', 'p1')).toBeUndefined();
    expect((await b.cache.variants('s1', 'c1', 'p1')).product.name).toBe('VIP (nowość)');
    expect(storeB.calls).toEqual(['variants:s1/c1/p1']);
  });

  it('refreshes the whole offer for every process with /shop-admin refresh (reload)', async () => {
    const [storeA, storeB] = [new CountingStore(), new CountingStore()];
    const a = cacheIn(shared.processes[0]!, storeA).cache;
    const b = cacheIn(shared.processes[1]!, storeB);
    await b.cache.server('s1');
    storeA.name = 'VIP (nowość)';
    const counts = await a.reload();
    expect(counts).toMatchObject({ servers: 1, products: 1 });
    await b.state.dropped;
    expect(b.cache.peekServer('s1')).toBeUndefined();
    // The reload left the fresh offer in the shared copy: the other process reads it without the store.
    const offer = await b.cache.server('s1');
    expect(offer.categories[0]!.products[0]!.name).toBe('VIP (nowość)');
    expect(storeB.calls).toEqual(['server:s1']);
  });

  it('has the variants warmed up by one process at a time: every product is asked of the store once in all', async () => {
    const stores = [new CountingStore(), new CountingStore()];
    const warmUps = shared.processes.map((coordination, index) => {
      const { cache } = cacheIn(coordination, stores[index]!);
      // As StoreDirectory builds it on Redis.
      const runAlone = (work: () => Promise<void>) => coordination.runAlone(`variants-warm-up:${LICENSE}`, work);
      return new VariantWarmUp({ offers: cache, gate: { whenQuiet: () => Promise.resolve() }, now: Date.now, runAlone });
    });
    const server = { id: 's1', name: 'Survival' } as Server;
    // Both processes' first searches at once.
    for (const warmUp of warmUps) warmUp.start([server]);
    await Promise.all(warmUps.map((warmUp) => warmUp.settled()));
    const asked = stores.flatMap((store) => store.calls).filter((call) => call.startsWith('variants:'));
    expect(asked).toEqual(['variants:s1/c1/p1']);
  });

  it("judges the shared copy's age on the bot's clock, like the in-process cache", async () => {
    const clock = new ManualClock();
    const [storeA, storeB] = [new CountingStore(), new CountingStore()];
    const copies = shared.processes.map((coordination) => new RedisOfferCopies(coordination.redis!, coordination, undefined));
    const a = new OfferCache(storeA, { now: () => clock.now(), shared: copies[0]!.forLicense(LICENSE) });
    const b = new OfferCache(storeB, { now: () => clock.now(), shared: copies[1]!.forLicense(LICENSE) });
    await a.servers();
    clock.advance(DEFAULT_OFFER_TTL_MS); // the offer is 5 minutes old: stale everywhere
    await b.servers();
    expect(storeB.calls).toEqual(['servers']);
  });

  it('reads from the store, logging once, when Redis cannot be reached', async () => {
    const client = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    const heard = listeningLogger();
    const copies = new RedisOfferCopies({ client, key: (name) => `unreachable:${name}` }, { publish: async () => undefined, subscribe: () => undefined }, heard.logger);
    const store = new CountingStore();
    const cache = new OfferCache(store, { shared: copies.forLicense(LICENSE) });
    expect((await cache.servers()).map((server) => server.name)).toEqual(['Survival']);
    cache.dropAll();
    expect((await cache.servers()).map((server) => server.name)).toEqual(['Survival']);
    expect(store.calls).toEqual(['servers', 'servers']);
    expect(heard.state.warnings).toEqual(['the shared offer copy (Redis) is unreachable; reading the offer from the store meanwhile']);
    client.disconnect();
  });

  it('keeps entries in memory only briefly and in Redis for the offer TTL, under the bot prefix', async () => {
    const a = cacheIn(shared.processes[0]!, new CountingStore()).cache;
    await a.servers();
    const redis = shared.processes[0]!.redis!;
    const key = redis.key(`offers:${LICENSE}:servers`);
    expect(key.startsWith(shared.prefix)).toBe(true);
    const ttl = await redis.client.pttl(key);
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
  });
});
