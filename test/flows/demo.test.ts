import { statSync } from 'node:fs';
import { Server } from 'node:net';
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoLandmarks } from '../../src/demo/demo-store.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { keyFingerprint } from '../../src/security/license-id.js';
import type { FakeMessage } from '../fakes/discord/fake-discord.js';
import { addToCart, Member, openVariant, VIP_30 } from '../support/buyer.js';
import { LICENSE_KEY, startHarness, type Harness } from '../support/harness.js';
import { freePort } from '../support/sockets.js';
import { button, buttonLabels, isDisplay, option, optionLabels, picturesOf, textOf } from '../support/ui.js';

const MEMBER = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands;
const ADMIN = MEMBER | PermissionFlagsBits.ManageGuild;
const MODERATOR = MEMBER | PermissionFlagsBits.ManageMessages;
const COOLDOWN_MS = 30_000;

/** What a demo guild's every message must say, in English. */
function expectDemo(message: FakeMessage | undefined, banner = en.demo.banner): void {
  expect(message, 'a message').toBeDefined();
  // Above a display message's container as a small line; the first line of a classic one.
  const first = isDisplay(message!) ? `-# ${banner}` : banner;
  expect(message!.text.startsWith(first), `"${message!.text.slice(0, 80)}" starts with the DEMO banner`).toBe(true);
}

/**
 * A message shows these demo pictures (`attachment://<name>`), and carries each as a file of the
 * same size as the one in src/demo/images, so Discord has it to show.
 */
function expectPictures(message: FakeMessage, names: string[]): void {
  expect(picturesOf(message)).toEqual(names.map((name) => `attachment://${name}`));
  const attached = new Map((message.attachments ?? []).map((attachment: { filename: string; size: number }) => [attachment.filename, attachment.size]));
  for (const name of names) expect(attached.get(name), name).toBe(statSync(new URL(`../../src/demo/images/${name}`, import.meta.url)).size);
}

