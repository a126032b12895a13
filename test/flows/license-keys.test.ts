import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from '../../src/storage/keyv-store.js';
import { defaultShop } from '../fakes/spaceis/fixtures.js';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { ENCRYPTION_KEY, LICENSE_KEY, startHarness, type Harness } from '../support/harness.js';
import { optionLabels, textOf } from '../support/ui.js';

const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ManageGuild;
/** A guild whose own license does not open here is told so (see the unreadable-license process test). */
const NOT_SET_UP_CORRECTLY = "The shop isn't set up correctly right now. Please tell the server's admins; your cart is kept.";

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Two keys whose short (32-bit) fingerprints are equal, found the way anyone could: by trying. */
function keysWithOneFingerprint(): [string, string] {
  const seen = new Map<string, string>();
  for (let i = 0; ; i++) {
    const key = `colliding-license-key-${i}`;
    const short = sha256(key).slice(0, 8);
    const earlier = seen.get(short);
    if (earlier) return [earlier, key];
    seen.set(short, key);
  }
}

/** An offer the first key's shop does not have, so a buyer can tell which license served them. */
function creativeShop(): ReturnType<typeof defaultShop> {
  const shop = defaultShop();
  shop.servers[0]!.name = 'Creative';
  shop.servers[1]!.name = 'Lobby';
  return shop;
}

