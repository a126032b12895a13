import { describe, expect, it } from 'vitest';
import type { FixturePrice } from '../fakes/spaceis/fake-spaceis.js';
import { findProduct, findVariant } from '../fakes/spaceis/fixtures.js';
import { addToCart, Member, VIP_30, VIP_FOREVER } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { buttonLabels, textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';

const MINUTE = 60_000;

describe('What changed since it went into the cart', () => {
  const h = useHarness();

  /** Changes a variant's prices at the shop for the duration of `work`; the cached offer is then over a minute old. */
  async function withPrices(variant: string, change: (amount: number) => number, work: () => Promise<void>): Promise<void> {
    const { variant: fixture } = findVariant(h.store.shop, 'VIP', variant, { server: 'Survival' });
    const before = fixture.prices;
    fixture.prices = before.map((price): FixturePrice => ({ ...price, amount: change(Number(price.amount)) }));
    h.clock.advance(MINUTE + 1);
    try {
      await work();
    } finally {
      fixture.prices = before;
      h.clock.advance(10 * MINUTE);
    }
  }
  const dmOf = (member: Member) => h.discord.waitForDm(member.user.id);
  /** A member whose nick the bot remembers from an earlier order: Checkout goes straight on. */
  async function buyerWithNick(options: { locale?: string } = {}): Promise<Member> {
    const member = new Member(h, options);
    await h.bot.services.storage.nicks.set((await h.bot.services.stores.forGuild(h.discord.defaultGuildId))!.license, member.user.id, 'Price_Fan');
    return member;
  }

  it('price up: /cart shows was and now; the first checkout press asks once, Continue gives the link at the new prices', async () => {
    const buyer = await buyerWithNick();
    await addToCart(buyer, VIP_30, 2); // lowest 14.99
    await withPrices('30 dni', (amount) => amount + 2, async () => {
      const cart = textOf((await buyer.run('cart')).message!);
      expect(cart).toContain(`1. 2 × VIP — 30 dni 🔺 ${en.cart.priceChanged('PLN 14.99', 'PLN 16.99')}`);
      expect(cart).toContain('Przelewy24: **PLN 33.98**');

      const issuedBefore = h.store.paymentUrls.length;
      await buyer.press(en.cart.checkout);
      const question = textOf(buyer.message!);
      expect(question).toContain(en.checkout.pricesUpTitle);
      expect(question).toContain(`🔺 2 × VIP — 30 dni: ${en.cart.priceChanged('PLN 14.99', 'PLN 16.99')}`);
      expect(buttonLabels(buyer.message!)).toEqual([en.checkout.continueNewPrices, en.checkout.backToCart]);
      expect(h.store.paymentUrls.length).toBe(issuedBefore); // nothing issued yet

      // Back to the cart and checkout again: asked again, still nothing issued.
      await buyer.press(en.checkout.backToCart);
      expect(textOf(buyer.message!)).toContain(en.cart.priceChanged('PLN 14.99', 'PLN 16.99'));
      await buyer.press(en.cart.checkout);
      expect(textOf(buyer.message!)).toContain(en.checkout.pricesUpTitle);

      const dm = dmOf(buyer);
      await buyer.press(en.checkout.continueNewPrices);
      expect(textOf(buyer.message!)).toContain(en.checkout.sentTitle);
      expect(textOf(await dm)).toContain('30 dni');
      expect(h.store.paymentUrls.length).toBe(issuedBefore + 1);
      expect(h.store.issuedLinks.at(-1)!.items).toEqual([{ variantId: findVariant(h.store.shop, 'VIP', '30 dni', { server: 'Survival' }).variant.id, quantity: 2 }]);
    });
  });

  it('price down: /cart shows it, and checkout goes straight to the link', async () => {
    const buyer = await buyerWithNick();
    await addToCart(buyer, VIP_30);
    await withPrices('30 dni', (amount) => amount - 4, async () => {
      expect(textOf((await buyer.run('cart')).message!)).toContain(`🔻 ${en.cart.priceChanged('PLN 14.99', 'PLN 10.99')}`);
      const dm = dmOf(buyer);
      await buyer.press(en.cart.checkout);
      expect(textOf(buyer.message!)).toContain(en.checkout.sentTitle);
      expect(textOf(buyer.message!)).not.toContain(en.checkout.pricesUpTitle);
      await dm;
    });
  });

  it('a variant removed from the offer is marked, left out of the link and named; the rest is issued', async () => {
    const buyer = await buyerWithNick();
    await addToCart(buyer, VIP_30);
    await addToCart(buyer, VIP_FOREVER);
    const vip = findProduct(h.store.shop, 'VIP', { server: 'Survival' }).product;
    const index = vip.variants.findIndex((variant) => variant.name === 'Na zawsze');
    const [removed] = vip.variants.splice(index, 1);
    h.clock.advance(MINUTE + 1);
    try {
      const cart = textOf((await buyer.run('cart')).message!);
      expect(cart).toContain(`2. 1 × VIP — Na zawsze ⚠️ ${en.cart.goneMark}`);
      expect(cart).toContain('Przelewy24: **PLN 14.99**'); // the estimate is of what will be in the link

      const dm = dmOf(buyer);
      await buyer.press(en.cart.checkout);
      const reply = textOf(buyer.message!);
      expect(reply).toContain(en.checkout.sentTitle);
      expect(reply).toContain(en.checkout.leftOut('1 × VIP — Na zawsze'));
      expect(h.store.issuedLinks.at(-1)!.items.map((item) => item.variantId)).toEqual([findVariant(h.store.shop, 'VIP', '30 dni', { server: 'Survival' }).variant.id]);
      const dmText = textOf(await dm);
      expect(dmText).toContain('30 dni');
      expect(dmText).not.toContain('Na zawsze');
    } finally {
      vip.variants.splice(index, 0, removed!);
      h.clock.advance(10 * MINUTE);
    }
  });

  it('the offer unreachable: /cart shows the remembered prices as unconfirmed, and checkout still issues the link', async () => {
    const buyer = await buyerWithNick();
    await addToCart(buyer, VIP_30, 2);
    h.clock.advance(10 * MINUTE);
    // A proxy's page instead of the offer: unreadable, though not enough to make the bot rest the store.
    h.store.failNext('variants', { raw: '<html>Bad gateway</html>', status: 200 }, 20);
    try {
      const cart = textOf((await buyer.run('cart')).message!);
      expect(cart).toContain(en.cart.pricesUnconfirmed);
      expect(cart).toContain('Przelewy24: **PLN 29.98**');
      expect(cart).not.toContain(en.cart.goneMark);
      const dm = dmOf(buyer);
      await buyer.press(en.cart.checkout);
      expect(textOf(buyer.message!)).toContain(en.checkout.sentTitle);
      await dm;
    } finally {
      h.store.clearFaults("variants");
    }
  });

  it('a cart from before prices were remembered: no question, and /cart says its changes are unknown', async () => {
    const buyer = await buyerWithNick();
    await addToCart(buyer, VIP_30);
    const guildId = h.discord.defaultGuildId;
    const stored = await h.bot.services.storage.carts.read(guildId, buyer.user.id);
    await h.bot.services.storage.carts.write(guildId, buyer.user.id, { ...stored, lines: stored.lines.map(({ addedPrices: _prices, ...line }) => line) });
    await withPrices('30 dni', (amount) => amount + 5, async () => {
      const cart = textOf((await buyer.run('cart')).message!);
      expect(cart).toContain(en.cart.pricesUnknown);
      expect(cart).not.toContain('🔺');
      const dm = dmOf(buyer);
      await buyer.press(en.cart.checkout);
      expect(textOf(buyer.message!)).toContain(en.checkout.sentTitle);
      await dm;
    });
  });

  it('reads a product’s prices once a minute however many members look at their carts', async () => {
    const members = [await buyerWithNick(), await buyerWithNick(), await buyerWithNick()];
    for (const member of members) await addToCart(member, VIP_30);
    h.clock.advance(MINUTE + 1);
    const before = h.store.requestsTo('variants').length;
    for (const member of members) expect(textOf((await member.run('cart')).message!)).toContain('1. 1 × VIP — 30 dni');
    expect(h.store.requestsTo('variants').length - before).toBe(1);
    h.clock.advance(MINUTE + 1);
    for (const member of members) await member.run('cart');
    expect(h.store.requestsTo('variants').length - before).toBe(2);
  });

  it('in Polish', async () => {
    const buyer = await buyerWithNick();
    await addToCart(buyer, VIP_30);
    buyer.options.locale = 'pl';
    await withPrices('30 dni', (amount) => amount + 1, async () => {
      expect(textOf((await buyer.run('cart')).message!)).toContain(pl.cart.priceChanged('14,99\u00a0zł', '15,99\u00a0zł'));
      await buyer.press(pl.cart.checkout);
      const question = textOf(buyer.message!);
      expect(question).toContain(pl.checkout.pricesUpTitle);
      expect(question).toContain(pl.checkout.pricesUp);
      expect(buttonLabels(buyer.message!)).toEqual([pl.checkout.continueNewPrices, pl.checkout.backToCart]);
      const dm = dmOf(buyer);
      await buyer.press(pl.checkout.continueNewPrices);
      expect(textOf(buyer.message!)).toContain(pl.checkout.sentTitle);
      await dm;
    });
  });
});
