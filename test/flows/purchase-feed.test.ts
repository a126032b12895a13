import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import type { ShopFixture } from '../fakes/spaceis/fake-spaceis.js';
import { defaultShop, findVariant, fixtureUuid, manyServersShop } from '../fakes/spaceis/fixtures.js';
import type { FakeMessage } from '../fakes/discord/types.js';
import { Member } from '../support/buyer.js';
import { startHarness, useHarness, type Harness } from '../support/harness.js';
import { buttonLabels, buttons, isDisplay, picturesOf, textOf } from '../support/ui.js';

/**
 * The purchase feed: /shop-admin settings purchase-feed-channel: makes the bot post every purchase
 * the shop lists for the servers the guild offers, read by the payment watcher's rounds (run here
 * with `payments.tick()` on the test's clock), each transaction once, with a Buy button any member
 * can press for their own quantity screen.
 */

const MINUTE = 60_000;
const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ManageGuild;
const HOSTILE_PRODUCT = '**VIP** [kup](https://evil.example/x) <@&999> @everyone';
const IMAGE = 'https://cdn.example/vip.png';

function feedShop(): ShopFixture {
  const shop = defaultShop();
  const vip = shop.servers[0]!.categories[0]!.products[0]!;
  vip.imageUrl = IMAGE;
  return shop;
}

function steps(h: Harness) {
  let admin: Member | undefined;
  return {
    /** Made on first use: the harness starts in beforeAll. */
    get admin(): Member {
      admin ??= new Member(h, { permissions: ADMIN, username: 'owner' });
      return admin;
    },
    /** A round a minute later, as the production timer runs them. */
    async minute(times = 1) {
      for (let index = 0; index < times; index += 1) {
        h.clock.advance(MINUTE);
        await h.bot.services.payments.tick();
        // The feed posts outside the watcher's round.
        await h.bot.services.feed.settled();
      }
    },
    buy(product: string, variant: string, nick = 'Steve_123', quantity = 1) {
      const found = findVariant(h.store.shop, product, variant);
      return h.store.purchaseOnWebsite({ nick, items: [{ variantId: found.variant.id, quantity }] });
    },
    async switchOn(options: Record<string, string> = {}) {
      const channel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'purchases' });
      const saved = await this.admin.sub('shop-admin', 'settings', { 'purchase-feed-channel': channel, ...options });
      expect(textOf(saved.message!)).toContain(en.admin.settingsSaved);
      await h.bot.services.payments.tick(); // the first look at the shop's servers
      await h.bot.services.feed.settled();
      return channel;
    },
    posts: (channel: string): FakeMessage[] => h.discord.messagesIn(channel),
  };
}

describe('the purchase feed', () => {
  const h = useHarness({ shop: feedShop() });
  const s = steps(h);

  it('posts a purchase with the product, variant, nick, time and image, and a Buy button that opens the quantity screen for any member', async () => {
    const channel = await s.switchOn();
    s.buy('VIP', '30 dni');
    await s.minute();
    const [post, ...more] = s.posts(channel);
    expect(more).toEqual([]);
    const text = textOf(post!);
    expect(text).toContain('Steve\\_123');
    expect(text).toContain('30 dni');
    expect(text).toContain('VIP');
    expect(text).toMatch(/<t:\d+:R>/);
    expect(isDisplay(post!)).toBe(true);
    expect(text).toContain(en.feed.title);
    // The product's picture beside the purchase.
    expect(picturesOf(post!)).toEqual([IMAGE]);
    expect(buttonLabels(post!)).toEqual([en.feed.buy]);
    // Never a payment URL, an amount or a payment method (the picture is the only address in the post).
    expect([text, ...buttonLabels(post!)].join('\n')).not.toMatch(/https?:\/\/|blik|zł|PLN|\d+[.,]\d\d/i);
    expect(JSON.stringify(post!.components).replaceAll(IMAGE, '')).not.toMatch(/https?:/);

    const other = new Member(h);
    const screen = await other.press(en.feed.buy, post);
    expect(screen.ephemeral).toBe(true);
    expect(buttonLabels(screen.message!)).toContain(en.quantity.addToCart);
    const back = await other.press(en.common.back);
    expect(textOf(back.message!)).toContain('VIP');
    expect(back.message!.components.length).toBeGreaterThan(0);
  });

  it('posts each transaction once, also across a restart, and nothing made before the feed was switched on', async () => {
    const channel = await s.switchOn();
    const before = s.posts(channel).length;
    s.buy('VIP', 'Na zawsze', 'Alex');
    await s.minute();
    expect(s.posts(channel).length).toBe(before + 1);
    await s.minute(2);
    await h.restart();
    await s.minute(2);
    expect(s.posts(channel).length).toBe(before + 1);
  });
});

