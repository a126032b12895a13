import { ButtonStyle, ComponentType, type SendableChannels } from 'discord.js';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { cartRoutes } from '../../../commands/cart/routes.js';
import { checkoutRoutes } from '../../../commands/checkout/routes.js';
import { shortRef } from '../../../src/services/short-ref.js';
import type { ShopFixture } from '../../fakes/spaceis/fake-spaceis.js';
import { defaultShop } from '../../fakes/spaceis/fixtures.js';
import { addToCart, Member, openVariant, VIP_30 } from '../../support/buyer.js';
import { useHarness } from '../../support/harness.js';
import { button, isDisplay, optionLabels, textOf, theSelect } from '../../support/ui.js';
import { en } from '../../../src/i18n/en.js';


describe('when Discord or the buyers misbehave', () => {
  const h = useHarness();

  it('resumes after the gateway asks it to reconnect, and serves the next interaction', async () => {
    const resumed = h.discord.nextResume();
    h.discord.requestReconnect();
    await resumed;
    expect(optionLabels((await new Member(h).run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it('identifies anew after the session is invalidated, and serves the next interaction', async () => {
    const identified = h.discord.nextReady();
    const before = h.discord.identifyCount;
    h.discord.invalidateSession(false);
    await identified;
    expect(h.discord.identifyCount).toBe(before + 1);
    expect(optionLabels((await new Member(h).run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it('applies every one of many simultaneous Add to cart presses, and members never wait on each other', async () => {
    const member = new Member(h);
    await openVariant(member, VIP_30);
    const menu = member.message!;
    const addId = button(menu, en.quantity.addToCart).custom_id!;
    const others = [new Member(h), new Member(h), new Member(h)];
    for (const other of others) await openVariant(other, VIP_30);

    const presses = await Promise.all([
      ...Array.from({ length: 12 }, () => h.discord.click(member.user, menu, addId)),
      ...others.map((other) => h.discord.click(other.user, other.message!, button(other.message!, en.quantity.addToCart).custom_id!)),
    ]);
    await Promise.all(presses.map((press) => press.settled()));

    expect(textOf((await member.run('cart')).message!)).toContain('1. 12 × VIP — 30 dni');
    for (const other of others) expect(textOf((await other.run('cart')).message!)).toContain('1. 1 × VIP — 30 dni');
  });

  it('answers a crash inside a handler with an apology and a reference that is also in the log', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    const spy = vi.spyOn(h.bot.services.carts, 'lines').mockRejectedValueOnce(new Error('disk on fire'));
    try {
      const reply = await member.run('checkout', { nick: 'Crashy' });
      const reference = /reference: ([0-9A-F]{8})$/.exec(reply.message!.text)?.[1];
      expect(reply.message!.text).toMatch(/^Something went wrong on our side\. Your cart is safe\./);
      expect(reference).toBeDefined();
      expect(h.logs.some((line) => line.includes(`"reference":"${reference}"`) && line.includes('disk on fire'))).toBe(true);
    } finally {
      spy.mockRestore();
    }
    // The process is still up and the cart is intact.
    expect(textOf((await member.run('cart')).message!)).toContain('1. 1 × VIP — 30 dni');
  });

  it('never crashes on tampered or random custom ids, and never touches another member’s cart (property)', async () => {
    const victim = new Member(h);
    await addToCart(victim, VIP_30, 8);
    const attacker = new Member(h);
    const victimCart = () => h.bot.services.storage.carts.read(h.discord.defaultGuildId, victim.user.id);
    const before = JSON.stringify(await victimCart());
    const logsBefore = h.logs.length;
    const channel = (await h.bot.client.channels.fetch(h.discord.defaultChannelId)) as SendableChannels;
    const refs = h.store.shop.servers.flatMap((server) => [
      shortRef(server.id),
      ...server.categories.flatMap((category) => [shortRef(category.id), ...category.products.map((product) => shortRef(product.id))]),
    ]);

    const part = fc.oneof(fc.constantFrom(...refs), fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/), fc.nat(200).map(String));
    const customId = fc
      .tuple(
        fc.constantFrom('v1', 'v2', 'x'),
        fc.constantFrom('shop', 'cart', 'co', 'adm', 'panel', 'links', 'nope'),
        fc.constantFrom('srv', 'srvp', 'cat', 'catp', 'prd', 'prdp', 'var', 'varp', 'qty', 'add', 'view', 'line', 'rm', 'clr', 'clry', 'co', 'lqty', 'links', 'resend', 'open', 'page', 'zzz'),
        fc.constantFrom(attacker.user.id, victim.user.id, '-', '123'),
        fc.array(part, { maxLength: 6 }),
      )
      .map(([version, scope, action, owner, args]) => [version, scope, action, owner, ...args].join(':').slice(0, 100));

    await fc.assert(
      fc.asyncProperty(customId, fc.array(fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/), { minLength: 1, maxLength: 3 }), async (id, values) => {
        const uniqueValues = [...new Set(values)];
        // Two messages: pressing the button may redraw its message (the attacker's own menu).
        const withButton = await channel.send({
          components: [
            { type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: id, label: 'x' }] },
          ],
        });
        const selectId = `${id.slice(0, 95)}:s`;
        const withSelect = await channel.send({
          components: [
            {
              type: ComponentType.ActionRow,
              components: [{ type: ComponentType.StringSelect, custom_id: selectId, options: uniqueValues.map((value) => ({ label: value, value })) }],
            },
          ],
        });
        const click = await (await h.discord.click(attacker.user, h.discord.message(withButton.channelId, withButton.id)!, id)).settled();
        expect(click.callbackType).toBeGreaterThan(0);
        const pick = await (
          await h.discord.select(attacker.user, h.discord.message(withSelect.channelId, withSelect.id)!, selectId, [uniqueValues[0]!])
        ).settled();
        expect(pick.callbackType).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );

    expect(JSON.stringify(await victimCart())).toBe(before);
    // Every tampered id got an ordinary answer ("out of date", "not yours", the current offer), never an apology.
    expect(h.logs.slice(logsBefore).filter((line) => line.includes('"handler failed"')).map((line) => line.slice(0, 600))).toEqual([]);
  });

  it('answers a route’s id on another kind of component as a tampered id, and its handler does not run', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 2);
    const cart = async () => JSON.stringify(await h.bot.services.storage.carts.read(h.discord.defaultGuildId, member.user.id));
    const before = await cart();
    const logsBefore = h.logs.length;
    const channel = (await h.bot.client.channels.fetch(h.discord.defaultChannelId)) as SendableChannels;
    const pressButton = async (customId: string) => {
      const sent = await channel.send({
        components: [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId, label: 'x' }] }],
      });
      return (await h.discord.click(member.user, h.discord.message(sent.channelId, sent.id)!, customId)).settled();
    };

    await openVariant(member, VIP_30);
    const menu = member.message!;
    const quantityId = theSelect(menu).custom_id!; // the quantity select (shop.chooseQuantity)
    const tampered = await pressButton(`${quantityId}:9`);
    expect(tampered.message!.text).toBe(en.common.expired);
    // The select's own id on a button: the same answer, where its handler would redraw the quantity menu.
    const asButton = await pressButton(quantityId);
    expect(asButton.message!.text).toBe(en.common.expired);
    expect(asButton.ephemeral).toBe(true);

    // "Other amount…" opens a form; sent back with the id of "Clear cart"'s confirmation, it must not clear the cart.
    await member.choose(en.quantity.other);
    const form = member.modal!;
    const submitAs = async (customId: string) =>
      (await h.discord.submitModal(member.user, { ...form, custom_id: customId }, { quantity: '5' }, { message: menu })).settled();
    const asForm = await submitAs(cartRoutes.confirmClear.build(member.user.id, {}));
    expect(asForm.message!.text).toBe(en.common.expired);
    // A form of the right kind without the route's field (the nick form reads "nick"): the same, not an apology.
    const otherForm = await submitAs(checkoutRoutes.nickForm.build(member.user.id, {}));
    expect(otherForm.message!.text).toBe(en.common.expired);

    expect(await cart()).toBe(before);
    const lines = h.logs.slice(logsBefore).map((line) => JSON.parse(line) as { msg: string; route?: string; level: number });
    expect(lines.filter((line) => line.msg === 'component does not fit its route: refused').map(({ route, level }) => ({ route, level }))).toEqual([
      { route: 'shop.chooseQuantity', level: 30 },
      { route: 'cart.confirmClear', level: 30 },
      { route: 'checkout.nickForm', level: 30 },
    ]);
    expect(lines.filter((line) => line.msg === 'handler failed')).toEqual([]);
  });
});

/** Names and descriptions far past Discord's limits, as a shop panel allows. */
function oversizedShop(): ShopFixture {
  const shop = defaultShop();
  const survival = shop.servers[0]!;
  survival.name = `Survival ${'Ś'.repeat(140)}`;
  const ranks = survival.categories[0]!;
  ranks.name = `Rangi ${'ą'.repeat(200)}`;
  const vip = ranks.products[0]!;
  vip.name = `VIP ${'ż'.repeat(300)}`;
  vip.descriptions = { short: `Opis ${'ę'.repeat(5000)}`, long: '' };
  for (const variant of vip.variants) variant.name = `${variant.name} ${'ó'.repeat(150)}`;
  for (const price of vip.variants[1]!.prices) price.name = `${price.name} ${'ł'.repeat(600)}`;
  return shop;
}

describe('names longer than Discord allows', () => {
  const h = useHarness({ shop: oversizedShop() });

  it('are shortened everywhere, from the menus to the DM, and never rejected by Discord', async () => {
    // The local Discord server refuses any message over Discord's limits (50035), failing the step.
    const member = new Member(h);
    const start = await member.run('shop');
    const survival = optionLabels(start.message!)[0]!;
    expect(survival.length).toBeLessThanOrEqual(100);
    expect(survival.endsWith('…')).toBe(true);
    await member.choose(survival);
    await member.choose(optionLabels(member.message!)[0]!);
    await member.choose(optionLabels(member.message!)[0]!);
    const variant = optionLabels(member.message!)[1]!;
    await member.choose(variant);
    await member.choose('99 ×');
    await member.press(en.quantity.addToCart);
    await member.press(en.added.viewCart);
    expect(textOf(member.message!)).toContain('99 ×');
    const dm = h.discord.waitForDm(member.user.id);
    await member.run('checkout', { nick: 'LongNames' });
    // Discord took the DM (the fake refuses what Discord would): display components within 4000 characters.
    const sent = await dm;
    expect(isDisplay(sent)).toBe(true);
    expect(sent.text.length).toBeLessThanOrEqual(4000);
  });
});
