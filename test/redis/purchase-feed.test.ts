import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findVariant, manyServersShop } from '../fakes/spaceis/fixtures.js';
import { startBotsOnRedis, type BotsOnRedis } from '../support/bots-on-redis.js';
import { textOf } from '../support/ui.js';

/**
 * Two bots on one Redis serving one guild with the purchase feed on: their watcher rounds run at
 * the same moments, and every purchase is posted once (the license's round runs alone, and the
 * guild's posted transactions are claimed under a shared lock).
 */

describe('two bots on one Redis with the purchase feed on', () => {
  let env: BotsOnRedis;
  let feed: string;
  beforeAll(async () => {
    env = await startBotsOnRedis('purchase-feed');
    feed = env.discord.addChannel(env.discord.defaultGuildId, { name: 'purchases' });
    await env.bots[0]!.services.setup.changeSettings(env.discord.defaultGuildId, { purchaseFeedChannelId: feed });
  });
  afterAll(() => env.close());

  const round = async () => {
    await Promise.all(env.bots.map((bot) => bot.services.payments.tick()));
    // The feed posts outside the watcher's rounds.
    await Promise.all(env.bots.map((bot) => bot.services.feed.settled()));
  };

  it('posts each purchase once, whichever process reads it', async () => {
    await round();
    const vip = findVariant(env.store.shop, 'VIP', '30 dni').variant.id;
    for (let index = 0; index < 2; index += 1) env.store.purchaseOnWebsite({ nick: `Pair_${index}`, items: [{ variantId: vip, quantity: 1 }] });
    for (let minute = 0; minute < 3; minute += 1) {
      env.clock.advance(60_000);
      await round();
      await round();
    }
    const posts = env.discord.messagesIn(feed);
    expect(posts).toHaveLength(2);
    expect(posts.map(textOf).join('\n')).toMatch(/Pair\\_0[\s\S]*Pair\\_1/);
  });
});

describe('two bots on one Redis, a feed over 34 servers whose lists never change, and a restart (issue 29, point 1)', () => {
  let env: BotsOnRedis;
  let feed: string;
  beforeAll(async () => {
    env = await startBotsOnRedis('purchase-feed-many', 2, { shop: manyServersShop(34) });
    feed = env.discord.addChannel(env.discord.defaultGuildId, { name: 'purchases' });
    await env.bots[0]!.services.setup.changeSettings(env.discord.defaultGuildId, { purchaseFeedChannelId: feed });
  });
  afterAll(() => env.close());

  const round = async () => {
    await Promise.all(env.bots.map((bot) => bot.services.payments.tick()));
    // The feed posts outside the watcher's rounds.
    await Promise.all(env.bots.map((bot) => bot.services.feed.settled()));
  };

  it('posts each of 1 020 listed purchases once over 40 rounds of both processes and a restart', async () => {
    await round();
    for (const server of env.store.shop.servers) {
      const vip = server.categories[0]!.products[0]!.variants[0]!.id;
      for (let index = 0; index < 30; index += 1) env.store.purchaseOnWebsite({ nick: `P${index}`, items: [{ variantId: vip, quantity: 1 }] });
    }
    env.clock.advance(60_000);
    await round();
    const first = env.discord.messagesIn(feed).length;
    expect(first).toBe(34 * 3);
    for (let minute = 0; minute < 40; minute += 1) {
      if (minute === 20) await env.restart(1);
      env.clock.advance(60_000);
      await round();
    }
    expect(env.discord.messagesIn(feed)).toHaveLength(first);
  });
});
