import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ChannelType, PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../src/security/license-id.js';
import { LINK_RETENTION_DAYS } from '../../src/services/payment-links.js';
import { openStorage } from '../../src/storage/keyv-store.js';
import { allProducts, allVariants, defaultShop, manyServersShop, otherShop } from '../fakes/spaceis/fixtures.js';
import type { FakeMessage } from '../fakes/discord/fake-discord.js';
import { addToCart, Member, SKY_VIP, VIP_30 } from '../support/buyer.js';
import { ENCRYPTION_KEY, LICENSE_KEY, useHarness } from '../support/harness.js';
import { button, buttonLabels, buttons, isDisplay, option, optionLabels, picturesOf, textOf, theSelect } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';

const MEMBER = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands;
const ADMIN = MEMBER | PermissionFlagsBits.ManageGuild;

describe('/shop-admin', () => {
  const h = useHarness();
  let admin: Member;
  beforeAll(() => {
    admin = new Member(h, { permissions: ADMIN, username: 'owner' });
  });

  function logChannelMessages(channelId: string): string[] {
    return h.discord.messagesIn(channelId).map(textOf);
  }

  it('refuses a member without Manage Server, even if the command is opened to everyone', async () => {
    const member = new Member(h, { permissions: MEMBER });
    for (const path of ['status', 'settings', 'servers', 'refresh', 'license set']) {
      const reply = await member.sub('shop-admin', path, {});
      expect(reply.ephemeral).toBe(true);
      expect(reply.message!.text).toBe(en.admin.notAllowed);
    }
    expect(h.store.requestsTo('paymentUrl')).toHaveLength(0);
  });

  it('shows the status: license fingerprint (never the key), the store, cache, storage and version', async () => {
    const reply = await admin.sub('shop-admin', 'status');
    const text = textOf(reply.message!);
    expect(text).toContain(`The bot's default license, fingerprint \`${keyFingerprint(LICENSE_KEY)}\``);
    expect(text).toContain('Answers: 2 servers in the offer');
    expect(text).toContain('sqlite');
    expect(text).toContain('1.0.0');
    expect(text).not.toContain(LICENSE_KEY);

    h.store.failNext('servers', { status: 402, body: { success: false, type: 'error', message: 'license is not active' } });
    const inactive = await admin.sub('shop-admin', 'status');
    expect(textOf(inactive.message!)).toContain(en.admin.status402);
  });

  it('shows the settings with their defaults and validates changes', async () => {
    const shown = await admin.sub('shop-admin', 'settings');
    const text = textOf(shown.message!);
    expect(text).toContain(`## ${en.admin.settingsTitle}`);
    expect(text).toContain('**Log channel:** none\n**Moderator role:** none\n**Multi-server carts:** off\n**Link lifetime:** 24 h\n**Checkout cooldown:** 30 s');

    const voice = h.discord.addChannel(h.discord.defaultGuildId, { name: 'voice', type: ChannelType.GuildVoice });
    const notText = await admin.sub('shop-admin', 'settings', { 'log-channel': voice });
    expect(notText.message!.text).toBe(`<#${voice}> is not a text channel. Pick a text channel.`);

    const closed = h.discord.addChannel(h.discord.defaultGuildId, { name: 'closed' });
    h.discord.denyBot(closed, PermissionFlagsBits.SendMessages);
    const refused = await admin.sub('shop-admin', 'settings', { 'log-channel': closed });
    expect(refused.message!.text).toBe(
      `I can't post in <#${closed}>: give me View Channel, Send Messages and Embed Links there, then try again.`,
    );
    expect((await h.bot.services.storage.guildSettings.get(h.discord.defaultGuildId)).logChannelId).toBeNull();
  });

  it('posts links and changes to the log channel in the guild’s language, never the URL', async () => {
    const logId = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-log' });
    const saved = await admin.sub('shop-admin', 'settings', { 'log-channel': logId, locale: 'pl' });
    expect(textOf(saved.message!)).toMatch(new RegExp(`^ℹ️ ${en.admin.settingsSaved}\n## ${en.admin.settingsTitle}\n`));
    expect(textOf(saved.message!)).toContain(`**Log channel:** <#${logId}>`);

    const posts = logChannelMessages(logId);
    expect(posts.some((post) => post.includes(pl.log.settingChangedTitle) && post.includes(`**Kanał logów**: brak → <#${logId}>`))).toBe(true);

    const buyer = new Member(h);
    await addToCart(buyer, VIP_30, 2);
    const logged = h.discord.waitForMessage(logId);
    await buyer.run('checkout', { nick: 'Logged' });
    const post = textOf(await logged);
    const [link] = (await h.bot.services.storage.paymentLinks.listForMember(h.discord.defaultGuildId, buyer.user.id, 0, 1)).links;
    expect(post).toContain(pl.log.linkIssuedTitle);
    expect(post).toContain(`<@${buyer.user.id}> otrzymał(a) link do płatności na nick **Logged**.`);
    expect(post).toContain('2 × VIP — 30 dni');
    expect(post).toContain(`-# Numer linku: ${link!.id}`);
    expect(post).not.toContain(link!.url);
    await admin.sub('shop-admin', 'settings', { locale: 'auto' });
  });

  it('tells the log channel, once, when buyers meet a rejected license', async () => {
    const logId = h.discord.addChannel(h.discord.defaultGuildId, { name: 'license-log' });
    await admin.sub('shop-admin', 'settings', { 'log-channel': logId });
    h.clock.advance(10 * 60_000);
    h.store.failNext('servers', { status: 401, body: { success: false, type: 'error', message: 'unauthorized' } }, 2);
    const posted = h.discord.waitForMessage(logId);
    await new Member(h).run('shop');
    const post = textOf(await posted);
    expect(post).toContain(en.log.licenseProblemTitle);
    expect(post).toContain('SpaceIs answered 401 (“unauthorized”) while serving a buyer.');
    const count = h.discord.messagesIn(logId).length;
    await new Member(h).run('shop'); // a second buyer a moment later: no second post within the hour
    expect(h.discord.messagesIn(logId).length).toBe(count);
    await admin.sub('shop-admin', 'settings', { reset: 'log-channel' });
  });

  it('falls back to defaults, with a warning, when a stored settings record is damaged', async () => {
    const other = h.discord.addGuild({ name: 'Damaged' });
    await h.bot.services.storage.guildSettings.update(other.id, (settings) => ({ ...settings, checkoutCooldownSeconds: 5 }));
    // Written behind the bot's back, as an old version or a broken disk might.
    await h.bot.services.storage.guildSettings['keyv'].set(`guild:${other.id}`, { checkoutCooldownSeconds: 'lots', logChannelId: 42 });
    await h.restart();
    const shown = await new Member(h, { permissions: ADMIN, guildId: other.id, channelId: other.channelId }).sub('shop-admin', 'settings');
    expect(textOf(shown.message!)).toContain('**Checkout cooldown:** 30 s');
    expect(h.logs.some((line) => line.includes('stored record did not validate') && line.includes(`guild:${other.id}`))).toBe(true);
  });

  it('keeps the checkout working when the log channel refuses the bot', async () => {
    const logId = h.discord.addChannel(h.discord.defaultGuildId, { name: 'soon-closed' });
    await admin.sub('shop-admin', 'settings', { 'log-channel': logId });
    h.discord.denyBot(logId, PermissionFlagsBits.SendMessages);
    const buyer = new Member(h);
    await addToCart(buyer, VIP_30);
    const dm = h.discord.waitForDm(buyer.user.id);
    const reply = await buyer.run('checkout', { nick: 'StillWorks' });
    expect(reply.message!.text).toContain('is in your DMs');
    expect(button(await dm, en.checkout.pay).url).toBe(h.store.paymentUrls.at(-1));
    await admin.sub('shop-admin', 'settings', { reset: 'log-channel' });
  });

  it('applies the cooldown and the multi-server setting to buyers', async () => {
    const buyer = new Member(h);
    await addToCart(buyer, VIP_30);
    expect((await addToCart(buyer, SKY_VIP)).message!.text).toContain('this shop sells one server per order');

    // The shop's own panel allows multi-server carts too; the bot's switch mirrors it.
    h.store.shop.multiServerCart = true;
    await admin.sub('shop-admin', 'settings', { 'multi-server-cart': true, 'checkout-cooldown-seconds': 0 });
    expect(textOf((await addToCart(buyer, SKY_VIP)).message!)).toContain('Your cart has 2 lines.');
    await buyer.run('checkout', { nick: 'NoCooldown' });
    await addToCart(buyer, VIP_30);
    expect((await buyer.run('checkout', { nick: 'NoCooldown' })).message!.text).toContain('is in your DMs');

    await admin.sub('shop-admin', 'settings', { 'multi-server-cart': false, 'checkout-cooldown-seconds': 120 });
    await addToCart(buyer, VIP_30);
    h.clock.advance(121_000);
    expect((await buyer.run('checkout', { nick: 'NoCooldown' })).message!.text).toContain('is in your DMs');
    await addToCart(buyer, VIP_30);
    const early = await buyer.run('checkout', { nick: 'NoCooldown' });
    expect(early.message!.text).toBe(en.checkout.cooldown(120));
    await admin.sub('shop-admin', 'settings', { 'checkout-cooldown-seconds': 30 });
  });

  it('offers only the servers the admins chose', async () => {
    const menu = (await admin.sub('shop-admin', 'servers')).message!;
    expect(optionLabels(menu)).toEqual(['Survival', 'SkyBlock']);
    expect(theSelect(menu).options!.every((choice) => choice.default)).toBe(true);
    const saved = await admin.choose('Survival', menu);
    expect(saved.message!.text).toMatch(new RegExp(`^ℹ️ ${en.admin.serversSaved('Survival')}\n## ${en.admin.settingNames.servers}\n`));

    // With one server left, /shop goes straight to its categories; SkyBlock can't be reached.
    const buyer = new Member(h);
    const start = await buyer.run('shop');
    expect(optionLabels(start.message!)).toEqual(['Rangi', 'Klucze', 'Monety', 'Usługi']);
    expect((await buyer.run('shop', { server: 'skyblock' })).message!.text).toContain('There is no server called “skyblock”');

    const again = (await admin.sub('shop-admin', 'servers')).message!;
    expect(theSelect(again).options!.map((choice) => [choice.label, choice.default])).toEqual([
      ['Survival', true],
      ['SkyBlock', false],
    ]);
    const both = await h.discord.select(admin.user, again, theSelect(again).custom_id!, [option(again, 'Survival').value, option(again, 'SkyBlock').value], {
      permissions: ADMIN,
    });
    expect((await both.settled()).message!.text).toContain(`ℹ️ ${en.admin.serversSaved('Survival, SkyBlock')}`);
    expect(optionLabels((await buyer.run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
  });

  describe('the moderator role', () => {
    const linksFor = async (member: Member) => textOf((await member.sub('links', 'user', { member: member.user.id })).message!);
    const stored = () => h.bot.services.storage.guildSettings.get(h.discord.defaultGuildId);

    it('refuses @everyone and a bot’s own role, saving nothing; an ordinary role works', async () => {
      const guildId = h.discord.defaultGuildId;
      const member = new Member(h, { permissions: MEMBER });
      const before = await stored();

      // @everyone's id is the guild's: every member has it, so every member would pass /links.
      const everyone = await admin.sub('shop-admin', 'settings', { 'moderator-role': guildId, 'link-lifetime-hours': 48 });
      expect(everyone.ephemeral).toBe(true);
      expect(everyone.message!.text).toBe(
        "@everyone can't be the moderator role: every member has it, so everyone could use /links. Nothing was saved; pick a role only your moderators have.",
      );
      expect(await stored()).toEqual(before);
      expect(await linksFor(member)).toBe(en.links.notModerator);
      const polish = await new Member(h, { permissions: ADMIN, locale: 'pl' }).sub('shop-admin', 'settings', { 'moderator-role': guildId });
      expect(polish.message!.text).toBe(
        '@everyone nie może być rolą moderatorów. Ma ją każdy członek, więc każdy mógłby używać /linki. Nic nie zapisano; wybierz rolę, którą mają tylko moderatorzy.',
      );

      // A bot's own role is Discord's to give: the admins can't choose who has it.
      const ticketTool = h.discord.addRole(guildId, 'Ticket Tool', { botId: h.discord.newUser({ username: 'ticket-tool' }).id });
      const managed = await admin.sub('shop-admin', 'settings', { 'moderator-role': ticketTool });
      expect(managed.ephemeral).toBe(true);
      expect(managed.message!.text).toBe(
        `<@&${ticketTool}> is managed by Discord for a bot or an integration, so you can't choose who has it. Nothing was saved; pick a role you give to your moderators.`,
      );
      expect(await stored()).toEqual(before);

      const helpers = h.discord.addRole(guildId, 'Helpers');
      try {
        const saved = await admin.sub('shop-admin', 'settings', { 'moderator-role': helpers });
        expect(saved.message!.text).toContain(`ℹ️ ${en.admin.settingsSaved}`);
        expect(textOf(saved.message!)).toContain(`**Moderator role:** <@&${helpers}>`);
        const helper = new Member(h, { permissions: MEMBER, roles: [helpers] });
        expect(await linksFor(helper)).toContain(en.links.none(`<@${helper.user.id}>`, LINK_RETENTION_DAYS));
        expect(await linksFor(member)).toBe(en.links.notModerator);
      } finally {
        await admin.sub('shop-admin', 'settings', { reset: 'moderator-role' });
      }
    });

    it('lets no one in as a moderator when @everyone was saved by an earlier version', async () => {
      const member = new Member(h, { permissions: MEMBER });
      await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { moderatorRoleId: h.discord.defaultGuildId });
      try {
        expect(await linksFor(member)).toBe(en.links.notModerator);
      } finally {
        await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { moderatorRoleId: null });
      }
    });
  });

  it('refreshes the offer and reports what the store now holds', async () => {
    const before = h.store.requests.length;
    const reply = await admin.sub('shop-admin', 'refresh');
    const shop = h.store.shop;
    const categories = shop.servers.reduce((sum, server) => sum + server.categories.length, 0);
    expect(reply.message!.text).toBe(
      `Offer read again: 2 servers, ${categories} categories, ${allProducts(shop).length} products, ${allVariants(shop).length} variants.`,
    );
    expect(h.store.requests.length).toBe(before + 1 + 2 + allProducts(shop).length);
  });

  it('refuses a license key the store rejects and saves nothing', async () => {
    const modal = await admin.sub('shop-admin', 'license set');
    expect(modal.modal!.title).toBe(en.admin.licenseModalTitle);
    const reply = await admin.submit({ key: 'not-a-real-license-key' });
    expect(reply.message!.text).toBe(en.admin.licenseRejected('unauthorized'));
    expect((await h.bot.services.storage.guildSettings.get(h.discord.defaultGuildId)).license).toBeUndefined();
    for (const line of h.logs) expect(line).not.toContain('not-a-real-license-key');
  });

  it('switches to a guild license kept encrypted, empties old carts with a note, and goes back', async () => {
    const guildKey = 'guild-own-license-key-5a4b3c';
    // The guild's own shop, not the default license's: a key of the same shop would keep the carts.
    h.store.shopsByKey.set(guildKey, otherShop());
    const buyer = new Member(h);
    await addToCart(buyer, VIP_30, 3);

    await admin.sub('shop-admin', 'license set');
    const saved = await admin.submit({ key: `  ${guildKey}  ` });
    expect(saved.message!.text).toContain(`License saved (fingerprint \`${keyFingerprint(guildKey)}\`); its offer has 2 servers.`);
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain(
      `This server's own license, fingerprint \`${keyFingerprint(guildKey)}\``,
    );

    // The key is sealed at rest: not in the SQLite file in any form a grep would find.
    await h.restart();
    const raw = readFileSync(h.storageFile);
    expect(raw.includes(Buffer.from(guildKey))).toBe(false);
    expect(raw.includes(Buffer.from(Buffer.from(guildKey).toString('base64')))).toBe(false);

    // The store now sees the guild's key; the buyer's old cart is emptied, and they are told why.
    const shop = await buyer.run('shop');
    expect(h.store.requests.at(-1)!.headers.authorization).toBe(`Bearer ${guildKey}`);
    expect(optionLabels(shop.message!)).toEqual(['Creative', 'Lobby']);
    const cart = await buyer.run('cart');
    expect(cart.message!.text).toContain(en.cart.licenseChanged);
    expect(textOf(cart.message!)).toContain('Your cart is empty');
    expect((await buyer.run('cart')).message!.text).not.toContain(en.cart.licenseChanged); // told once

    const cleared = await admin.sub('shop-admin', 'license clear');
    expect(cleared.message!.text).toBe(`This server now sells from the bot's default license (fingerprint \`${keyFingerprint(LICENSE_KEY)}\`).`);
    await buyer.run('shop');
    expect(h.store.requests.at(-1)!.headers.authorization).toBe(`Bearer ${LICENSE_KEY}`);
  });

  it('posts a shop panel that works for several members at once and after a restart', async () => {
    const channelId = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop' });
    const reply = await admin.sub('shop-admin', 'panel', { channel: channelId });
    expect(reply.message!.text).toBe(`The shop panel is in <#${channelId}>. Re-posting it replaces this one.`);
    const panel = h.discord.messagesIn(channelId).at(-1)!;
    expect(isDisplay(panel)).toBe(true);
    expect(textOf(panel)).toContain(`## ${en.panel.title('Test Guild')}`);
    expect(buttonLabels(panel)).toEqual([en.panel.openShop, en.panel.myCart]);
    expect(textOf(panel)).toContain('### Servers\n**Survival**\n**SkyBlock**');
    // Each server beside the picture the store gives it.
    expect(picturesOf(panel)).toEqual(h.store.shop.servers.map((server) => `https://cdn.sklep.example.pl/servers/${server.slug}.png`));
    // Marked as drawn with display components: the refresher edits it in place (a classic one it replaces).
    expect((await h.bot.services.storage.guildSettings.get(h.discord.defaultGuildId)).panel).toEqual({ channelId, messageId: panel.id, display: true });

    const alice = new Member(h);
    const bob = new Member(h, { locale: 'pl' });
    const [aliceShop, bobShop] = await Promise.all([alice.press(en.panel.openShop, panel), bob.press(en.panel.openShop, panel)]);
    expect(aliceShop.ephemeral && bobShop.ephemeral).toBe(true);
    expect(aliceShop.message!.id).not.toBe(bobShop.message!.id);
    expect(theSelect(aliceShop.message!).placeholder).toBe(en.shop.chooseServerPlaceholder);
    expect(theSelect(bobShop.message!).placeholder).toBe(pl.shop.chooseServerPlaceholder);
    expect(h.discord.message(channelId, panel.id)!.edits).toBe(0);

    // Alice shops from her own ephemeral menu, then checks her cart from the panel after a restart.
    await alice.choose('Survival');
    await alice.choose('Rangi');
    await alice.choose('VIP');
    await alice.choose('30 dni');
    await alice.press(en.quantity.addToCart);
    await h.restart();
    const cart = await alice.press(en.panel.myCart, panel);
    expect(textOf(cart.message!)).toContain('1 × VIP — 30 dni');
    expect(textOf((await bob.press(en.panel.myCart, panel)).message!)).toContain('Twój koszyk jest pusty');

    // Re-posting replaces the old panel.
    await admin.sub('shop-admin', 'panel', { channel: channelId });
    expect(h.discord.wasDeleted(panel.id)).toBe(true);
    const latest: FakeMessage = h.discord.messagesIn(channelId).at(-1)!;
    expect(latest.id).not.toBe(panel.id);
  });
});

describe('a bot without a default license', () => {
  const h = useHarness({ noDefaultLicense: true });

  it('tells buyers the shop is not configured until an admin sets a license', async () => {
    const buyer = new Member(h);
    expect((await buyer.run('shop')).message!.text).toBe(
      en.shop.notSetUp,
    );
    const admin = new Member(h, { permissions: ADMIN });
    await admin.sub('shop-admin', 'license set');
    await admin.submit({ key: LICENSE_KEY });
    expect(optionLabels((await buyer.run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
  });
});

describe('/shop-admin servers on a license with more servers than one menu can show', () => {
  const h = useHarness({ shop: manyServersShop(30) });
  const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => `Server ${from + index}`);

  /** The servers /shop lists to a member, every page of them, as they scroll it with Next. */
  async function serversInShop(buyer: Member): Promise<string[]> {
    const servers = optionLabels((await buyer.run('shop')).message!);
    for (;;) {
      const next = buttons(buyer.message!).find((candidate) => candidate.label === en.common.next);
      if (!next || next.disabled) return servers;
      await buyer.press(en.common.next);
      servers.push(...optionLabels(buyer.message!));
    }
  }

  it('pages the servers by 25 with Previous and Next, and saving a page changes only the servers on it', async () => {
    const admin = new Member(h, { permissions: ADMIN });
    const buyer = new Member(h);
    const first = (await admin.sub('shop-admin', 'servers')).message!;
    expect(optionLabels(first)).toEqual(numbered(1, 25));
    // Page 1 saved as shown, every server ticked: servers 26–30, on the other page, stay offered.
    await admin.chooseMany(numbered(1, 25));
    expect(await serversInShop(buyer)).toEqual(numbered(1, 30));

    await admin.sub('shop-admin', 'servers');
    expect(textOf(admin.message!)).toContain(en.common.page(1, 2));
    expect(button(admin.message!, en.common.previous).disabled).toBe(true);
    await admin.press(en.common.next);
    expect(textOf(admin.message!)).toContain(en.common.page(2, 2));
    expect(theSelect(admin.message!).options!.map((choice) => [choice.label, choice.default])).toEqual(numbered(26, 30).map((name) => [name, true]));
    const withoutServer28 = numbered(1, 30).filter((name) => name !== 'Server 28');
    const saved = await admin.chooseMany(['Server 26', 'Server 27', 'Server 29', 'Server 30']);
    expect(saved.message!.text).toContain(`ℹ️ ${en.admin.serversSaved(withoutServer28.join(', '))}`);

    // Back to page 1, saved again with all its servers ticked: server 28 stays hidden.
    await admin.press(en.common.previous);
    expect(optionLabels(admin.message!)).toEqual(numbered(1, 25));
    await admin.chooseMany(numbered(1, 25));
    expect(await serversInShop(buyer)).toEqual(withoutServer28);

    const reopened = (await admin.sub('shop-admin', 'servers')).message!;
    await admin.press(en.common.next, reopened);
    expect(theSelect(admin.message!).options!.map((choice) => [choice.label, choice.default])).toEqual(
      numbered(26, 30).map((name) => [name, name !== 'Server 28']),
    );
  });

  it('saves nothing on a page whose servers moved since it was drawn, and shows the page as it is now', async () => {
    const admin = new Member(h, { permissions: ADMIN });
    const menu = (await admin.sub('shop-admin', 'servers')).message!;
    // A server added at the top of the shop, and read at once: Server 25 moves to page 2.
    h.store.shop.servers.unshift(manyServersShop(31).servers[30]!);
    await admin.sub('shop-admin', 'refresh');

    // Unticking Server 25 on the page as drawn would otherwise hide Server 31, which the admin never saw.
    const answer = await admin.chooseMany(numbered(1, 24), menu);
    expect(answer.message!.text).toContain(`⚠️ ${en.admin.serversChanged}`);
    expect(answer.message!.text).not.toContain('ℹ️');
    expect(optionLabels(answer.message!)).toEqual(['Server 31', ...numbered(1, 24)]);
    expect(await serversInShop(new Member(h))).toEqual(['Server 31', ...numbered(1, 24), 'Server 25', 'Server 26', 'Server 27', 'Server 29', 'Server 30']);
  });
});

/** The license tests' admin: Manage Server, without Use Application Commands (as they always ran). */
const LICENSE_ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ManageGuild;
/** A guild whose own license does not open here is told so (see the unreadable-license process test). */
const NOT_SET_UP_CORRECTLY = en.shop.misconfigured;

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

/** How earlier versions sealed a guild's key: `v1.…`, AES-256-GCM bound to nothing. */
function sealedByEarlierVersion(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(ENCRYPTION_KEY, 'base64'), iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

describe('licenses whose short fingerprints collide', () => {
  const h = useHarness({ noDefaultLicense: true });
  const [KEY_A, KEY_B] = keysWithOneFingerprint();
  beforeAll(() => {
    h.store.shopsByKey.set(KEY_A, defaultShop());
    h.store.shopsByKey.set(KEY_B, otherShop());
  });

  it('are still two shops: each guild sells from its own key', async () => {
    expect(sha256(KEY_A).slice(0, 8)).toBe(sha256(KEY_B).slice(0, 8));
    const guildB = h.discord.addGuild({ name: 'Creative guild' });
    const at = { guildId: guildB.id, channelId: guildB.channelId };
    const adminA = new Member(h, { permissions: LICENSE_ADMIN });
    await adminA.sub('shop-admin', 'license set');
    await adminA.submit({ key: KEY_A });
    const adminB = new Member(h, { permissions: LICENSE_ADMIN, ...at });
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
    const admin = new Member(h, { permissions: LICENSE_ADMIN, ...at });
    await admin.sub('shop-admin', 'license set');
    await admin.submit({ key: KEY_A });
    const buyer = new Member(h, at);
    await addToCart(buyer, VIP_30, 2);

    await admin.sub('shop-admin', 'license set');
    const saved = await admin.submit({ key: KEY_B });
    expect(saved.message!.text).toContain('License saved');
    const cart = await buyer.run('cart');
    expect(cart.message!.text).toContain(en.cart.licenseChanged);
    expect(textOf(cart.message!)).toContain('Your cart is empty');
  });
});

describe('a cart and link records after the upgrade to full license ids', () => {
  const h = useHarness();

  it('keeps a cart stored with the short fingerprint, and records the full id with the link', async () => {
    const buyer = new Member(h);
    await addToCart(buyer, VIP_30, 2);
    // As an earlier version stored it: the license named by its 8-character fingerprint.
    const guildId = h.discord.defaultGuildId;
    const stored = await h.bot.services.storage.carts.read(guildId, buyer.user.id);
    await h.bot.services.storage.carts.write(guildId, buyer.user.id, { ...stored, license: sha256(LICENSE_KEY).slice(0, 8) });
    await h.restart();

    const cart = await buyer.run('cart');
    expect(cart.message!.text).not.toContain(en.cart.licenseChanged);
    expect(textOf(cart.message!)).toContain('2 × VIP — 30 dni');
    await buyer.run('checkout', { nick: 'Upgraded' });
    expect(h.store.requestsTo('paymentUrl')).toHaveLength(1);
    const [link] = await h.bot.services.storage.paymentLinks.listRecent(guildId);
    expect(link!.license).toBe(sha256(LICENSE_KEY));
  });
});

describe("a guild's sealed license", () => {
  const h = useHarness({ noDefaultLicense: true });
  const GUILD_KEY = 'guild-own-license-key-sealed-1';
  beforeAll(() => {
    h.store.otherKeys.add(GUILD_KEY);
  });

  it('does not open when copied into another guild’s settings: that guild does not sell from it', async () => {
    const admin = new Member(h, { permissions: LICENSE_ADMIN });
    await admin.sub('shop-admin', 'license set');
    await admin.submit({ key: GUILD_KEY });
    const other = h.discord.addGuild({ name: 'Copycat' });
    const license = (await h.bot.services.storage.guildSettings.get(h.discord.defaultGuildId)).license!;
    await h.bot.services.storage.guildSettings.set(other.id, { license });
    await h.restart();

    const requestsBefore = h.store.requests.length;
    expect((await new Member(h, { guildId: other.id, channelId: other.channelId }).run('shop')).message!.text).toBe(NOT_SET_UP_CORRECTLY);
    expect(h.store.requests.length).toBe(requestsBefore);
    // Where it belongs it still opens, after the restart too.
    expect(optionLabels((await new Member(h).run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it('sealed by an earlier version (bound to no guild) still opens, and is re-sealed bound to its guild on first read', async () => {
    const guild = h.discord.addGuild({ name: 'Old guild' });
    const at = { guildId: guild.id, channelId: guild.channelId };
    const legacy = sealedByEarlierVersion(GUILD_KEY);
    await h.bot.services.storage.guildSettings.set(guild.id, { license: { sealed: legacy, fingerprint: sha256(GUILD_KEY).slice(0, 8), setBy: '1', setAt: 0 } });
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
    const admin = new Member(h, { permissions: LICENSE_ADMIN, ...at });
    await admin.sub('shop-admin', 'license set');
    await admin.submit({ key });
    const buyer = new Member(h, at);
    expect(optionLabels((await buyer.run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
    const held = h.bot.services.stores.size;

    const cleared = await admin.sub('shop-admin', 'license clear');
    expect(cleared.message!.text).toBe("This server's license was removed. The bot has no default license, so /shop is off until a license is set.");
    expect(h.bot.services.stores.size).toBe(held - 1);
    expect((await buyer.run('shop')).message!.text).toBe(en.shop.notSetUp);
  });
});