/** How earlier versions sealed a guild's key: `v1.…`, AES-256-GCM bound to nothing. */
function sealedByEarlierVersion(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(ENCRYPTION_KEY, 'base64'), iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

describe('licenses whose short fingerprints collide', () => {
  let h: Harness;
  const [KEY_A, KEY_B] = keysWithOneFingerprint();
  beforeAll(async () => {
    h = await startHarness({ noDefaultLicense: true });
    h.store.shopsByKey.set(KEY_A, defaultShop());
    h.store.shopsByKey.set(KEY_B, creativeShop());
  });
  afterAll(async () => {
    await h?.close();
  });

  it('are still two shops: each guild sells from its own key', async () => {
    expect(sha256(KEY_A).slice(0, 8)).toBe(sha256(KEY_B).slice(0, 8));
    const guildB = h.discord.addGuild({ name: 'Creative guild' });
    const at = { guildId: guildB.id, channelId: guildB.channelId };
    const adminA = new Member(h, { permissions: ADMIN });
    await adminA.sub('shop-admin', 'license set');
    await adminA.submit({ key: KEY_A });
    const adminB = new Member(h, { permissions: ADMIN, ...at });
    await adminB.sub('shop-admin', 'license set');
    await adminB.submit({ key: KEY_B });

    expect(optionLabels((await new Member(h).run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
    expect(optionLabels((await new Member(h, at).run('shop')).message!)).toEqual(['Creative', 'Lobby']);
    expect(h.store.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY_B}`);
    expect(optionLabels((await new Member(h).run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it('are two licenses to a cart: switching from one to the other empties it, with a note', async () => {
    const guild = h.discord.addGuild({ name: 'Switching guild' });
    const at = { guildId: guild.id, channelId: guild.channelId };
    const admin = new Member(h, { permissions: ADMIN, ...at });
    await admin.sub('shop-admin', 'license set');
    await admin.submit({ key: KEY_A });
    const buyer = new Member(h, at);
    await addToCart(buyer, VIP_30, 2);

    await admin.sub('shop-admin', 'license set');
    const saved = await admin.submit({ key: KEY_B });
    expect(saved.message!.content).toContain('License saved');
    const cart = await buyer.run('cart');
    expect(cart.message!.content).toContain("The shop's offer changed, so items from the previous offer were removed from your cart.");
    expect(textOf(cart.message!)).toContain('Your cart is empty');
  });
});

describe('a cart and link records after the upgrade to full license ids', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('keeps a cart stored with the short fingerprint, and records the full id with the link', async () => {
    const buyer = new Member(h);
    await addToCart(buyer, VIP_30, 2);
    // As an earlier version stored it: the license named by its 8-character fingerprint.
    const guildId = h.discord.defaultGuildId;
    await h.bot.services.carts.update(guildId, buyer.user.id, (cart) => ({ cart: { ...cart, license: sha256(LICENSE_KEY).slice(0, 8) }, result: undefined }));
    await h.restart();

    const cart = await buyer.run('cart');
    expect(cart.message!.content).toBe('');
    expect(textOf(cart.message!)).toContain('2 × 30 dni — VIP');
    await buyer.run('checkout', { nick: 'Upgraded' });
    expect(h.store.requestsTo('paymentUrl')).toHaveLength(1);
    const [link] = await h.bot.services.paymentLinks.listRecent(guildId);
    expect(link!.license).toBe(sha256(LICENSE_KEY));
  });
});

describe("a guild's sealed license", () => {
  let h: Harness;
  const GUILD_KEY = 'guild-own-license-key-sealed-1';
  beforeAll(async () => {
    h = await startHarness({ noDefaultLicense: true });
    h.store.otherKeys.add(GUILD_KEY);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('does not open when copied into another guild’s settings: that guild does not sell from it', async () => {
    const admin = new Member(h, { permissions: ADMIN });
    await admin.sub('shop-admin', 'license set');
    await admin.submit({ key: GUILD_KEY });
    const other = h.discord.addGuild({ name: 'Copycat' });
    const license = (await h.bot.services.guildSettings.get(h.discord.defaultGuildId)).license!;
    await h.bot.services.guildSettings.set(other.id, { license });
    await h.restart();

    const requestsBefore = h.store.requests.length;
    expect((await new Member(h, { guildId: other.id, channelId: other.channelId }).run('shop')).message!.content).toBe(NOT_SET_UP_CORRECTLY);
    expect(h.store.requests.length).toBe(requestsBefore);
    // Where it belongs it still opens, after the restart too.
    expect(optionLabels((await new Member(h).run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it('sealed by an earlier version (bound to no guild) still opens, and is re-sealed bound to its guild on first read', async () => {
    const guild = h.discord.addGuild({ name: 'Old guild' });
    const at = { guildId: guild.id, channelId: guild.channelId };
    const legacy = sealedByEarlierVersion(GUILD_KEY);
    await h.bot.services.guildSettings.set(guild.id, { license: { sealed: legacy, fingerprint: sha256(GUILD_KEY).slice(0, 8), setBy: '1', setAt: 0 } });
    await h.restart();

    expect(optionLabels((await new Member(h, at).run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
    expect(h.store.requests.at(-1)!.headers.authorization).toBe(`Bearer ${GUILD_KEY}`);
    const storage = await openStorage(h.config.STORAGE_URL);
    try {
      const stored = (await storage.keyv.get(`guild:${guild.id}`)) as { license: { sealed: string } };
      expect(stored.license.sealed.split('.')[0]).toBe('v2');
    } finally {
      await storage.close();
    }
    await h.restart();
    expect(optionLabels((await new Member(h, at).run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it('is let go (client, key and offer) as soon as its guild clears it', async () => {
    const key = 'guild-license-cleared-soon';
    h.store.otherKeys.add(key);
    const guild = h.discord.addGuild({ name: 'Clearing guild' });
    const at = { guildId: guild.id, channelId: guild.channelId };
    const admin = new Member(h, { permissions: ADMIN, ...at });
    await admin.sub('shop-admin', 'license set');
    await admin.submit({ key });
    const buyer = new Member(h, at);
    expect(optionLabels((await buyer.run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
    const held = h.bot.services.stores.size;

    const cleared = await admin.sub('shop-admin', 'license clear');
    expect(cleared.message!.content).toBe("This server's license was removed. The bot has no default license, so /shop is off until a license is set.");
    expect(h.bot.services.stores.size).toBe(held - 1);
    expect((await buyer.run('shop')).message!.content).toBe("This shop is not configured yet: the server's admins can set it up with /shop-admin.");
  });
});
