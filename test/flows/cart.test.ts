import { InteractionResponseType } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { addToCart, Member, openVariant, SKY_VIP, VIP_30, VIP_FOREVER } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { buttonLabels, optionLabels, textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';

const DAY_MS = 86_400_000;
const EMPTY = en.cart.empty;

describe('the cart', () => {
  const h = useHarness();

  it('adds an item, confirms it and offers View cart and Continue shopping', async () => {
    const member = new Member(h);
    const added = await addToCart(member, VIP_30, 2);
    expect(textOf(added.message!)).toContain(en.added.title);
    expect(textOf(added.message!)).toContain('2 × VIP — 30 dni');
    expect(buttonLabels(added.message!)).toEqual([en.added.viewCart, en.added.continueShopping]);

    await member.press(en.added.continueShopping);
    expect(optionLabels(member.message!)).toEqual(['VIP', 'SVIP', 'Ranga Łowca']);
  });

  it('lists the lines with an estimate per payment method every line offers', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 2); // p24 14.99, paypal 15.49, blik 14.99
    await addToCart(member, VIP_FOREVER, 1); // p24 49.99, blik 49.99 (no paypal)
    const cart = await member.run('cart');
    const text = textOf(cart.message!);
    expect(text).toContain('1. 2 × VIP — 30 dni');
    expect(text).toContain('2. 1 × VIP — Na zawsze');
    expect(text).toContain('Przelewy24: **PLN 79.97**');
    expect(text).toContain('BLIK: **PLN 79.97**');
    expect(text).not.toContain('PayPal');
    expect(text).toContain('An estimate only: the shop computes the final amount on the payment page');
    expect(buttonLabels(cart.message!)).toEqual([en.cart.checkout, en.gift.button, en.cart.changeNick, en.cart.clear, en.links.myLinks]);
  });

  it('raises the quantity when the same variant is added again, capped at 99 with a message', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 64);
    const again = await addToCart(member, VIP_30, 50);
    expect(textOf(again.message!)).toContain(en.added.capped(99));
    const cart = await member.run('cart');
    expect(textOf(cart.message!)).toContain('1. 99 × VIP — 30 dni');
    expect(textOf(cart.message!)).toContain(en.cart.linesHeading(1, 20));

    await openVariant(member, VIP_30);
    const full = await member.press(en.quantity.addToCart);
    expect(full.message!.text).toContain(en.rules.alreadyAtMax(99));
  });

  it('takes any quantity from 1 to 99 through a modal and refuses anything else', async () => {
    const member = new Member(h);
    await openVariant(member, VIP_30);
    const modal = await member.choose(en.quantity.other);
    expect(modal.callbackType).toBe(InteractionResponseType.Modal);
    await member.submit({ quantity: '0' });
    expect(member.message!.text).toContain(en.quantity.invalid('0'));
    await member.choose(en.quantity.other);
    await member.submit({ quantity: 'ab' });
    expect(member.message!.text).toContain('“ab” is not a quantity');
    await member.choose(en.quantity.other);
    await member.submit({ quantity: '37' });
    expect(textOf(member.message!)).toContain(`**${en.quantity.quantity}:** 37`);
    await member.press(en.quantity.addToCart);
    expect(textOf(member.message!)).toContain('37 × VIP — 30 dni');
  });

  it('keeps items from one server unless multi-server carts are on', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    const refused = await addToCart(member, SKY_VIP);
    expect(refused.message!.text).toContain(en.rules.otherServer('Survival'));
    expect(textOf((await member.run('cart')).message!)).toContain(en.cart.linesHeading(1, 20));

    await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { multiServerCart: true });
    try {
      const allowed = await addToCart(member, SKY_VIP);
      expect(textOf(allowed.message!)).toContain(en.added.cartSize(2));
      expect(textOf((await member.run('cart')).message!)).toContain('1 × VIP Wyspy — 30 dni (SkyBlock)');
    } finally {
      await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { multiServerCart: false });
    }
  });

  it('refuses a 21st line', async () => {
    const member = new Member(h);
    const coins = h.store.shop.servers[0]!.categories.find((category) => category.name === 'Monety')!.products[0]!;
    const path = { server: 'Survival', category: 'Monety', product: coins.name };
    // Twenty lines straight into storage, then the 21st through the menus.
    const { license } = (await h.bot.services.stores.forGuild(h.discord.defaultGuildId))!;
    await h.bot.services.storage.carts.write(h.discord.defaultGuildId, member.user.id, {
      license,
      lines: coins.variants.slice(0, 20).map((variant) => ({
        variantId: variant.id,
        quantity: 1,
        serverId: h.store.shop.servers[0]!.id,
        categoryId: h.store.shop.servers[0]!.categories.find((category) => category.name === 'Monety')!.id,
        productId: coins.id,
        serverName: 'Survival',
        productName: coins.name,
        variantName: variant.name,
      })),
    });
    await openVariant(member, { ...path, variant: '10 monet' }); // already in the cart: raising it is fine
    expect(textOf((await member.press(en.quantity.addToCart)).message!)).toContain(en.added.lineTotal(2));
    await openVariant(member, { ...VIP_30 });
    const refused = await member.press(en.quantity.addToCart);
    expect(refused.message!.text).toContain(en.rules.cartFull(20));
  });

  it('changes a line’s quantity, removes it and clears the cart after asking', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 2);
    await addToCart(member, VIP_FOREVER, 1);
    await member.run('cart');

    await member.choose('2 × VIP — 30 dni');
    expect(buttonLabels(member.message!)).toEqual([en.cart.remove, en.cart.backToCart]);
    await member.choose('5 ×');
    expect(textOf(member.message!)).toContain('1. 5 × VIP — 30 dni');

    await member.choose('5 × VIP — 30 dni');
    await member.choose(en.quantity.other);
    await member.submit({ quantity: '00' });
    expect(member.message!.text).toContain('“00” is not a quantity');
    await member.press(en.cart.backToCart);
    expect(textOf(member.message!)).toContain('1. 5 × VIP — 30 dni');

    await member.choose('5 × VIP — 30 dni');
    await member.press(en.cart.remove);
    expect(textOf(member.message!)).not.toContain('30 dni');
    expect(textOf(member.message!)).toContain('1. 1 × VIP — Na zawsze');

    await member.press(en.cart.clear);
    expect(textOf(member.message!)).toContain(en.cart.clearConfirm(1));
    await member.press(en.cart.cancel);
    expect(textOf(member.message!)).toContain('1 × VIP — Na zawsze');
    await member.press(en.cart.clear);
    await member.press(en.cart.clearYes);
    expect(textOf(member.message!)).toContain(en.cart.empty);
    expect(buttonLabels(member.message!)).toEqual([en.cart.openShop, en.links.myLinks]);
    await member.press(en.cart.openShop);
    expect(optionLabels(member.message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it('says how to start shopping when the cart is empty', async () => {
    const empty = await new Member(h).run('cart');
    expect(textOf(empty.message!)).toContain(en.cart.empty);
    const polish = await new Member(h, { locale: 'pl' }).run('cart');
    expect(textOf(polish.message!)).toContain(pl.cart.empty);
  });

  it('keeps one cart per member: two members never see each other’s lines', async () => {
    const alice = new Member(h);
    const bob = new Member(h);
    await addToCart(alice, VIP_30, 3);
    await addToCart(bob, VIP_FOREVER, 1);
    expect(textOf((await alice.run('cart')).message!)).not.toContain('Na zawsze');
    expect(textOf((await bob.run('cart')).message!)).not.toContain('30 dni');
  });

  it('keeps the cart and the open menus working across a restart', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 4);
    await openVariant(member, VIP_FOREVER);
    const menu = member.message!;

    await h.restart();

    // The quantity menu opened before the restart still works, and the cart is intact.
    await member.choose('2 ×', menu);
    await member.press(en.quantity.addToCart);
    await member.press(en.added.viewCart);
    const text = textOf(member.message!);
    expect(text).toContain('1. 4 × VIP — 30 dni');
    expect(text).toContain('2. 2 × VIP — Na zawsze');
  });
});

/** CART_EXPIRY_DAYS is left at its default, 30 days, measured on the harness's clock. */
describe('cart expiry', () => {
  const h = useHarness();

  it('empties a cart nobody touched for 30 days, and keeps one changed within them', async () => {
    const idle = new Member(h);
    const busy = new Member(h);
    await addToCart(idle, VIP_30, 2);
    await addToCart(busy, VIP_30, 1);

    h.clock.advance(20 * DAY_MS);
    await addToCart(busy, VIP_30, 1); // a change counts as a touch
    h.clock.advance(10 * DAY_MS + 60_000);

    expect(textOf((await idle.run('cart')).message!)).toContain(EMPTY);
    expect(textOf((await busy.run('cart')).message!)).toContain('1. 2 × VIP — 30 dni');
    // And across a restart: the expiry is stored with the cart, not kept in memory.
    await h.restart();
    expect(textOf((await busy.run('cart')).message!)).toContain('1. 2 × VIP — 30 dni');
    expect(textOf((await idle.run('cart')).message!)).toContain(EMPTY);
  });
});
