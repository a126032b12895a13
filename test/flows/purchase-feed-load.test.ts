import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { en } from '../../src/i18n/en.js';
import { defaultShop } from '../fakes/spaceis/fixtures.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { textOf } from '../support/ui.js';

/**
 * Issue 29, point 6: the purchase feed never slows payment confirmations. The watcher hands its
 * rows over and goes on; the feed posts per guild outside the watcher's lock, from one read of
 * its registry a round.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

describe('a feed channel Discord keeps the bot waiting on', () => {
  const h = useHarness();
  const s = linkSteps(h);

  it('delays neither a paid link’s confirmation nor the next rounds', async () => {
    const guild = h.discord.defaultGuildId;
    const feed = h.discord.addChannel(guild, { name: 'purchases' });
    await h.bot.services.setup.changeSettings(guild, { purchaseFeedChannelId: feed });
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Steve_123', VIP_30);
    await h.bot.services.payments.tick();
    await h.bot.services.feed.settled();

    // Each post in the feed channel waits until the test lets it through (5 s each, say).
    const slow = h.discord.holdPosts(feed);
    h.store.purchaseOnWebsite({ nick: 'Website_Buyer', items: [{ variantId: h.store.shop.servers[0]!.categories[0]!.products[0]!.variants[0]!.id, quantity: 1 }] });
    h.clock.advance(MINUTE);
    await h.bot.services.payments.tick();
    await slow.reached;

    // The link is paid while the feed's post still waits: the next round confirms it.
    h.store.pay(issued.url);
    h.clock.advance(30 * SECOND);
    await h.bot.services.payments.tick();
    expect(s.dmNow(issued)!.text).toContain('✅');
    expect(h.discord.messagesIn(feed)).toHaveLength(0);

    slow.release();
    await h.bot.services.feed.settled();
    const posted = h.discord.messagesIn(feed).map(textOf).join('\n');
    expect(posted).toContain('Website\\_Buyer');
    expect(posted).toContain('Steve\\_123');
    expect(posted).toContain(en.feed.title);
  });
});

describe('the feed on 50 guilds with 50 licenses', () => {
  const h = useHarness({ noDefaultLicense: true });

  it('reads its registry at most once a round, and a license only the feed reads is visited once a minute', async () => {
    const { secretBox } = h.bot.services;
    const guilds: string[] = [];
    for (let index = 0; index < 50; index += 1) {
      const key = `feed-load-license-${String(index).padStart(3, '0')}-0123456789abcdef`;
      h.store.shopsByKey.set(key, defaultShop());
      const guild = h.discord.addGuild({ name: `Guild ${index}` });
      const fingerprint = createHash('sha256').update(key).digest('hex').slice(0, 8);
      await h.bot.services.setup.saveLicense(guild.id, { sealed: secretBox!.seal(key, guild.id), fingerprint, setBy: 'test' });
      const feed = h.discord.addChannel(guild.id, { name: 'purchases' });
      await h.bot.services.setup.changeSettings(guild.id, { purchaseFeedChannelId: feed });
      guilds.push(guild.id);
    }
    await h.bot.services.payments.tick();
    await h.bot.services.feed.settled();

    const registryReads = () => h.storage.readKeys.filter((key) => key.endsWith(':feed-guilds')).length;
    const stateWrites = () => h.storage.writtenKeys.filter((key) => key.includes(':pay-state:')).length;
    const buyersBefore = h.store.requestsTo('latestBuyers').length;
    const [readsBefore, writesBefore, allBefore] = [registryReads(), stateWrites(), h.storage.readKeys.length];
    // A minute of 5-second ticks.
    for (let tick = 0; tick < 12; tick += 1) {
      h.clock.advance(5 * SECOND);
      await h.bot.services.payments.tick();
      await h.bot.services.feed.settled();
    }
    expect(registryReads() - readsBefore).toBeLessThanOrEqual(12);
    // All storage reads of the minute, the watcher's included: 5 per license at most (before: 4 924,
    // 2 450 of them the shops of every pair of licenses compared again each round).
    expect(h.storage.readKeys.length - allBefore).toBeLessThanOrEqual(50 * 5);
    // Each license visited once in the minute, each of its 2 servers read once; its watch state is
    // written twice: the next poll time before the store is asked (issue 28), what the poll saw after.
    expect(stateWrites() - writesBefore).toBeLessThanOrEqual(50 * 2);
    expect(h.store.requestsTo('latestBuyers').length - buyersBefore).toBe(50 * 2);
  });
});
