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
    expect((await new Member(h, at(stranger)).run('shop')).message!.content).toBe(en.shop.notSetUp);
    expect((await new Member(h, { ...at(stranger), locale: 'pl' }).run('shop')).message!.content).toBe(pl.shop.notSetUp);
    expect(h.store.requests.length).toBe(requests);

    const admin = new Member(h, { ...at(stranger), permissions: ADMIN });
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain(en.admin.defaultLicenseRefused);
    const polishAdmin = new Member(h, { ...at(stranger), permissions: ADMIN, locale: 'pl' });
    expect(textOf((await polishAdmin.sub('shop-admin', 'status')).message!)).toContain(pl.admin.defaultLicenseRefused);
    expect((await admin.sub('shop-admin', 'servers')).message!.content).toBe(en.admin.defaultLicenseRefused);
    expect(h.store.requests.length).toBe(requests);

    // Their own license: the server sells; clearing it again says why there is no shop.
    h.store.otherKeys.add(GUILD_KEY);
    await admin.sub('shop-admin', 'license set');
    await admin.submit({ key: GUILD_KEY });
    expect(optionLabels((await new Member(h, at(stranger)).run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
    expect(h.store.requests.at(-1)!.headers.authorization).toBe(`Bearer ${GUILD_KEY}`);
    expect((await admin.sub('shop-admin', 'license clear')).message!.content).toBe(en.admin.licenseClearedRefused);
    expect((await new Member(h, at(stranger)).run('shop')).message!.content).toBe(en.shop.notSetUp);
  });
});
