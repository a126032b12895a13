import { readFileSync } from 'node:fs';
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { defaultShop, fixtureUuid, otherShop } from '../fakes/spaceis/fixtures.js';
import type { ShopFixture } from '../fakes/spaceis/fake-spaceis.js';
import { addToCart, Member, VIP_30, VIP_FOREVER } from '../support/buyer.js';
import { LICENSE_KEY, useHarness, type Harness } from '../support/harness.js';
import { button, optionLabels, textOf } from '../support/ui.js';

/**
 * The operator's default license (SPACEIS_API_KEY): what a rotated key keeps, and which Discord
 * servers may sell from it (DEFAULT_LICENSE_GUILDS).
 */

const MINUTE = 60_000;
const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands | PermissionFlagsBits.ManageGuild;
/** The same shop's new key, made in the SpaceIs panel after the old one leaked. */
const ROTATED_KEY = 'rotated-license-key-NEVER-LOG-ME-b2c4';
/** A key of another shop altogether. */
const OTHER_SHOP_KEY = 'other-shop-license-key-NEVER-LOG-ME-77';
const SHOP_LICENSE_ID = '6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
const OTHER_LICENSE_ID = '0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f6a';

const withLicenseId = (shop: ShopFixture, licenseId: string | undefined): ShopFixture => (licenseId ? { ...shop, licenseId } : shop);

/** Fills the cart, checks out, returns the link's reference (the cooldown is waited out). */
async function checkout(h: Harness, buyer: Member, nick: string): Promise<string> {
  const dm = h.discord.waitForDm(buyer.user.id);
  await buyer.run('checkout', { nick });
  const message = await dm;
  expect(button(message, en.checkout.pay).url).toBe(h.store.paymentUrls.at(-1));
  h.clock.advance(MINUTE);
  return /Link reference: (\w+)/.exec(textOf(message))![1]!;
}

async function buyAgain(buyer: Member, id: string): Promise<string> {
  await buyer.run('cart');
  await buyer.press(en.links.myLinks);
  await buyer.press(en.buyAgain.button(id));
  return textOf(buyer.message!);
}

describe.each([
  { answers: "carry the store's licenseId", licenseId: SHOP_LICENSE_ID },
  { answers: 'carry no licenseId', licenseId: undefined },
])('the operator rotates SPACEIS_API_KEY, and the store’s answers $answers', ({ licenseId }) => {
  const h = useHarness({ shop: withLicenseId(defaultShop(), licenseId) });

  it('keeps the carts of the same shop: /cart, Checkout and Buy again work with the new key', async () => {
    const buyer = new Member(h);
    await addToCart(buyer, VIP_30, 2);
    const linkId = await checkout(h, buyer, 'Before_Rot');
    await addToCart(buyer, VIP_FOREVER);

    // In the SpaceIs panel: a new key for the same shop, and the leaked one revoked.
    h.store.shopsByKey.set(ROTATED_KEY, h.store.shop);
    h.store.revokedKeys.add(LICENSE_KEY);
    // With the store's licenseId, the shop is recognised even though its servers changed meanwhile.
    if (licenseId) h.store.shop.servers.push({ id: fixtureUuid('server:creative'), name: 'Creative', slug: 'creative', categories: [] });
    await h.restart({ SPACEIS_API_KEY: ROTATED_KEY });

    const cart = await buyer.run('cart');
    expect(cart.message!.text).not.toContain(en.cart.licenseChanged);
    expect(textOf(cart.message!)).toContain(en.cart.line(1, 'Na zawsze', 'VIP'));
    const requests = h.store.requests.length;
    await checkout(h, buyer, 'After_Rot');
    expect(h.store.requests.slice(requests).map((request) => request.headers.authorization)).toContain(`Bearer ${ROTATED_KEY}`);
    expect(h.store.issuedLinks.at(-1)!.nick).toBe('After_Rot');

    const text = await buyAgain(buyer, linkId);
    expect(text).toContain(en.buyAgain.title(linkId));
    expect(text).toContain(en.cart.line(2, '30 dni', 'VIP'));
    expect(text).not.toContain(en.buyAgain.notAdded);

    // Neither key is kept or logged anywhere: the shop is remembered by ids only.
    for (const key of [LICENSE_KEY, ROTATED_KEY]) {
      for (const line of h.logs) expect(line).not.toContain(key);
      expect(readFileSync(h.storageFile).includes(Buffer.from(key))).toBe(false);
    }
  });

  it('still empties the cart, with the notice, when the new key is another shop’s', async () => {
    const buyer = new Member(h);
    await addToCart(buyer, VIP_30);
    const linkId = await checkout(h, buyer, 'Old_Shop');
    await addToCart(buyer, VIP_FOREVER);

    h.store.shopsByKey.set(OTHER_SHOP_KEY, withLicenseId(otherShop(), licenseId && OTHER_LICENSE_ID));
    await h.restart({ SPACEIS_API_KEY: OTHER_SHOP_KEY });

    const cart = await buyer.run('cart');
    expect(cart.message!.text).toContain(en.cart.licenseChanged);
    expect(textOf(cart.message!)).toContain('Your cart is empty');
    const text = await buyAgain(buyer, linkId);
    expect(text).toContain(en.buyAgain.notAdded);
    expect(text).toContain(en.buyAgain.gone);
  });
});

