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
    expect(h.store.requestsTo('latestBuyers')).toHaveLength(polls);
    const posted = h.discord.messagesIn(feed).slice(before).map(textOf);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain('Feed\\_Payer');
    expect(posted[0]).toContain('VIP');

    // The feed's polls list it too: claimed already, not posted again.
    await s.poll(4);
    await h.bot.services.feed.settled();
    expect(h.store.requestsTo('latestBuyers').length).toBeGreaterThan(polls);
    expect(h.discord.messagesIn(feed).slice(before).filter((message) => textOf(message).includes('Feed\\_Payer'))).toHaveLength(1);
  });
});
