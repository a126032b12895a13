import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreClient } from '../../../src/spaceis/client.js';
import { StoreError } from '../../../src/spaceis/errors.js';
import { OfferCache, type OfferSource } from '../../../src/spaceis/offer-cache.js';
import { FakeSpaceIs } from '../../fakes/spaceis/fake-spaceis.js';
import { allProducts, findProduct, findServer } from '../../fakes/spaceis/fixtures.js';

const TTL = 60_000;

let fake: FakeSpaceIs;
let now: number;
let cache: OfferCache;

function makeCache(source: OfferSource = new StoreClient({ baseUrl: fake.url, apiKey: fake.apiKey, getRetries: 0, sleep: async () => {} })): OfferCache {
  return new OfferCache(source, { ttlMs: TTL, now: () => now });
}

beforeEach(async () => {
  fake = await FakeSpaceIs.start();
  now = 1_000_000;
  cache = makeCache();
});

afterEach(async () => {
  await fake.close();
});

describe('OfferCache', () => {
  it('shares one request among concurrent callers', async () => {
    const results = await Promise.all(Array.from({ length: 25 }, () => cache.servers()));
    expect(fake.requestsTo('servers')).toHaveLength(1);
    expect(new Set(results).size).toBe(1);
    expect(results[0]).toHaveLength(2);
  });

  it('serves fresh entries without a request and refetches after the TTL', async () => {
    expect(cache.peekServers()).toBeUndefined();
    const first = await cache.servers();
    expect(cache.peekServers()).toBe(first);

    now += TTL - 1;
    await cache.servers();
    expect(fake.requestsTo('servers')).toHaveLength(1);

    now += 1;
    expect(cache.peekServers()).toBeUndefined();
    fake.shop.servers.pop();
    expect(await cache.servers()).toHaveLength(1);
    expect(fake.requestsTo('servers')).toHaveLength(2);
  });

  it('peeks nothing while the first request is in flight (the bot must defer)', async () => {
    const hold = fake.hold('servers');
    const pending = cache.servers();
    await hold.reached;
    expect(cache.peekServers()).toBeUndefined();
    const second = cache.servers();
    hold.release();
    expect(await second).toBe(await pending);
    expect(fake.requestsTo('servers')).toHaveLength(1);
  });

  it('caches a server under the param given and under its id and slug', async () => {
    const survival = findServer(fake.shop, 'survival');
    const offer = await cache.server('survival');
    expect(cache.peekServer('survival')).toBe(offer);
    expect(cache.peekServer(survival.id)).toBe(offer);
    expect(await cache.server(survival.id)).toBe(offer);
    expect(fake.requestsTo('server')).toHaveLength(1);

    await cache.server(findServer(fake.shop, 'skyblock').id);
    expect(cache.peekServer('skyblock')).toBeDefined();
    expect(fake.requestsTo('server')).toHaveLength(2);
  });

  it('holds at most maxEntries entries: the oldest go first, expired ones before them', async () => {
    const bounded = new OfferCache(new StoreClient({ baseUrl: fake.url, apiKey: fake.apiKey, getRetries: 0, sleep: async () => {} }), { ttlMs: TTL, now: () => now, maxEntries: 3 });
    const products = allProducts(fake.shop).slice(0, 4);
    for (const { server, category, product } of products) await bounded.variants(server.id, category.id, product.id);
    const held = products.map(({ server, category, product }) => bounded.peekVariants(server.id, category.id, product.id) !== undefined);
    expect(held).toEqual([false, true, true, true]);
    expect(bounded.size).toBe(3);
  });

  it('holds at most maxBytes (JSON length) of entries: the oldest go, and are asked from the store again when wanted', async () => {
    const client = new StoreClient({ baseUrl: fake.url, apiKey: fake.apiKey, getRetries: 0, sleep: async () => {} });
    const products = allProducts(fake.shop).slice(0, 4);
    const sizes = await Promise.all(products.map(({ server, category, product }) => client.getVariants(server.id, category.id, product.id).then((list) => JSON.stringify(list).length)));
    // Room for the last three products' variants, not for all four.
    const maxBytes = sizes.slice(1).reduce((sum, size) => sum + size, 0);
    const bounded = new OfferCache(client, { ttlMs: TTL, now: () => now, maxBytes });
    for (const { server, category, product } of products) await bounded.variants(server.id, category.id, product.id);
    const held = () => products.map(({ server, category, product }) => bounded.peekVariants(server.id, category.id, product.id) !== undefined);
    expect(held()).toEqual([false, true, true, true]);
    expect(bounded.bytes).toBe(maxBytes);

    const first = products[0]!;
    const asked = fake.requestsTo('variants').length;
    await bounded.variants(first.server.id, first.category.id, first.product.id);
    expect(fake.requestsTo('variants')).toHaveLength(asked + 1);
    // It came back in; the oldest went to make room (the one after it too, if the first is the larger).
    expect(held()[0]).toBe(true);
    expect(held()[1]).toBe(false);
    expect(held()[3]).toBe(true);
    expect(bounded.bytes).toBeLessThanOrEqual(maxBytes);
  });

  it('keeps only what the bot shows: a huge long description is not held in the cache', async () => {
    const vip = findProduct(fake.shop, 'VIP');
    // Shops paste whole pages (images inlined as base64) into the long description; the bot never shows it.
    vip.product.descriptions = { short: 'Ranga VIP', long: `<p>${'Opis z obrazkiem '.repeat(20_000)}</p>` };
    const huge = Buffer.from(vip.product.descriptions.long!).toString('base64').slice(0, 64);

    const offer = await cache.server(vip.server.id);
    const variants = await cache.variants(vip.server.id, vip.category.id, vip.product.id);

    for (const cached of [offer, variants]) {
      expect(JSON.stringify(cached)).not.toContain(huge);
      expect(JSON.stringify(cached).length).toBeLessThan(20_000);
    }
    expect(offer.categories[0]?.products.find((product) => product.name === 'VIP')?.descriptions?.short).toBe('Ranga VIP');
  });

  it('caches variants per product', async () => {
    const vip = findProduct(fake.shop, 'VIP');
    const svip = findProduct(fake.shop, 'SVIP');
    expect(cache.peekVariants(vip.server.id, vip.category.id, vip.product.id)).toBeUndefined();
    const [a, b] = await Promise.all([
      cache.variants(vip.server.id, vip.category.id, vip.product.id),
      cache.variants(vip.server.id, vip.category.id, vip.product.id),
    ]);
    expect(a).toBe(b);
    await cache.variants(svip.server.id, svip.category.id, svip.product.id);
    await cache.variants(vip.server.id, vip.category.id, vip.product.id);
    expect(fake.requestsTo('variants')).toHaveLength(2);
    expect(cache.peekVariants(vip.server.id, vip.category.id, vip.product.id)).toBe(a);
  });

  it('dropProduct forgets the product variants and the server offer under every alias', async () => {
    const vip = findProduct(fake.shop, 'VIP');
    const svip = findProduct(fake.shop, 'SVIP');
    await cache.server('survival');
    await cache.variants(vip.server.id, vip.category.id, vip.product.id);
    await cache.variants(svip.server.id, svip.category.id, svip.product.id);

    cache.dropProduct(vip.server.id, vip.category.id, vip.product.id);
    expect(cache.peekVariants(vip.server.id, vip.category.id, vip.product.id)).toBeUndefined();
    expect(cache.peekServer('survival')).toBeUndefined();
    expect(cache.peekServer(vip.server.id)).toBeUndefined();
    expect(cache.peekVariants(svip.server.id, svip.category.id, svip.product.id)).toBeDefined();

    // The offer changed in the panel: the next read sees the change.
    vip.product.variants.splice(0, 1);
    const fresh = await cache.variants(vip.server.id, vip.category.id, vip.product.id);
    expect(fresh.variants).toHaveLength(2);
    expect(fake.requestsTo('variants')).toHaveLength(3);
  });

  it('does not store a result that was in flight when the product was dropped', async () => {
    const vip = findProduct(fake.shop, 'VIP');
    const hold = fake.hold('variants');
    const pending = cache.variants(vip.server.id, vip.category.id, vip.product.id);
    await hold.reached;
    cache.dropProduct(vip.server.id, vip.category.id, vip.product.id);
    hold.release();
    expect((await pending).variants).toHaveLength(3); // the caller still gets its answer
    expect(cache.peekVariants(vip.server.id, vip.category.id, vip.product.id)).toBeUndefined();
  });

  it('does not cache failures; concurrent callers share the failure', async () => {
    fake.failNext('servers', { status: 500, body: { success: false, type: 'error', message: 'boom' } });
    const results = await Promise.allSettled([cache.servers(), cache.servers(), cache.servers()]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const reason = (results[0] as PromiseRejectedResult).reason as unknown;
    expect(reason).toBeInstanceOf(StoreError);
    expect(fake.requestsTo('servers')).toHaveLength(1);
    expect(cache.peekServers()).toBeUndefined();

    await expect(cache.servers()).resolves.toHaveLength(2);
    expect(fake.requestsTo('servers')).toHaveLength(2);
  });

  it('turns a synchronous throw of the source into a rejection', async () => {
    const broken: OfferSource = {
      listServers: () => {
        throw new Error('sync');
      },
      getServer: () => Promise.reject(new Error('unused')),
      getVariants: () => Promise.reject(new Error('unused')),
    };
    await expect(makeCache(broken).servers()).rejects.toThrow('sync');
  });

  it('dropAll forgets everything, and oldestEntryAgeMs reports the oldest fresh entry', async () => {
    expect(cache.oldestEntryAgeMs()).toBeUndefined();
    await cache.servers();
    now += 1_000;
    await cache.server('skyblock');
    now += 2_000;
    expect(cache.oldestEntryAgeMs()).toBe(3_000);

    now += TTL - 3_000; // the servers list expires, the skyblock offer is 59 s old
    expect(cache.oldestEntryAgeMs()).toBe(TTL - 1_000);

    cache.dropAll();
    expect(cache.oldestEntryAgeMs()).toBeUndefined();
    expect(cache.peekServer('skyblock')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
