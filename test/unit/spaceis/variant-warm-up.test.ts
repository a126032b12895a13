import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { StoreError } from '../../../src/spaceis/errors.js';
import { WARM_UP_LANE } from '../../../src/spaceis/gate-rules.js';
import { LocalGate } from '../../../src/spaceis/local-gate.js';
import { OfferCache, type OfferSource } from '../../../src/spaceis/offer-cache.js';
import type { ProductVariants, Server, ServerOffer } from '../../../src/spaceis/schemas.js';
import { VariantWarmUp } from '../../../src/spaceis/variant-warm-up.js';

/**
 * The background read of a license's variants, alone: a store behind a real LocalGate that counts
 * what it is asked, in which lane, and fails a product when told to; time moves with the clock.
 */
const SERVERS = [{ id: 's1', name: 'Survival' }, { id: 's2', name: 'SkyBlock' }] as Server[];
const PRODUCTS: Record<string, string[]> = { s1: ['vip', 'svip', 'klucz'], s2: ['kilof'] };

class CountingStore implements OfferSource {
  readonly variantCalls: string[] = [];
  readonly lanes = new Set<string | undefined>();
  readonly failing = new Map<string, StoreError>();
  constructor(private readonly gate: LocalGate) {}
  listServers(): Promise<Server[]> {
    return Promise.resolve(SERVERS);
  }
  getServer(param: string, options?: { lane?: string }): Promise<ServerOffer> {
    this.lanes.add(options?.lane);
    const products = (PRODUCTS[param] ?? []).map((id) => ({ id, name: id.toUpperCase() }));
    return this.gate.run('GET', `/server/${param}`, () => Promise.resolve({ categories: [{ id: 'c', name: 'Rangi', products }] } as unknown as ServerOffer), options?.lane);
  }
  getVariants(serverId: string, _category: string, productId: string, options?: { lane?: string }): Promise<ProductVariants> {
    this.lanes.add(options?.lane);
    return this.gate.run(
      'GET',
      `/variants/${productId}`,
      () => {
        this.variantCalls.push(`${serverId}/${productId}`);
        const failure = this.failing.get(productId);
        if (failure) return Promise.reject(failure);
        return Promise.resolve({ product: { id: productId, name: productId }, variants: [{ id: `${productId}-30`, name: '30 dni', prices: [] }] } as unknown as ProductVariants);
      },
      options?.lane,
    );
  }
}

function license() {
  const clock = new ManualClock();
  const gate = new LocalGate({ now: () => clock.now() });
  const store = new CountingStore(gate);
  const offers = new OfferCache(store, { now: () => clock.now() });
  const warmUp = new VariantWarmUp({ offers, gate, now: () => clock.now() });
  return { clock, gate, store, offers, warmUp };
}

describe('the background read of a license’s variants', () => {
  it('reads every product once, in its own lane at the gate, however many searches start it', async () => {
    const { store, offers, warmUp } = license();
    warmUp.start(SERVERS);
    warmUp.start(SERVERS);
    warmUp.start([SERVERS[1]!]);
    await warmUp.settled();
    expect(store.variantCalls.sort()).toEqual(['s1/klucz', 's1/svip', 's1/vip', 's2/kilof']);
    expect([...store.lanes]).toEqual([WARM_UP_LANE]);
    expect(offers.peekVariants('s1', 'c', 'vip')?.variants[0]?.name).toBe('30 dni');
  });

  it('reads once per offer lifetime: again only once the cached variants have expired', async () => {
    const { clock, store, offers, warmUp } = license();
    warmUp.start(SERVERS);
    await warmUp.settled();
    clock.advance(offers.ttlMs - 1);
    warmUp.start(SERVERS);
    await warmUp.settled();
    expect(store.variantCalls).toHaveLength(4);

    clock.advance(1);
    warmUp.start(SERVERS);
    await warmUp.settled();
    expect(store.variantCalls).toHaveLength(8);
  });

  it('skips what members already read, and a server added later is read in the same lifetime', async () => {
    const { store, offers, warmUp } = license();
    await offers.server('s1');
    await offers.variants('s1', 'c', 'vip');
    warmUp.start([SERVERS[0]!]);
    await warmUp.settled();
    warmUp.start(SERVERS);
    await warmUp.settled();
    expect(store.variantCalls.sort()).toEqual(['s1/klucz', 's1/svip', 's1/vip', 's2/kilof']);
  });

  it('gives up for this lifetime when the store throttles the license, and leaves one product’s refusal behind', async () => {
    const { store, gate, warmUp } = license();
    store.failing.set('vip', new StoreError({ kind: 'http', status: 404, message: 'gone' }));
    store.failing.set('klucz', new StoreError({ kind: 'http', status: 429, message: 'slow down', retryAfterSeconds: 20 }));
    warmUp.start(SERVERS);
    await warmUp.settled();
    // vip refused (one product), svip read, klucz throttled: the rest waits for the next lifetime.
    expect(store.variantCalls).toEqual(['s1/vip', 's1/svip', 's1/klucz']);
    expect(gate.load.paused).toBe(true);
    warmUp.start(SERVERS);
    await warmUp.settled();
    expect(store.variantCalls).toHaveLength(3);
  });
});
