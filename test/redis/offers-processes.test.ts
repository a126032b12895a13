import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { startProcessPair, type ProcessPair } from '../support/process-pair.js';
import type { FakeSpaceIs } from '../fakes/spaceis/fake-spaceis.js';
import { addToCart, Member, openVariant, VIP_30 } from '../support/buyer.js';
import { textOf } from '../support/ui.js';

/**
 * Two bot processes on one Redis, selling from one license: the offer is read from the store once,
 * whatever process serves the menu, and a change one process learns of reaches the other.
 */
describe('the offer cache across bot processes (Redis)', () => {
  let pair: ProcessPair;
  let store: FakeSpaceIs;
  let discords: FakeDiscord[];
  beforeEach(async () => {
    pair = await startProcessPair('offers-processes');
    ({ store, discords } = pair);
  });

  afterEach(() => pair.end());

  it("asks the store once for a product's variants, whatever process serves the menu", async () => {
    await openVariant(new Member({ discord: discords[0]! }), VIP_30);
    const other = new Member({ discord: discords[1]! });
    await openVariant(other, VIP_30);

    expect(textOf(other.message!)).toContain('VIP — 30 dni');
    expect(store.requestsTo('variants')).toHaveLength(1);
    expect(store.requestsTo('servers')).toHaveLength(1);
    expect(store.requestsTo('server')).toHaveLength(1);
  });

  it('makes the other process read the product again after `invalid variant` at checkout in one', async () => {
    const [inA, inB] = [new Member({ discord: discords[0]! }), new Member({ discord: discords[1]! })];
    await addToCart(inA, VIP_30);
    await openVariant(inB, VIP_30);
    expect(store.requestsTo('variants')).toHaveLength(1);

    // The variant was renamed in the shop's panel; both processes still hold the old name.
    const vip = store.shop.servers[0]!.categories[0]!.products[0]!;
    vip.variants.find((variant) => variant.name === '30 dni')!.name = '30 dni (nowość)';
    store.failNext('paymentUrl', { status: 422, body: { success: false, type: 'error', message: 'invalid variant' } });
    expect((await inA.run('checkout', { nick: 'Stale' })).message!.text).toContain('invalid variant');
    await pair.bots[1]!.outputContains('offer dropped by another process');

    await openVariant(inB, { ...VIP_30, variant: '30 dni (nowość)' });
    expect(textOf(inB.message!)).toContain('VIP — 30 dni (nowość)');
    expect(store.requestsTo('variants')).toHaveLength(2);
  });
});
