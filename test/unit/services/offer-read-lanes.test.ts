import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { offerReader } from '../../../src/services/catalog.js';
import { createStoreGate } from '../../../src/spaceis/gate.js';
import { OfferCache, type OfferSource } from '../../../src/spaceis/offer-cache.js';
import type { ProductVariants } from '../../../src/spaceis/schemas.js';

/**
 * Offer reads queue at the license's gate in the lane of the guild that asked, like payment links:
 * one guild flooding cold reads (a crowd opening many products) must not starve another's browsing.
 */
describe('offer reads and fairness between guilds', () => {
  it('serve another guild’s read in turn, not behind a whole crowd of the first guild’s reads', async () => {
    const clock = new ManualClock();
    const gate = createStoreGate({ now: () => clock.now(), maxConcurrent: 1 });
    const started: string[] = [];
    const pending: (() => void)[] = [];
    const answer = (product: string): Promise<ProductVariants> =>
      new Promise((resolve) => {
        started.push(product);
        pending.push(() => resolve({ product: { id: product, name: product }, variants: [] } as unknown as ProductVariants));
      });
    // The store behind the gate, as the client calls it: one request at a time, in the lane given.
    const source: OfferSource = {
      listServers: () => Promise.resolve([]),
      getServer: () => Promise.reject(new Error('not used')),
      getVariants: (_server, _category, product, options) => gate.run('GET', product, () => answer(product), options?.lane),
    };
    const offers = new OfferCache(source, { now: () => clock.now() });
    const readerA = offerReader(offers, async () => undefined, { lane: 'guild-a' });
    const readerB = offerReader(offers, async () => undefined, { lane: 'guild-b' });

    const crowd = Array.from({ length: 10 }, (_unused, index) => readerA.variants('s', 'c', `a${index}`));
    const other = readerB.variants('s', 'c', 'b');
    while (pending.length > 0) pending.shift()!();
    // Let every queued read start and finish in turn.
    for (let step = 0; step < 20 && started.length < 11; step += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      while (pending.length > 0) pending.shift()!();
    }
    await Promise.all([...crowd, other]);
    expect(started.indexOf('b')).toBeLessThanOrEqual(2);
  });
});