describe('the purchase feed on its first start', () => {
  const h = useHarness({ shop: feedShop() });
  const s = steps(h);

  it('posts nothing the shop sold before it was switched on', async () => {
    s.buy('VIP', '30 dni', 'Early');
    h.clock.advance(5 * MINUTE);
    const channel = await s.switchOn();
    await s.minute(3);
    expect(s.posts(channel)).toEqual([]);
    s.buy('VIP', '30 dni', 'Late');
    await s.minute();
    expect(s.posts(channel).map(textOf).join('\n')).toContain('Late');
    expect(s.posts(channel).map(textOf).join('\n')).not.toContain('Early');
  });
});

describe('the purchase feed and what the guild chose', () => {
  const h = useHarness({ shop: feedShop() });
  const s = steps(h);

  it("leaves out hidden servers, hides nicks when asked (\"a player\"), and speaks Polish", async () => {
    const guild = h.discord.defaultGuildId;
    const skyblock = h.store.shop.servers[1]!.id;
    await h.bot.services.storage.guildSettings.set(guild, { hiddenServerIds: [skyblock], locale: 'pl' });
    const channel = await s.switchOn({ 'purchase-feed-nicks': 'hide' });
    s.buy('VIP Wyspy', '30 dni', 'Hidden_Server');
    s.buy('VIP', '30 dni', 'Secret_Nick');
    await s.minute();
    const posts = s.posts(channel);
    expect(posts).toHaveLength(1);
    const text = textOf(posts[0]!);
    expect(text).not.toContain('Secret');
    expect(text).toContain(pl.feed.aPlayer);
    // A hidden nick is left out of the sentence: „Gracz kupił …”, not „Gracz Gracz kupił …”.
    expect(text).toContain('Gracz kupił **VIP — 30 dni**');
    expect(text).not.toContain('Gracz **Gracz**');
    expect(text).toContain(pl.feed.title);
    expect(buttonLabels(posts[0]!)).toEqual([pl.feed.buy]);
  });
});

describe('a burst of purchases', () => {
  const h = useHarness({ shop: feedShop() });
  const s = steps(h);

  it('posts 30 purchases in a few listings, each line with a Buy button, within Discord’s limits', async () => {
    const channel = await s.switchOn();
    const variants = ['30 dni', 'Na zawsze'];
    for (let index = 0; index < 30; index += 1) s.buy('VIP', variants[index % 2]!, `Buyer_${index}`);
    await s.minute();
    const posts = s.posts(channel);
    expect(posts.length).toBe(3);
    const all = posts.map(textOf).join('\n');
    for (let index = 0; index < 30; index += 1) expect(all).toContain(`Buyer\\_${index}`);
    for (const post of posts) {
      expect(textOf(post)).toContain(en.feed.burstTitle(10));
      expect(buttons(post).length).toBe(2);
    }
    await s.minute(2);
    expect(s.posts(channel).length).toBe(3);
  });
});

