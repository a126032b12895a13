import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { en } from '../../../src/i18n/en.js';
import { DEFAULT_MEMBER_PERMISSIONS } from '../../fakes/discord/fake-discord.js';
import { forEachComponent } from '../../fakes/discord/validation.js';
import type { ShopFixture } from '../../fakes/spaceis/fake-spaceis.js';
import { defaultShop } from '../../fakes/spaceis/fixtures.js';
import { Member } from '../../support/buyer.js';
import { useHarness } from '../../support/harness.js';
import { optionLabels, textOf, theSelect } from '../../support/ui.js';

/**
 * Store names are whatever a shop owner (or whoever got into their panel) typed. Everywhere the bot
 * writes Markdown (embeds, replies, DMs, the log channel, the panel, admin answers) they must read
 * as text: no masked link, no clickable URL, no mention, no heading, quote or list.
 */
const SERVER = '- Survival [Pay here](https://evil.example/pay) <@&999> @everyone';
const CATEGORY = '> Rangi https://evil.example/c';
const PRODUCT = '# VIP [Pay here](https://evil.example/pay)';
const VARIANT = '-# 30 dni <@123456789012345678>';
const SMS_VARIANT = '## 7 dni [sms](https://evil.example/sms)';
const LONG_VARIANT = `1. Na zawsze ${'x'.repeat(290)}`;
const DESCRIPTION = '1. Opis\n> cytat [x](https://evil.example/d)';

function hostileShop(): ShopFixture {
  const shop = defaultShop();
  const survival = shop.servers[0]!;
  survival.name = SERVER;
  const ranks = survival.categories[0]!;
  ranks.name = CATEGORY;
  const vip = ranks.products[0]!;
  vip.name = PRODUCT;
  vip.descriptions = { short: DESCRIPTION, long: '' };
  vip.variants[0]!.name = SMS_VARIANT;
  vip.variants[1]!.name = VARIANT;
  vip.variants[2]!.name = LONG_VARIANT;
  return shop;
}