describe('the demo shop (/shop-admin license demo)', () => {
  let h: Harness;
  let guild: { id: string; channelId: string };
  let admin: Member;
  let logId: string;
  let storeRequestsBefore: number;
  /** Messages from before the demo was switched on (the log channel being set). */
  let before: Set<string>;
  const members: Member[] = [];
  const newMember = (options: { locale?: string; permissions?: bigint } = {}): Member => {
    const member = new Member(h, { guildId: guild.id, ...options });
    members.push(member);
    return member;
  };

  beforeAll(async () => {
    h = await startHarness();
    guild = h.discord.addGuild({ name: 'Demo Guild' });
    admin = newMember({ permissions: ADMIN });
    logId = h.discord.addChannel(guild.id, { name: 'shop-log' });
    await admin.sub('shop-admin', 'settings', { 'log-channel': logId });
    storeRequestsBefore = h.store.requests.length;
    before = new Set([guild.channelId, logId].flatMap((channel) => h.discord.messagesIn(channel).map((message) => message.id)));
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is switched on by an admin, and says so in the reply, the status and the log channel', async () => {
    const reply = await admin.sub('shop-admin', 'license demo');
    expectDemo(reply.message);
    expect(reply.message!.text).toContain(en.admin.demoOn);

    const status = await admin.sub('shop-admin', 'status');
    expectDemo(status.message);
    expect(textOf(status.message!)).toContain(en.admin.statusLicenseDemo);
    expect(textOf(status.message!)).toContain(en.admin.statusAnswers(2));

    expect((await admin.sub('shop-admin', 'license demo')).message!.text).toContain(en.admin.demoAlready);
    const log = h.discord.messagesIn(logId).at(-1)!;
    expectDemo(log);
    expect(textOf(log)).toContain(en.admin.demoLicenseName);
  });

  it('sells the sample offer through the real menus: paging, an SMS-only and a priceless variant, diacritics', async () => {
    const member = newMember();
    const shop = await member.run('shop');
    expect(optionLabels(shop.message!)).toEqual(['Survival', 'SkyBlock']);
    await member.choose('Survival');
    await member.choose(demoLandmarks.coins.category);
    await member.choose(demoLandmarks.coins.product);
    // 60 coin packs: more than one page of 25.
    expect(optionLabels(member.message!)).toHaveLength(25);
    expect(buttonLabels(member.message!)).toContain(en.common.next);
    await member.chooseOnAnyPage('30 000 monet');
    expectDemo(member.message);

    await openVariant(member, { ...demoLandmarks.smsOnly });
    expect(option(member.message!, demoLandmarks.smsOnly.variant).description).toBe(en.shop.unavailable);
    expect(option(member.message!, demoLandmarks.vip30.variant).description).toContain('PLN 14.99');

    const sky = new Member(h, { guildId: guild.id, locale: 'pl' });
    members.push(sky);
    await sky.run('shop');
    await sky.choose('SkyBlock');
    await sky.choose(demoLandmarks.skyRank.category);
    expect(optionLabels(sky.message!)).toContain('Ranga Łowca Skarbów');
    expectDemo(sky.message, pl.demo.banner);
  });

  it('checks out with a demo link: a Pay button in the DMs, a record for moderators, a log post, a page that says nothing is paid', async () => {
    const member = newMember();
    await addToCart(member, demoLandmarks.vip30, 2);
    const dm = h.discord.waitForDm(member.user.id);
    const reply = await member.run('checkout', { nick: 'Demo_Gracz' });
    expectDemo(reply.message);
    const message = await dm;
    expectDemo(message);
    expect(textOf(message)).toContain('2 × VIP — 30 dni');

    const url = button(message, en.checkout.pay).url!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/demo\/pay\/[A-Za-z0-9_-]{22}$/);
    const [link] = (await h.bot.services.storage.paymentLinks.listForMember(guild.id, member.user.id, 0, 10)).links;
    expect(link).toMatchObject({ url, license: 'demo', nick: 'Demo_Gracz' });

    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(en.demo.pageNothingPaid);
    expect(html).toContain(pl.demo.pageNothingPaid);
    expect(html).toContain('Demo_Gracz');
    expect(html).toContain('VIP — 30 dni');
    expect(html).toContain('PLN 29.98');

    // Only links the bot issued open; anything else is 404.
    const base = new URL(url).origin;
    for (const other of [`${base}/demo/pay/${'A'.repeat(22)}`, `${base}/demo/pay/../../etc`, `${base}/`, `${url}/x`]) {
      expect((await fetch(other)).status, other).toBe(404);
    }
    expect((await fetch(url, { method: 'POST' })).status).toBe(404);

    // The buyer's own list of links says it too.
    await member.run('cart');
    const mine = await member.press(en.links.myLinks);
    expectDemo(mine.message);
    expect(textOf(mine.message!)).toContain(link!.id);

    const posted = h.discord.messagesIn(logId).at(-1)!;
    expectDemo(posted);
    expect(textOf(posted)).toContain(en.log.linkIssuedTitle);
    expect(textOf(posted)).not.toContain(url);
  });

  it('shows the link in the reply, marked, when the member’s DMs are closed', async () => {
    const member = newMember();
    h.discord.refuseDms(member.user.id);
    await addToCart(member, demoLandmarks.skyRank);
    const reply = await member.run('checkout', { nick: 'Zamkniete' });
    expectDemo(reply.message);
    expect(button(reply.message!, en.checkout.pay).url).toMatch(/\/demo\/pay\//);
  });

  it('gives moderators the same list, verify and revoke, all marked', async () => {
    h.clock.advance(COOLDOWN_MS);
    const buyer = newMember();
    await addToCart(buyer, demoLandmarks.vip30);
    const dm = h.discord.waitForDm(buyer.user.id);
    await buyer.run('checkout', { nick: 'Kupiec' });
    const sent = await dm;
    const url = button(sent, en.checkout.pay).url!;
    const [link] = (await h.bot.services.storage.paymentLinks.listForMember(guild.id, buyer.user.id, 0, 10)).links;

    const mod = newMember({ permissions: MODERATOR });
    const list = await mod.sub('links', 'user', { member: buyer.user.id });
    expectDemo(list.message);
    expect(textOf(list.message!)).toContain(link!.id);
    const verified = await mod.sub('links', 'verify', { url });
    expectDemo(verified.message);
    expect(textOf(verified.message!)).toContain('Kupiec');
    const revoked = await mod.sub('links', 'revoke', { link: link!.id });
    expectDemo(revoked.message);
    const withdrawn = h.discord.message(sent.channel_id, sent.id)!;
    expectDemo(withdrawn);
    expect(buttonLabels(withdrawn)).not.toContain(en.checkout.pay);
    expectDemo(h.discord.messagesIn(logId).at(-1));
  });

  it('posts a panel that says it is the demo', async () => {
    const panelChannel = h.discord.addChannel(guild.id, { name: 'shop' });
    const reply = await admin.sub('shop-admin', 'panel', { channel: panelChannel });
    expectDemo(reply.message);
    const panel = h.discord.messagesIn(panelChannel).at(-1)!;
    expectDemo(panel);
    expect(textOf(panel)).toContain('Survival');
    // The servers beside their own pictures, sent with the panel.
    expectPictures(panel, ['survival.png', 'skyblock.png']);
  });

  it('asks for Attach Files before posting its panel, whose pictures are files', async () => {
    const noFiles = h.discord.addChannel(guild.id, { name: 'no-files' });
    h.discord.denyBot(noFiles, PermissionFlagsBits.AttachFiles);
    const reply = await admin.sub('shop-admin', 'panel', { channel: noFiles });
    expectDemo(reply.message);
    expect(textOf(reply.message!)).toContain(en.admin.channelNoFiles(`<#${noFiles}>`));
    expect(h.discord.messagesIn(noFiles)).toEqual([]);
  });

  it('shows its own pictures, sent with each screen that shows one: servers, products, the product large', async () => {
    const member = newMember();
    const servers = (await member.run('shop')).message!;
    expectPictures(servers, ['survival.png', 'skyblock.png']);
    await member.choose('Survival');
    const products = (await member.choose('Rangi')).message!;
    expectPictures(products, ['vip.png', 'svip.png']);
    const variants = (await member.choose('VIP')).message!;
    expectPictures(variants, ['vip.png']);
    // Shown large: the product's picture is a gallery, not a thumbnail.
    expect(JSON.stringify(variants.components)).toContain('"type":12');
  });

  it('never asked the store, and every message in the demo guild and its members’ DMs carried DEMO', () => {
    expect(h.store.requests.length).toBe(storeRequestsBefore);
    const channels = [guild.channelId, logId, ...members.map((member) => h.discord.dmChannelOf(member.user.id)).filter((id): id is string => !!id)];
    let seen = 0;
    for (const channel of channels) {
      for (const message of h.discord.messagesIn(channel)) {
        // A deferred reply still loading is not something a member reads.
        if (message.flags & 128 || before.has(message.id)) continue;
        seen += 1;
        expect(message.text.includes('DEMO') && /no real payment|bez prawdziwej płatności/.test(message.text), message.text.slice(0, 80)).toBe(true);
      }
    }
    expect(seen).toBeGreaterThan(20);
  });

  it('asks a server with its own license before switching, and empties carts with a note on every change', async () => {
    const own = h.discord.addGuild({ name: 'Real Guild' });
    const owner = new Member(h, { guildId: own.id, permissions: ADMIN });
    const buyer = new Member(h, { guildId: own.id });
    await owner.sub('shop-admin', 'license set');
    await owner.submit({ key: LICENSE_KEY });
    await addToCart(buyer, VIP_30);

    const asked = await owner.sub('shop-admin', 'license demo');
    expect(textOf(asked.message!)).toContain(en.admin.demoConfirm(keyFingerprint(LICENSE_KEY)));
    expect((await owner.press(en.admin.demoCancel)).message!.text).toBe(en.admin.demoCancelled);
    expect((await h.bot.services.storage.guildSettings.get(own.id)).license).toBeDefined();

    await owner.sub('shop-admin', 'license demo');
    const switched = await owner.press(en.admin.demoConfirmYes);
    expectDemo(switched.message);
    expect(switched.message!.text).toContain(en.admin.demoOn);
    const settings = await h.bot.services.storage.guildSettings.get(own.id);
    expect(settings.demo).toBe(true);
    expect(settings.license).toBeUndefined();

    const cart = await buyer.run('cart');
    expectDemo(cart.message);
    expect(textOf(cart.message!)).toContain(en.cart.licenseChanged);

    // A real license replaces the demo; the demo cart goes, with the same note.
    await addToCart(buyer, demoLandmarks.vip30);
    await owner.sub('shop-admin', 'license set');
    const saved = await owner.submit({ key: LICENSE_KEY });
    expect(saved.message!.text).toContain(`License saved (fingerprint \`${keyFingerprint(LICENSE_KEY)}\`)`);
    expect(saved.message!.text).not.toContain('DEMO');
    const after = await buyer.run('cart');
    expect(after.message!.text).not.toContain('DEMO');
    expect(textOf(after.message!)).toContain(en.cart.licenseChanged);

    // `license clear` ends a demo: back to the bot's default license.
    await owner.sub('shop-admin', 'license demo');
    await owner.press(en.admin.demoConfirmYes);
    const cleared = await owner.sub('shop-admin', 'license clear');
    expect(cleared.message!.text).toBe(en.admin.demoEnded(keyFingerprint(LICENSE_KEY)));
    expect((await h.bot.services.storage.guildSettings.get(own.id)).demo).toBe(false);
  });
});