describe('a feed channel the bot cannot post in', () => {
  const h = useHarness({ shop: feedShop() });
  const s = steps(h);

  it('is reported once in the log channel and in /shop-admin status, and the feed stops', async () => {
    const guild = h.discord.defaultGuildId;
    const log = h.discord.addChannel(guild, { name: 'shop-log' });
    await h.bot.services.storage.guildSettings.set(guild, { logChannelId: log });
    const channel = await s.switchOn();
    h.discord.denyBot(channel, PermissionFlagsBits.SendMessages);
    s.buy('VIP', '30 dni');
    await s.minute();
    s.buy('VIP', 'Na zawsze');
    await s.minute(2);
    const reports = h.discord.messagesIn(log).filter((message) => textOf(message).includes(en.feed.refusedTitle));
    expect(reports).toHaveLength(1);
    expect(textOf(reports[0]!)).toContain(`<#${channel}>`);
    const status = await s.admin.sub('shop-admin', 'status');
    expect(textOf(status.message!)).toContain(en.feed.statusRefused(`<#${channel}>`, en.feed.refusedReason['no-access']));
    expect(s.posts(channel)).toEqual([]);
    // Out of the feed's registry: the refused guild costs no reads any more.
    expect(await h.bot.services.storage.purchaseFeed.guilds()).not.toContain(guild);
  });
});

