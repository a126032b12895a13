import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/logger.js';
import { CartService } from '../../../src/services/cart-service.js';
import { CheckoutService } from '../../../src/services/checkout-service.js';
import { CartRepository } from '../../../src/storage/carts.js';
import { CheckoutTimes } from '../../../src/storage/checkout-times.js';
import { NickRepository } from '../../../src/storage/nicks.js';
import { PaymentLinkRepository, type NewPaymentLink } from '../../../src/storage/payment-links.js';
import { StorageError } from '../../../src/storage/storage-error.js';

/** What checkout writes besides the cart: where each link was delivered (the delivery step only reports it). */

function setup() {
  const keyv = new Keyv();
  const clock = new ManualClock();
  const logger = createLogger('silent');
  const paymentLinks = new PaymentLinkRepository(keyv, logger);
  const nicks = new NickRepository(keyv);
  const carts = new CartService({ repository: new CartRepository(keyv, logger), nicks, clock });
  const checkout = new CheckoutService({ carts, nicks, checkoutTimes: new CheckoutTimes(keyv), paymentLinks, clock, logger });
  const draft: NewPaymentLink = {
    guildId: 'g1',
    userId: 'u1',
    nick: 'Steve_1',
    items: [{ variantId: 'v1', quantity: 1, serverName: 'Survival', productName: 'VIP', variantName: '30 dni' }],
    url: 'https://shop.example/pay/1',
    license: 'l',
    createdAt: clock.now(),
  };
  return { paymentLinks, checkout, draft };
}

describe('checkout service: recording where a link was delivered', () => {
  it('makes a DM the link’s home, and notes a reply beside it', async () => {
    const { paymentLinks, checkout, draft } = setup();
    const link = await paymentLinks.create(draft);
    expect(await checkout.recordDelivery(link, { kind: 'dm', channelId: 'c1', messageId: 'm1' })).toBe('recorded');
    expect((await paymentLinks.get('g1', link.id))?.delivery).toEqual({ kind: 'dm', channelId: 'c1', messageId: 'm1' });
    expect(await checkout.recordDelivery(link, { kind: 'reply' })).toBe('recorded');
    expect((await paymentLinks.get('g1', link.id))?.delivery).toEqual({ kind: 'dm', channelId: 'c1', messageId: 'm1', shownInReply: true });
  });

  it('keeps the reply noted when the DM that follows it becomes the link’s home', async () => {
    const { paymentLinks, checkout, draft } = setup();
    const link = await paymentLinks.create(draft);
    await checkout.recordDelivery(link, { kind: 'reply' });
    await checkout.recordDelivery(link, { kind: 'dm', channelId: 'c1', messageId: 'm1' });
    expect((await paymentLinks.get('g1', link.id))?.delivery).toEqual({ kind: 'dm', channelId: 'c1', messageId: 'm1', shownInReply: true });
  });

  it('records a reply alone when no DM is on record', async () => {
    const { paymentLinks, checkout, draft } = setup();
    const link = await paymentLinks.create(draft);
    await checkout.recordDelivery(link, { kind: 'reply' });
    expect((await paymentLinks.get('g1', link.id))?.delivery).toEqual({ kind: 'reply', shownInReply: true });
  });

  it('leaves a link withdrawn meanwhile alone and says the new DM must be withdrawn too', async () => {
    const { paymentLinks, checkout, draft } = setup();
    const link = await paymentLinks.create(draft);
    await paymentLinks.revoke('g1', link.id, 'moderator', draft.createdAt);
    expect(await checkout.recordDelivery(link, { kind: 'dm', channelId: 'c1', messageId: 'm1' })).toBe('withdrawn');
    expect((await paymentLinks.get('g1', link.id))?.delivery).toBeUndefined();
  });

  it('reports a storage failure as unrecorded instead of failing the member’s delivery', async () => {
    const { paymentLinks, checkout, draft } = setup();
    const link = await paymentLinks.create(draft);
    paymentLinks.update = () => Promise.reject(new StorageError('write', 'link:g1:x', new Error('disk full')));
    expect(await checkout.recordDelivery(link, { kind: 'dm', channelId: 'c1', messageId: 'm1' })).toBe('unrecorded');
  });
});