describe('DEFAULT_LICENSE_GUILDS: the Discord servers that may sell from the default license', () => {
  const h = useHarness();
  const GUILD_KEY = 'stranger-own-license-key-4d5e6f';
  const at = (guild: { id: string; channelId: string }) => ({ guildId: guild.id, channelId: guild.channelId });

  it('unset: every server the bot is in sells from it, as before', async () => {
    const guild = h.discord.addGuild({ name: 'Any guild' });
    expect(optionLabels((await new Member(h, at(guild)).run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it('set: a listed server sells; another is refused until its admins set their own license', async () => {
    const stranger = h.discord.addGuild({ name: 'Stranger guild' });
    await h.restart({ DEFAULT_LICENSE_GUILDS: `${h.discord.defaultGuildId}, 123456789012345678` });

    expect(optionLabels((await new Member(h).run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);

    const requests = h.store.requests.length;
    expect((await new Member(h, at(stranger)).run('shop')).message!.text).toBe(en.shop.notSetUp);
    expect((await new Member(h, { ...at(stranger), locale: 'pl' }).run('shop')).message!.text).toBe(pl.shop.notSetUp);
    expect(h.store.requests.length).toBe(requests);

    const admin = new Member(h, { ...at(stranger), permissions: ADMIN });
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain(en.admin.defaultLicenseRefused);
    const polishAdmin = new Member(h, { ...at(stranger), permissions: ADMIN, locale: 'pl' });
    expect(textOf((await polishAdmin.sub('shop-admin', 'status')).message!)).toContain(pl.admin.defaultLicenseRefused);
    expect((await admin.sub('shop-admin', 'servers')).message!.text).toBe(en.admin.defaultLicenseRefused);
    expect(h.store.requests.length).toBe(requests);

    // Their own license: the server sells; clearing it again says why there is no shop.
    h.store.otherKeys.add(GUILD_KEY);
    await admin.sub('shop-admin', 'license set');
    await admin.submit({ key: GUILD_KEY });
    expect(optionLabels((await new Member(h, at(stranger)).run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
    expect(h.store.requests.at(-1)!.headers.authorization).toBe(`Bearer ${GUILD_KEY}`);
    expect((await admin.sub('shop-admin', 'license clear')).message!.text).toBe(en.admin.licenseClearedRefused);
    expect((await new Member(h, at(stranger)).run('shop')).message!.text).toBe(en.shop.notSetUp);
  });
});