describe('hostile store names in the feed', () => {
  it('shows markup in product names as text', async () => {
    const shop = feedShop();
    shop.servers[0]!.categories[0]!.products[0]!.name = HOSTILE_PRODUCT;
    const h = await startHarness({ shop });
    try {
      const s = steps(h);
      const channel = await s.switchOn();
      s.buy(HOSTILE_PRODUCT, '30 dni');
      await s.minute();
      const text = textOf(s.posts(channel)[0]!);
      expect(text).not.toMatch(/(?<!\\)\[kup(?<!\\)\]\(https?:\/\/evil/);
      expect(text).not.toMatch(/https?:\/\/evil/);
      expect(text).not.toMatch(/(?<!\\)<@&999>/);
      expect(text).not.toMatch(/(?<!\\)@everyone/);
      expect(buttonLabels(s.posts(channel)[0]!)).toEqual([en.feed.buy]);
    } finally {
      await h.close();
    }
  });
});

describe('a product whose picture Discord cannot show', () => {
  it('posts the purchase by name, without a picture', async () => {
    const shop = feedShop();
    shop.servers[0]!.categories[0]!.products[0]!.imageUrl = 'http://cdn.example/vip.png';
    const h = await startHarness({ shop });
    try {
      const s = steps(h);
      const channel = await s.switchOn();
      s.buy('VIP', '30 dni');
      await s.minute();
      const [post] = s.posts(channel);
      expect(isDisplay(post!)).toBe(true);
      expect(textOf(post!)).toContain('VIP');
      expect(picturesOf(post!)).toEqual([]);
      expect(buttonLabels(post!)).toEqual([en.feed.buy]);
    } finally {
      await h.close();
    }
  });
});

describe('what the feed costs', () => {
  const h = useHarness({ shop: feedShop() });
  const s = steps(h);

  it('reads each offered server once a minute without open links: 60 latest_buyers an hour per server', async () => {
    await s.switchOn();
    const servers = h.store.shop.servers.length;
    const before = h.store.requestsTo('latestBuyers').length;
    for (let second = 0; second < 3600; second += 5) {
      h.clock.advance(5_000);
      await h.bot.services.payments.tick();
    }
    const perHour = h.store.requestsTo('latestBuyers').length - before;
    expect(perHour).toBe(60 * servers);
    expect(h.store.requestsTo('transactionInfo')).toHaveLength(0);
  });
});

describe('a feed over many servers whose lists never change (issue 29, point 1)', () => {
  it('posts nothing again over 40 rounds when 34 servers each keep the same 30 purchases listed', async () => {
    const h = await startHarness({ shop: manyServersShop(34) });
    try {
      const s = steps(h);
      const channel = await s.switchOn();
      for (const server of h.store.shop.servers) {
        const vip = server.categories[0]!.products[0]!.variants[0]!.id;
        for (let index = 0; index < 30; index += 1) h.store.purchaseOnWebsite({ nick: `P${index}`, items: [{ variantId: vip, quantity: 1 }] });
      }
      await s.minute();
      const first = s.posts(channel).length;
      expect(first).toBeGreaterThan(0);
      await s.minute(40);
      expect(s.posts(channel).length).toBe(first);
    } finally {
      await h.close();
    }
  });

  it('posts nothing again for a quiet server beside a busy one', async () => {
    const h = await startHarness({ shop: feedShop() });
    try {
      const s = steps(h);
      const channel = await s.switchOn();
      s.buy('VIP Wyspy', '30 dni', 'Quiet_One');
      await s.minute();
      const quietPosts = () => s.posts(channel).filter((post) => textOf(post).includes('Quiet\\_One')).length;
      expect(quietPosts()).toBe(1);
      // 1 100 purchases on the busy server, 30 a round: the quiet one's purchase stays listed all along.
      for (let round = 0; round < 37; round += 1) {
        for (let index = 0; index < 30; index += 1) s.buy('VIP', '30 dni', `Busy_${round}_${index}`);
        await s.minute();
      }
      expect(quietPosts()).toBe(1);
    } finally {
      await h.close();
    }
  });
});

describe('a product name two products share (issue 29, point 7)', () => {
  it('posts the purchase without a Buy button (it may have been either), and with one when the name is the only one', async () => {
    const shop = feedShop();
    const survival = shop.servers[0]!;
    const vip = survival.categories[0]!.products[0]!;
    // Another "VIP" with a "30 dni" variant in another category of the same server.
    const twin = structuredClone(vip);
    twin.id = fixtureUuid('product:twin-vip');
    twin.variants = twin.variants.map((variant) => ({ ...variant, id: fixtureUuid(`variant:twin:${variant.name}`) }));
    survival.categories[1]!.products.push(twin);
    const h = await startHarness({ shop });
    try {
      const s = steps(h);
      const channel = await s.switchOn();
      h.store.purchaseOnWebsite({ nick: 'Twin_Buyer', items: [{ variantId: vip.variants.find((variant) => variant.name === '30 dni')!.id, quantity: 1 }] });
      await s.minute();
      const [post] = s.posts(channel);
      expect(textOf(post!)).toContain('Twin\\_Buyer');
      expect(buttonLabels(post!)).toEqual([]);
      // A name only one product has keeps its button.
      s.buy('VIP Wyspy', '30 dni', 'Sky_Buyer');
      await s.minute();
      expect(buttonLabels(s.posts(channel).at(-1)!)).toEqual([en.feed.buy]);
    } finally {
      await h.close();
    }
  });
});

describe('a feed posted by a process that does not run the guild’s shard (issue 29, point 7)', () => {
  // This process runs shard 0 of 2; the guild is on shard 1, its Discord language Polish.
  const h = useHarness({ shop: feedShop(), recommendedShards: 2, shards: '0', shardCount: 2 });

  it('speaks the guild’s language all the same', async () => {
    const guild = h.discord.addGuild({ name: 'Polski serwer', shard: 1, preferredLocale: 'pl' });
    const channel = h.discord.addChannel(guild.id, { name: 'zakupy' });
    await h.bot.services.setup.changeSettings(guild.id, { purchaseFeedChannelId: channel });
    await h.bot.services.payments.tick();
    await h.bot.services.feed.settled();
    steps(h).buy('VIP', '30 dni', 'Polak');
    h.clock.advance(MINUTE);
    await h.bot.services.payments.tick();
    await h.bot.services.feed.settled();
    const [post] = h.discord.messagesIn(channel);
    expect(textOf(post!)).toContain(pl.feed.title);
    expect(buttonLabels(post!)).toEqual([pl.feed.buy]);

    // Its notices too: the feed channel refuses the bot, the log channel is told in Polish.
    const log = h.discord.addChannel(guild.id, { name: 'log-sklepu' });
    await h.bot.services.setup.changeSettings(guild.id, { logChannelId: log });
    h.discord.denyBot(channel, PermissionFlagsBits.SendMessages);
    steps(h).buy('VIP', 'Na zawsze', 'Polak_2');
    h.clock.advance(MINUTE);
    await h.bot.services.payments.tick();
    await h.bot.services.feed.settled();
    await h.bot.settled();
    expect(h.discord.messagesIn(log).map(textOf).join('\n')).toContain(pl.feed.refusedTitle);
  });
});
