import { PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MEMBER_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import type { ShopFixture } from '../fakes/spaceis/fake-spaceis.js';
import { defaultShop, otherShop, withNumberedRanks } from '../fakes/spaceis/fixtures.js';
import { DEFAULT_OFFER_TTL_MS } from '../../src/spaceis/offer-cache.js';
import { en } from '../../src/i18n/en.js';
import { Member } from '../support/buyer.js';
import { useHarness, type Harness } from '../support/harness.js';

/**
 * The first `/shop item:` keystroke after the offer a server reads from changed, on every path that
 * changes it: the answer must come from what the change already read, since autocomplete cannot
 * wait for the store. Each test holds the store from the moment the admin's answer came, so a
 * suggestion can only come from the cache, where no product's variants are read yet; before the
 * fix, those paths answered nothing after autocomplete's 2 s budget.
 *
 * Every path runs on two offers: the plain one, and one with products named like VIP's variant
 * ("Rank 30" beside "VIP — 30 dni"), where "vip 30" hits some product with each word and no product
 * with both; until a product's variants are read, VIP must still be suggested for "30".
 */

const ADMIN = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild;

/** What a member typing `typed` is suggested first, with every store read held until the answer came. */
async function firstSuggestions(h: Harness, typed: string): Promise<string[]> {
  const holds = [h.store.hold('servers'), h.store.hold('server'), h.store.hold('variants')];
  const member = new Member(h);
  const { username: _username, ...dispatch } = member.options;
  try {
    const handle = await h.discord.autocomplete(member.user, 'shop', { name: 'item', value: typed }, dispatch);
    return ((await handle.settled()).choices ?? []).map((choice) => choice.name);
  } finally {
    for (const hold of holds) hold.release();
    // A route the answer never asked keeps its hold queued: the next test's store must not find it.
    h.store.clearHolds();
  }
}

/** A guild that sold from the default license a while ago: its offer was read, then went stale. */
async function soldFromDefaultEarlier(h: Harness): Promise<void> {
  await new Member(h).run('shop');
  h.clock.advance(DEFAULT_OFFER_TTL_MS + 1);
}

async function setLicense(h: Harness, key: string): Promise<string> {
  const admin = new Member(h, { permissions: ADMIN, username: 'owner' });
  await admin.sub('shop-admin', 'license set');
  return (await admin.submit({ key })).message!.text;
}

async function adminRuns(h: Harness, path: string): Promise<Member> {
  const admin = new Member(h, { permissions: ADMIN, username: 'owner' });
  await admin.sub('shop-admin', path);
  return admin;
}

/** The offers every path runs on: `shape` turns a shop the store serves into that offer. */
const OFFERS: { offer: string; shape: (shop: ShopFixture) => ShopFixture }[] = [
  { offer: 'the plain offer', shape: (shop) => shop },
  { offer: 'an offer with "Rank 30" beside VIP\'s "30 dni"', shape: withNumberedRanks },
];

for (const { offer, shape } of OFFERS) {
  describe(`${offer}, first keystroke: a key of the same shop replacing the default license`, () => {
    const h = useHarness({ shop: shape(defaultShop()) });

    it('suggests the product at once', async () => {
      await soldFromDefaultEarlier(h);
      const key = 'same-shop-key-NEVER-LOG-ME-000111';
      h.store.otherKeys.add(key);
      expect(await setLicense(h, key)).toContain('its offer has 2 servers');
      expect((await firstSuggestions(h, 'vip 30'))[0]).toBe('VIP · Survival');
    });

    it('logs each autocomplete answer at debug level: the option, the outcome, how many suggestions, never what was typed', async () => {
      const before = h.logs.length;
      expect(await firstSuggestions(h, 'vip 30')).not.toHaveLength(0);
      const lines = h.logs.slice(before).filter((line) => line.includes('"autocomplete answered"'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 20, what: '/shop item:', outcome: 'answered', choices: expect.any(Number) });
      expect(JSON.parse(lines[0]!).choices).toBeGreaterThan(0);
      expect(lines[0]).not.toContain('vip 30');
    });
  });

  describe(`${offer}, first keystroke: a key of another shop`, () => {
    const h = useHarness({ shop: shape(defaultShop()) });

    it("suggests the other shop's product at once", async () => {
      await soldFromDefaultEarlier(h);
      const key = 'other-shop-key-NEVER-LOG-ME-000222';
      h.store.shopsByKey.set(key, shape(otherShop()));
      expect(await setLicense(h, key)).toContain('its offer has 2 servers');
      expect((await firstSuggestions(h, 'vip 30'))[0]).toBe('VIP · Creative');
    });
  });

  describe(`${offer}, first keystroke: a rotated key (the guild replaces its own key with a new one of the same shop)`, () => {
    const h = useHarness({ noDefaultLicense: true, shop: shape(defaultShop()) });

    it('suggests the product at once', async () => {
      const old = 'rotated-away-key-NEVER-LOG-ME-000333';
      const rotated = 'rotated-new-key-NEVER-LOG-ME-000444';
      h.store.otherKeys.add(old);
      h.store.otherKeys.add(rotated);
      await setLicense(h, old);
      h.clock.advance(DEFAULT_OFFER_TTL_MS + 1);
      h.store.revokedKeys.add(old);
      expect(await setLicense(h, rotated)).toContain('its offer has 2 servers');
      expect((await firstSuggestions(h, 'vip 30'))[0]).toBe('VIP · Survival');
    });
  });

  describe(`${offer}, first keystroke: license clear, back to the default license`, () => {
    const h = useHarness({ shop: shape(defaultShop()) });

    it("suggests the default license's product at once", async () => {
      const key = 'cleared-key-NEVER-LOG-ME-000555';
      h.store.shopsByKey.set(key, shape(otherShop()));
      await soldFromDefaultEarlier(h);
      await setLicense(h, key);
      const admin = await adminRuns(h, 'license clear');
      expect(admin.last!.message!.text).toContain("now sells from the bot's default license");
      expect((await firstSuggestions(h, 'vip 30'))[0]).toBe('VIP · Survival');
    });
  });

  describe(`${offer}, first keystroke: the demo switched on, then off again`, () => {
    const h = useHarness({ shop: shape(defaultShop()) });
    beforeAll(async () => {
      await soldFromDefaultEarlier(h);
    });

    it("demo on: suggests the demo shop's product at once", async () => {
      const admin = await adminRuns(h, 'license demo');
      expect(admin.last!.message!.text).toContain(en.admin.demoOn);
      expect((await firstSuggestions(h, 'klucz epicki'))[0]).toContain('Klucz Epicki');
    });

    it("demo off: suggests the default license's product at once", async () => {
      h.clock.advance(DEFAULT_OFFER_TTL_MS + 1);
      await adminRuns(h, 'license clear');
      expect((await firstSuggestions(h, 'vip 30'))[0]).toBe('VIP · Survival');
    });
  });
}