describe('the demo pay page on a server (DEMO_HOST, DEMO_PUBLIC_URL)', () => {
  const PUBLIC = 'https://demo.shop.example/pay-page';
  let h: Harness;
  let demoPort: number;
  /** Every address a listener was asked to bind while the harness started and served the checkout. */
  const binds: unknown[][] = [];
  const listen = Server.prototype.listen;

  beforeAll(async () => {
    demoPort = await freePort();
    Server.prototype.listen = function (this: Server, ...args: unknown[]) {
      binds.push(args);
      return (listen as (...inner: unknown[]) => Server).apply(this, args);
    } as typeof listen;
    h = await startHarness({ env: { DEMO_HOST: 'localhost', DEMO_PORT: String(demoPort), DEMO_PUBLIC_URL: `${PUBLIC}/` } });
  });
  afterAll(async () => {
    Server.prototype.listen = listen;
    await h?.close();
  });

  it('binds DEMO_HOST and puts DEMO_PUBLIC_URL in the Pay button, a page that answers there', async () => {
    const admin = new Member(h, { permissions: ADMIN });
    await admin.sub('shop-admin', 'license demo');
    const member = new Member(h);
    await addToCart(member, demoLandmarks.vip30, 1);
    const dm = h.discord.waitForDm(member.user.id);
    await member.run('checkout', { nick: 'Zdalny' });
    const url = button(await dm, en.checkout.pay).url!;

    expect(url).toMatch(new RegExp(`^${PUBLIC.replace(/[.]/g, '\\.')}/demo/pay/[A-Za-z0-9_-]{22}$`));
    const [link] = (await h.bot.services.storage.paymentLinks.listForMember(h.discord.defaultGuildId, member.user.id, 0, 10)).links;
    expect(link!.url).toBe(url);
    expect(binds).toContainEqual([demoPort, 'localhost', expect.any(Function)]);
    // What a reverse proxy at DEMO_PUBLIC_URL forwards to: the page itself, on DEMO_HOST:DEMO_PORT.
    const page = await fetch(`http://localhost:${demoPort}${new URL(url).pathname.replace('/pay-page', '')}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Zdalny');
  });
});
