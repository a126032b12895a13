import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness, type Harness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { ADMIN, connectStoreWebhook, loggedMore, postAsStore, TEMPLATE } from '../support/store-webhook.js';
import { textOf } from '../support/ui.js';

/**
 * Issue 38, point 3: with the store webhook connected and healthy, polling is the safety net (every
 * 5 minutes instead of 30 s); a payment only a poll found, that no post named within 2 minutes, is a
 * miss; three in a day and status and the log channel say once that the webhook seems off, and
 * polling goes back to every 30 s until a post names a payment again.
 */

const MINUTE = 60_000;

async function logChannel(h: Harness): Promise<string> {
  const channel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-log' });
  await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { logChannelId: channel });
  return channel;
}

describe('polling as the safety net of the store webhook', () => {
  const h = useHarness();
  const s = linkSteps(h);
  let admin: Member;
  let log: string;
  let hook: { url: string };
  const polls = () => h.store.requestsTo('latestBuyers').length;
  const offPosts = () => h.discord.messagesIn(log).filter((message) => textOf(message).includes(en.storeWebhook.seemsOffTitle));
  const status = async () => textOf((await admin.sub('shop-admin', 'status')).message!);

  beforeAll(async () => {
    admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    log = await logChannel(h);
    hook = await connectStoreWebhook(h, admin);
    // The panel's webhook is not set up (a wrong URL, say): the store posts nothing.
    h.store.purchaseWebhooks.configs.splice(0);
  });

  /** Rounds every 30 s until the server is polled (at most one safety-net interval and a round). */
  async function untilPolled(): Promise<void> {
    const before = polls();
    for (let round = 0; round < 11 && polls() === before; round += 1) await s.poll();
    expect(polls()).toBe(before + 1);
  }

  /** A paid link no post announced, found by the safety-net poll; then 2 minutes with no post. */
  async function missedPayment(nick: string): Promise<void> {
    const issued = await s.checkout(new Member(h), nick, VIP_30);
    await untilPolled();
    const before = polls();
    h.store.pay(issued.url);
    // Healthy: the server is not asked again within 5 minutes.
    await s.poll(9);
    expect(polls()).toBe(before);
    expect((await s.record(issued))!.payment).toBeUndefined();
    await s.poll();
    expect(polls()).toBe(before + 1);
    expect((await s.record(issued))!.payment?.status).toBe('paid');
    await h.bot.services.delivery.whenIdle();
    expect(s.dmNow(issued)!.text).toContain('✅ The shop reports this order as paid');
    // No post within 2 minutes: a miss, counted by a later round.
    h.clock.advance(2 * MINUTE);
    await s.tick();
  }

  it('polls every 5 minutes while healthy; a payment no post announced is found by that poll', async () => {
    await missedPayment('Safety_One');
    expect(await status()).not.toContain(en.storeWebhook.seemsOff);
    expect(offPosts()).toHaveLength(0);
  });

  it('three misses in a day: status and the log channel say once that the webhook seems off; polls every 30 s again', async () => {
    await missedPayment('Safety_Two');
    expect(offPosts()).toHaveLength(0);
    await missedPayment('Safety_Three');
    expect(offPosts()).toHaveLength(1);
    expect(textOf(offPosts()[0]!)).not.toContain(hook.url);
    expect(await status()).toContain(en.storeWebhook.seemsOff);

    // While it seems off: an open link's server is polled every 30 s, and nothing is said again.
    await s.checkout(new Member(h), 'Safety_Four', VIP_30);
    await s.poll();
    const before = polls();
    await s.poll(4);
    expect(polls()).toBe(before + 4);
    h.clock.advance(10 * MINUTE);
    await s.tick();
    expect(offPosts()).toHaveLength(1);
  });

  it('a post that names a payment ends it: back to the 5-minute cadence, status quiet', async () => {
    h.store.purchaseWebhooks.configs.splice(0, Infinity, { url: hook.url, template: TEMPLATE });
    const issued = await s.checkout(new Member(h), 'Safety_Five', VIP_30);
    await s.poll();
    // The post is read on its own (the gateway's event): wait for the reading, not for a poll.
    const read = loggedMore(h, 'store webhook: post read');
    const transactionId = h.store.pay(issued.url);
    await h.store.purchaseWebhooks.settled();
    await postAsStore(hook, `Zakup Safety_Five: ${transactionId}`).catch(() => undefined);
    await read;
    await s.poll();
    expect((await s.record(issued))!.payment?.status).toBe('paid');
    expect(await status()).not.toContain(en.storeWebhook.seemsOff);
    await s.checkout(new Member(h), 'Safety_Six', VIP_30);
    await untilPolled();
    const before = polls();
    await s.poll(4);
    expect(polls()).toBe(before);
  });

  it('a server the purchase feed reads is read once a minute while the healthy webhook posted nothing for 10 minutes', async () => {
    const feed = h.discord.addChannel(h.discord.defaultGuildId, { name: 'purchases' });
    await admin.sub('shop-admin', 'settings', { 'purchase-feed-channel': feed });
    // The last post came within 10 minutes: the feed rests on the posts (store-webhook-feed.test.ts); 10 minutes on, it reads.
    h.clock.advance(10 * MINUTE);
    await s.tick();
    const before = polls();
    await s.poll(4);
    // Each server the feed reads (the open link's among them): twice in 2 minutes.
    const perServer = new Map<string, number>();
    for (const request of h.store.requestsTo('latestBuyers').slice(before)) perServer.set(request.path, (perServer.get(request.path) ?? 0) + 1);
    expect(perServer.size).toBeGreaterThan(1);
    expect([...perServer.values()].every((count) => count === 2)).toBe(true);
  });
});
