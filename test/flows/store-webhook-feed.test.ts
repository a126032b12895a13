import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { ADMIN, connectStoreWebhook, loggedMore, TEMPLATE } from '../support/store-webhook.js';
import { textOf } from '../support/ui.js';

/**
 * Issue 38: the purchase feed uses the store's posts. A paid link confirmed from a post is in the
 * feed channel at once, before any poll of latest buyers; the polls after it post it no second time.
 */
describe('the purchase feed from the store webhook', () => {
  const h = useHarness();
  const s = linkSteps(h);
  let feed: string;
  let hook: { url: string };

  beforeAll(async () => {
    const admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    hook = await connectStoreWebhook(h, admin);
    feed = h.discord.addChannel(h.discord.defaultGuildId, { name: 'purchases' });
    const saved = await admin.sub('shop-admin', 'settings', { 'purchase-feed-channel': feed });
    expect(textOf(saved.message!)).toContain(en.admin.settingsSaved);
  });

  it('posts a paid purchase confirmed from a post at once, and once', async () => {
    h.store.purchaseWebhooks.configs.splice(0, Infinity, { url: hook.url, template: TEMPLATE });
    const issued = await s.checkout(new Member(h), 'Feed_Payer', VIP_30);
    await s.poll();
    await h.bot.services.feed.settled();
    const polls = h.store.requestsTo('latestBuyers').length;
    const before = h.discord.messagesIn(feed).length;

    const read = loggedMore(h, 'store webhook: post read');
    h.store.pay(issued.url);
    await h.store.purchaseWebhooks.settled();
    await read;
    await h.bot.services.feed.settled();
    // One read of the server's latest purchases placed the posted purchase in time (transaction/info gives no date).
    expect(h.store.requestsTo('latestBuyers')).toHaveLength(polls + 1);
    const posted = h.discord.messagesIn(feed).slice(before).map(textOf);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain('Feed\\_Payer');
    expect(posted[0]).toContain('VIP');

    // The feed's polls list it too once it reads latest buyers again (10 minutes after the last post):
    // claimed already, not posted again.
    await s.poll(12, 60_000);
    await h.bot.services.feed.settled();
    expect(h.store.requestsTo('latestBuyers').length).toBeGreaterThan(polls);
    expect(h.discord.messagesIn(feed).slice(before).filter((message) => textOf(message).includes('Feed\\_Payer'))).toHaveLength(1);
  });
});

/**
 * Issue 38, point 3: while the guild's webhook is connected and healthy, the feed takes the store's
 * posts, a purchase on the website too (the feed item built from the store's transaction/info answer),
 * and reads latest buyers only after 10 minutes without a post; each purchase is still posted once.
 */
describe('the purchase feed resting on the store webhook', () => {
  const h = useHarness();
  const MINUTE = 60_000;
  let feed: string;
  let hook: { url: string };

  const vip = () => {
    const variant = h.store.shop.servers[0]!.categories[0]!.products[0]!.variants[0]!;
    return [{ variantId: variant.id, quantity: 1 }];
  };
  /** A round a minute later, as the production timer runs them; the feed posts outside it. */
  const minute = async (times = 1) => {
    for (let index = 0; index < times; index += 1) {
      h.clock.advance(MINUTE);
      await h.bot.services.payments.tick();
      await h.bot.services.feed.settled();
    }
  };
  const feedPosts = (nick: string) => h.discord.messagesIn(feed).map(textOf).filter((text) => text.includes(nick));

  beforeAll(async () => {
    const admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    hook = await connectStoreWebhook(h, admin);
    feed = h.discord.addChannel(h.discord.defaultGuildId, { name: 'purchases' });
    const saved = await admin.sub('shop-admin', 'settings', { 'purchase-feed-channel': feed });
    expect(textOf(saved.message!)).toContain(en.admin.settingsSaved);
    // The feed's first look at the shop's servers, before any post.
    await minute();
    h.store.purchaseWebhooks.configs.splice(0, Infinity, { url: hook.url, template: TEMPLATE });
  });

  it('posts a website purchase announced by a post at once, without reading latest buyers', async () => {
    const polls = h.store.requestsTo('latestBuyers').length;
    const read = loggedMore(h, 'store webhook: post read');
    h.store.purchaseOnWebsite({ nick: 'Web_Buyer', items: vip() });
    await h.store.purchaseWebhooks.settled();
    await read;
    await h.bot.services.feed.settled();
    const posted = feedPosts('Web\\_Buyer');
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain('VIP');
    // Never the buyer's e-mail or the amount.
    expect(posted[0]).not.toContain('@');
    expect(posted[0]).not.toMatch(/zł|PLN/);
    expect(h.store.requestsTo('latestBuyers')).toHaveLength(polls);
  });

  it('reads latest buyers again once no post arrived for 10 minutes, and posts a purchase both posted and polled once', async () => {
    const polls = h.store.requestsTo('latestBuyers').length;
    // Within 10 minutes of the last post: the feed does not read latest buyers.
    await minute(9);
    expect(h.store.requestsTo('latestBuyers')).toHaveLength(polls);
    // Ten minutes without a post: read again, once a minute, and what it lists (the purchase posted
    // above among them) is not posted a second time.
    await minute(2);
    const after = h.store.requestsTo('latestBuyers').length;
    expect(after).toBeGreaterThan(polls);
    await minute(2);
    expect(h.store.requestsTo('latestBuyers').length).toBeGreaterThan(after);
    expect(feedPosts('Web\\_Buyer')).toHaveLength(1);
  });

  it('posts a website purchase found by a poll and announced by a late post once', async () => {
    // The webhook is quiet (the feed reads latest buyers): a purchase made without a post is polled…
    const saved = [...h.store.purchaseWebhooks.configs];
    h.store.purchaseWebhooks.configs.splice(0, Infinity);
    const id = h.store.purchaseOnWebsite({ nick: 'Late_Post', items: vip() });
    await minute();
    expect(feedPosts('Late\\_Post')).toHaveLength(1);
    // … and the store's post of it comes late: the feed does not post it again.
    const read = loggedMore(h, 'store webhook: post read');
    await fetch(`${hook.url}?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: `Zakup Late_Post: VIP, ${id}` }) });
    await read;
    await h.bot.services.feed.settled();
    expect(feedPosts('Late\\_Post')).toHaveLength(1);
    h.store.purchaseWebhooks.configs.push(...saved);
  });

  it('posts nothing for a forged id: the store is asked once and answers it does not know it', async () => {
    const asked = h.store.requestsTo('transactionInfo').length;
    const posts = h.discord.messagesIn(feed).length;
    const read = loggedMore(h, 'store webhook: post read');
    await fetch(`${hook.url}?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'Zakup Forger: VIP, 0b5c7e2a-1f3d-4c1e-9a8b-7d6e5f4a3b2c' }) });
    await read;
    await h.bot.services.feed.settled();
    expect(h.store.requestsTo('transactionInfo')).toHaveLength(asked + 1);
    expect(h.discord.messagesIn(feed)).toHaveLength(posts);
  });
});
