import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { startHarness, type Harness } from '../support/harness.js';
import { textOf } from '../support/ui.js';

const DAY_MS = 86_400_000;
const EMPTY = 'Your cart is empty. Use /shop to browse the offer.';

/** CART_EXPIRY_DAYS is left at its default, 30 days, measured on the harness's clock. */
describe('cart expiry', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('empties a cart nobody touched for 30 days, and keeps one changed within them', async () => {
    const idle = new Member(h);
    const busy = new Member(h);
    await addToCart(idle, VIP_30, 2);
    await addToCart(busy, VIP_30, 1);

    h.clock.advance(20 * DAY_MS);
    await addToCart(busy, VIP_30, 1); // a change counts as a touch
    h.clock.advance(10 * DAY_MS + 60_000);

    expect(textOf((await idle.run('cart')).message!)).toContain(EMPTY);
    expect(textOf((await busy.run('cart')).message!)).toContain('1. 2 × 30 dni — VIP');
    // And across a restart: the expiry is stored with the cart, not kept in memory.
    await h.restart();
    expect(textOf((await busy.run('cart')).message!)).toContain('1. 2 × 30 dni — VIP');
    expect(textOf((await idle.run('cart')).message!)).toContain(EMPTY);
  });
});