/** What would render as markup if one of the names above were written raw (escaped forms never match). */
const RENDERED_MARKUP: [string, RegExp][] = [
  ['a masked link', /(?<!\\)\[[^\]\n]*(?<!\\)\]\(https?:\/\/evil/],
  ['a clickable URL', /https?:\/\/evil\.example/],
  ['a role mention', /(?<!\\)<@&999>/],
  ['a member mention', /(?<!\\)<@123456789012345678>/],
  ['@everyone', /(?<!\\)@everyone/],
  // The hostile names themselves at a line's start (the bot's own `### Name` headings of other items are fine).
  ['a heading', /^\s*#{1,3} (VIP \[|7 dni \[)/m],
  ['small text', /^\s*-# 30 dni/m],
  ['a quote', /^\s*> (Rangi|cytat)/m],
  ['a list', /^\s*(- Survival|1\. (Opis|Na zawsze))/m],
];

interface Sent {
  content?: string;
  embeds?: { title?: string; description?: string; fields?: { name: string; value: string }[]; footer?: { text: string } }[];
  components?: unknown[];
}

/**
 * Every Markdown text in a message body the bot sent: content, embed titles, descriptions, fields,
 * footers, and every text display of display components (inside containers and sections). A
 * picture's alt text is not Markdown (Discord shows it as it is), so it is not read here.
 */
function markdownTexts(body: Sent): string[] {
  const texts = [body.content ?? ''];
  for (const embed of body.embeds ?? []) {
    texts.push(embed.title ?? '', embed.description ?? '', embed.footer?.text ?? '');
    for (const field of embed.fields ?? []) texts.push(field.name, field.value);
  }
  forEachComponent(body.components ?? [], (component) => {
    if (component.type === 10 && typeof component.content === 'string') texts.push(component.content);
  });
  return texts.filter(Boolean);
}

describe('hostile store names', () => {
  const h = useHarness({ shop: hostileShop() });

  it('read as text in every message the bot sends, from the menus to the DM, the log channel and the panel', async () => {
    const guildId = h.discord.defaultGuildId;
    const admin = new Member(h, { permissions: DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageMessages });
    const logChannel = h.discord.addChannel(guildId, { name: 'shop-log' });
    await admin.sub('shop-admin', 'settings', { 'log-channel': logChannel });
    const buyer = new Member(h);

    // Every level of the shop, the unavailable variant, the quantity view and the added view.
    await buyer.run('shop');
    await buyer.choose(SERVER);
    await buyer.choose(CATEGORY);
    await buyer.choose(PRODUCT);
    await buyer.choose(SMS_VARIANT);
    expect(buyer.message!.text).toContain("can't be bought right now");
    await buyer.choose(optionLabels(buyer.message!).find((label) => label.startsWith('1. Na zawsze'))!);
    await buyer.press(en.common.back);
    await buyer.choose(VARIANT);
    await buyer.press(en.quantity.addToCart);
    await buyer.press(en.added.viewCart);
    await buyer.choose(optionLabels(buyer.message!)[0]!);
    await buyer.press(en.cart.backToCart);

    // The other-server refusal names the server the cart holds.
    await buyer.run('shop');
    await buyer.choose('SkyBlock');
    await buyer.choose('Rangi');
    await buyer.choose('VIP Wyspy');
    await buyer.choose('30 dni');
    const refused = await buyer.press(en.quantity.addToCart);
    expect(refused.message!.text).toContain('this shop sells one server per order');

    // Checkout: the reply, the DM and the log channel; then the buyer's and the moderators' lists.
    const dm = h.discord.waitForDm(buyer.user.id);
    await buyer.run('checkout', { nick: 'Hostile_1' });
    const reference = /Link reference: (\w+)/.exec(textOf(await dm))![1]!;
    await buyer.run('cart');
    await buyer.press(en.links.myLinks);
    await admin.sub('links', 'user', { member: buyer.user.id });
    await admin.sub('links', 'verify', { url: h.store.paymentUrls.at(-1)! });
    await admin.sub('links', 'revoke', { link: reference });

    // The admins' servers answer and its log entry, and the public panel.
    const serversMenu = async (pick: (values: string[]) => string[]) => {
      await admin.sub('shop-admin', 'servers');
      const select = theSelect(admin.message!);
      const values = pick((select.options ?? []).map((option) => option.value));
      return (await h.discord.select(admin.user, admin.message!, select.custom_id!, values, admin.options)).settled();
    };
    await serversMenu((values) => values.slice(1)); // hide the hostile server: its name is in the log entry
    const saved = await serversMenu((values) => values);
    expect(saved.message!.text).toContain('/shop now offers');
    // Goals on the panel and /shop-top: the store's goal texts and buyers' nicks are names too.
    const survivalId = h.store.shop.servers[0]!.id;
    h.store.goals.set(survivalId, [{ id: 1, name: PRODUCT, percentage: 40, formattedText: DESCRIPTION }]);
    h.store.richest.set(survivalId, [{ nick: VARIANT, amount: 1, totalBuys: 2 }]);
    await admin.sub('shop-admin', 'panel', { channel: logChannel });
    await buyer.run('shop-top', { server: 'SkyBlock' });
    await buyer.run('shop-top');

    const bodies = h.discord.requests
      .filter((request) => ['POST', 'PATCH'].includes(request.method) && /\/(callback|messages|webhooks)/.test(request.path))
      .map((request) => request.body as Sent & { data?: Sent })
      .map((body) => body?.data ?? body)
      .filter((body): body is Sent => typeof body === 'object' && body !== null);
    const texts = bodies.flatMap(markdownTexts);
    // The journey reached every place a name is written.
    for (const name of ['Survival', 'Rangi', 'VIP', '30 dni', 'Na zawsze', 'Opis']) {
      expect(texts.some((text) => text.includes(name))).toBe(true);
    }
    const problems = texts.flatMap((text) => RENDERED_MARKUP.filter(([, pattern]) => pattern.test(text)).map(([what]) => `${what} in: ${text.slice(0, 160)}`));
    expect(problems).toEqual([]);
  });
});

/** Server ids past 100 characters; one slug too long as well, one usable. */
function longIdShop(): ShopFixture {
  const shop = defaultShop();
  shop.servers[0]!.id = `srv-${'x'.repeat(140)}`;
  shop.servers[0]!.slug = `slug-${'y'.repeat(120)}`;
  shop.servers[1]!.id = `srv-${'z'.repeat(140)}`;
  shop.servers[1]!.slug = 'sky';
  return shop;
}

describe('store ids and slugs longer than Discord allows', () => {
  const h = useHarness({ shop: longIdShop() });

  it('are never offered as an autocomplete value over 100 characters; a usable slug or name stands in', async () => {
    const member = new Member(h);
    const outcome = await (await h.discord.autocomplete(member.user, 'shop', { name: 'server', value: '' })).settled();
    expect(outcome.choices).toEqual([
      { name: 'Survival', value: 'Survival' },
      { name: 'SkyBlock', value: 'sky' },
    ]);
    // The value works when sent back.
    const reply = await member.run('shop', { server: 'sky' });
    expect(textOf(reply.message!)).toContain('Shop › SkyBlock');
  });
});
