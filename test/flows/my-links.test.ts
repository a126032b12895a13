import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { MAX_LINES, MAX_QUANTITY, type CartLine } from '../../src/cart/rules.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { keyFingerprint } from '../../src/security/license-id.js';
import { DEFAULT_MEMBER_PERMISSIONS, type FakeMessage } from '../fakes/discord/fake-discord.js';
import { allVariants, findProduct, findVariant, landmarks } from '../fakes/spaceis/fixtures.js';
import { addToCart, Member, openVariant, SKY_VIP, VIP_30, VIP_FOREVER } from '../support/buyer.js';
import { LICENSE_KEY, useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { button, buttonLabels, buttons, optionLabels, selects, textOf } from '../support/ui.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const COINS_370 = { server: 'Survival', category: 'Monety', product: landmarks.rangeProduct, variant: '370 monet' };
const EPIC_KEYS = { server: 'Survival', category: 'Klucze', product: landmarks.stringAmounts, variant: '5 kluczy' };

/** The links a member sees listed, each as its heading line: state icon, reference, state. */
const listed = (message: FakeMessage): string[] =>
  textOf(message)
    .split('\n')
    .filter((line) => line.startsWith('### '))
    .map((line) => line.slice(4));


/** A buyer's own links of the last days, from the cart's "My payment links" (moderators' /links is in links.test.ts). */
describe('My payment links, for the buyer', () => {
  const h = useHarness();

  const { moderator, links, checkout, dmNow } = linkSteps(h);

  it('lists their own links of the last 7 days from /cart and sends a pending one to their DMs again, unchanged', async () => {
    const buyer = new Member(h);
    const tooOld = await checkout(buyer, 'Week_Old');
    h.clock.advance(8 * DAY);
    const expired = await checkout(buyer, 'Buyer_Exp');
    h.clock.advance(25 * HOUR);
    const pending = await checkout(buyer, 'Buyer_New', VIP_30, 2);
    h.clock.advance(HOUR);

    await buyer.run('cart');
    await buyer.press(en.links.myLinks);
    const view = buyer.message!;
    expect(textOf(view)).toContain('Your payment links (last 7 days)');
    expect(textOf(view)).toContain(en.links.myWhatBotKnows);
    expect(listed(view)).toEqual([`🕒 ${pending.id} · Pending`, `⌛ ${expired.id} · Expired`]);
    expect(textOf(view)).not.toContain(tooOld.id);
    expect(textOf(view)).not.toContain(pending.url);
    expect(optionLabels(view)).toEqual([`${pending.id} · Buyer_New`]);

    const paymentRequests = h.store.requestsTo('paymentUrl').length;
    const dm = h.discord.waitForDm(buyer.user.id);
    await buyer.choose(`${pending.id} · Buyer_New`);
    const again = await dm;
    expect(button(again, en.checkout.pay).url).toBe(pending.url);
    expect(textOf(again)).toContain('2 × VIP — 30 dni');
    expect(h.store.requestsTo('paymentUrl')).toHaveLength(paymentRequests);
    expect(buyer.message!.text).toContain(`Link ${pending.id} is in your DMs again: the same link as before.`);
    // The new DM replaces the old one: one message carries the Pay button...
    expect(dmNow(pending)).toBeUndefined();

    // ...and a moderator's withdrawal reaches it.
    await links(moderator(), 'revoke', { link: pending.id });
    expect(buttons(h.discord.message(again.channel_id, again.id)!)).toEqual([]);

    await buyer.press(en.cart.backToCart);
    await buyer.press(en.links.myLinks);
    expect(listed(buyer.message!)).toEqual([`⛔ ${pending.id} · Withdrawn`, `⌛ ${expired.id} · Expired`]);
    expect(textOf(buyer.message!)).toContain('Withdrawn by a moderator');
    expect(selects(buyer.message!)).toHaveLength(0);
  });

  it('does not resend a link that expired while the list was open', async () => {
    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Late_Click');
    await buyer.run('cart');
    await buyer.press(en.links.myLinks);
    h.clock.advance(DAY);
    const dmsBefore = h.discord.messagesIn(issued.dm.channel_id).length;
    await buyer.choose(`${issued.id} · Late_Click`);
    expect(buyer.message!.text).toContain(`Link ${issued.id} can no longer be sent: it expired or was withdrawn.`);
    expect(listed(buyer.message!)).toEqual([`⌛ ${issued.id} · Expired`]);
    expect(h.discord.messagesIn(issued.dm.channel_id)).toHaveLength(dmsBefore);
  });

  it('says so when there is nothing from the last 7 days', async () => {
    const buyer = new Member(h);
    await buyer.run('cart');
    await buyer.press(en.links.myLinks);
    expect(textOf(buyer.message!)).toContain('You got no payment links in this server in the last 7 days.');
    expect(buttonLabels(buyer.message!)).toEqual([en.cart.backToCart]);
  });
});

describe('Buy again, from My payment links', () => {
  const h = useHarness();

  /** Fills the cart and checks out; returns the link's reference. The cooldown is waited out. */
  async function checkout(buyer: Member, items: [typeof VIP_30, number][]): Promise<string> {
    for (const [path, quantity] of items) await addToCart(buyer, path, quantity);
    const dm = h.discord.waitForDm(buyer.user.id);
    await buyer.run('checkout', { nick: 'Again_1' });
    const id = /Link reference: (\w+)/.exec(textOf(await dm))![1]!;
    h.clock.advance(MINUTE);
    return id;
  }

  async function buyAgain(buyer: Member, id: string): Promise<string> {
    await buyer.run('cart');
    await buyer.press(en.links.myLinks);
    await buyer.press(en.buyAgain.button(id));
    return textOf(buyer.message!);
  }

  it('puts the items back with their quantities, and leaves Checkout to the member', async () => {
    const buyer = new Member(h);
    const id = await checkout(buyer, [[VIP_30, 2], [COINS_370, 3]]);
    const links = h.store.requestsTo('paymentUrl').length;

    const text = await buyAgain(buyer, id);
    expect(text).toContain(en.buyAgain.title(id));
    expect(text).toContain(`• ${en.cart.line(2, '30 dni', 'VIP')}\n• ${en.cart.line(3, '370 monet', landmarks.rangeProduct)}`);
    expect(text).toContain(en.buyAgain.checkoutNote);
    expect(text).not.toContain(en.buyAgain.notAdded);
    expect(buttonLabels(buyer.message!)).toEqual([en.added.viewCart, en.links.myLinks]);
    expect(h.store.requestsTo('paymentUrl')).toHaveLength(links);

    await buyer.press(en.added.viewCart);
    const cart = textOf(buyer.message!);
    expect(cart).toContain(en.cart.line(2, '30 dni', 'VIP'));
    expect(cart).toContain(en.cart.line(3, '370 monet', landmarks.rangeProduct));
    expect(h.store.requestsTo('paymentUrl')).toHaveLength(links);
  });

  it('opens the member’s DM channel when Buy again starts a cart, as Add to cart does, so the next DM is a single request', async () => {
    const buyer = new Member(h);
    const id = await checkout(buyer, [[VIP_30, 1]]);
    // A restart forgets the DM channel opened for the first link.
    await h.restart();
    const opened = h.discord.waitForRequest('POST', /^\/users\/@me\/channels$/);
    await buyAgain(buyer, id);
    await opened;
    const before = h.discord.requests.length;
    const dm = h.discord.waitForDm(buyer.user.id);
    await buyer.run('checkout', { nick: 'Again_1' });
    await dm;
    const during = h.discord.requests.slice(before).map((request) => `${request.method} ${request.path}`);
    expect(during.filter((request) => request.includes('/users/@me/channels'))).toEqual([]);
  });

  it('names and skips an item the shop no longer sells, and adds the rest', async () => {
    const buyer = new Member(h);
    const id = await checkout(buyer, [[VIP_FOREVER, 1], [VIP_30, 1]]);
    const vip = findProduct(h.store.shop, 'VIP', { server: 'Survival' }).product;
    const removed = vip.variants.splice(vip.variants.findIndex((variant) => variant.name === 'Na zawsze'), 1);
    h.clock.advance(10 * MINUTE); // the cached offer expires
    try {
      const text = await buyAgain(buyer, id);
      expect(text).toContain(`${en.buyAgain.added}**\n• ${en.cart.line(1, '30 dni', 'VIP')}`);
      expect(text).toContain(`${en.buyAgain.notAdded}**\n• ${en.cart.line(1, 'Na zawsze', 'VIP')}: ${en.buyAgain.gone}`);
    } finally {
      vip.variants.push(...removed);
      h.clock.advance(10 * MINUTE);
    }
  });

  it('finds the items of a link recorded before links kept where their items sat, by names', async () => {
    const buyer = new Member(h);
    const id = await checkout(buyer, [[EPIC_KEYS, 4]]);
    await h.bot.services.storage.paymentLinks.update(h.discord.defaultGuildId, id, (link) => ({
      ...link,
      items: link.items.map(({ variantId, quantity, serverName, productName, variantName }) => ({ variantId, quantity, serverName, productName, variantName })),
    }));
    const text = await buyAgain(buyer, id);
    expect(text).toContain(`• ${en.cart.line(4, '5 kluczy', landmarks.stringAmounts)}`);
    expect(text).not.toContain(en.buyAgain.notAdded);
  });

  it('says what was added and what was not when the cart is full and a line is at 99', async () => {
    const buyer = new Member(h);
    const id = await checkout(buyer, [[VIP_30, 2], [EPIC_KEYS, 1]]);
    const vip30 = findVariant(h.store.shop, 'VIP', '30 dni', { server: 'Survival' });
    const line = (ref: typeof vip30, quantity: number): CartLine => ({
      variantId: ref.variant.id,
      quantity,
      serverId: ref.server.id,
      categoryId: ref.category.id,
      productId: ref.product.id,
      serverName: ref.server.name,
      productName: ref.product.name,
      variantName: ref.variant.name,
    });
    const coins = allVariants(h.store.shop, { category: 'Monety' }).slice(0, MAX_LINES - 1);
    await h.bot.services.storage.carts.write(h.discord.defaultGuildId, buyer.user.id, {
      license: keyFingerprint(LICENSE_KEY),
      lines: [line(vip30, 98), ...coins.map((coin) => line(coin, 1))],
    });

    const first = await buyAgain(buyer, id);
    expect(first).toContain(`• ${en.cart.line(2, '30 dni', 'VIP')} (${en.buyAgain.capped(MAX_QUANTITY)})`);
    expect(first).toContain(`• ${en.cart.line(1, '5 kluczy', landmarks.stringAmounts)}: ${en.rules.cartFull(MAX_LINES)}`);

    const second = await buyAgain(buyer, id);
    expect(second).toContain(en.buyAgain.nothingAdded);
    expect(second).toContain(`• ${en.cart.line(2, '30 dni', 'VIP')}: ${en.rules.alreadyAtMax(MAX_QUANTITY)}`);
    await h.bot.services.carts.clear({ guildId: h.discord.defaultGuildId, userId: buyer.user.id });
  });

  it('skips items of a server the admins hid since', async () => {
    const buyer = new Member(h);
    const id = await checkout(buyer, [[SKY_VIP, 1]]);
    const admin = new Member(h, { permissions: DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild });
    await admin.sub('shop-admin', 'servers');
    await admin.choose('Survival');
    try {
      const text = await buyAgain(buyer, id);
      expect(text).toContain(en.buyAgain.nothingAdded);
      expect(text).toContain(`• ${en.cart.line(1, '30 dni', 'VIP Wyspy')}: ${en.buyAgain.gone}`);
    } finally {
      await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { hiddenServerIds: [] });
    }
  });

  it('speaks Polish', async () => {
    const buyer = new Member(h, { locale: 'pl' });
    await openVariant(buyer, VIP_30);
    await buyer.press(pl.quantity.addToCart);
    const dm = h.discord.waitForDm(buyer.user.id);
    await buyer.run('checkout', { nick: 'Polak_1' });
    const id = /Numer linku: (\w+)/.exec(textOf(await dm))![1]!;
    expect(textOf(await dm)).toContain(`-# ${pl.checkout.dmReference(id)}`);
    h.clock.advance(MINUTE);
    await buyer.run('cart');
    await buyer.press(pl.links.myLinks);
    await buyer.press(pl.buyAgain.button(id));
    expect(textOf(buyer.message!)).toContain(`${pl.buyAgain.added}**\n• ${pl.cart.line(1, '30 dni', 'VIP')}`);
    expect(buttonLabels(buyer.message!)).toEqual([pl.added.viewCart, pl.links.myLinks]);
  });
});
