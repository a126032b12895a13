import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot, registerBotCommands, type Bot } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs } from '../fakes/spaceis/fake-spaceis.js';
import { findVariant } from '../fakes/spaceis/fixtures.js';
import { BOT_TOKEN, ENCRYPTION_KEY, LICENSE_KEY } from '../support/harness.js';
import { testStorage } from '../support/redis.js';
import { textOf } from '../support/ui.js';

/**
 * Two bots on one Redis serving one guild with the purchase feed on: their watcher rounds run at
 * the same moments, and every purchase is posted once (the license's round runs alone, and the
 * guild's posted transactions are claimed under a shared lock).
 */

describe('two bots on one Redis with the purchase feed on', () => {
  let discord: FakeDiscord;
  let store: FakeSpaceIs;
  const redis = testStorage('purchase-feed');
  const clock = new ManualClock();
  const bots: Bot[] = [];
  let feed: string;
  beforeAll(async () => {
    discord = await FakeDiscord.start();
    store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY });
    store.now = () => clock.now();
    const config = loadConfig({ DISCORD_TOKEN: BOT_TOKEN, DISCORD_API_URL: discord.apiUrl, SPACEIS_API_URL: store.url, SPACEIS_API_KEY: LICENSE_KEY, ENCRYPTION_KEY, STORAGE_URL: redis.url, LOG_LEVEL: 'silent', DEMO_PORT: '0' });
    for (let index = 0; index < 2; index += 1) {
      const bot = await createBot({
        config,
        logger: createLogger('silent'),
        clock,
        paymentWatch: 'manual',
        discordOptions: { ws: { buildIdentifyThrottler: async () => ({ waitForIdentify: async () => undefined }) } },
      });
      await bot.start();
      bots.push(bot);
    }
    await registerBotCommands(bots[0]!.client.rest);
    feed = discord.addChannel(discord.defaultGuildId, { name: 'purchases' });
    await bots[0]!.services.setup.changeSettings(discord.defaultGuildId, { purchaseFeedChannelId: feed });
  });
  afterAll(async () => {
    for (const bot of bots) await bot.stop();
    await discord.close();
    await store.close();
    await redis.cleanUp();
  });

  const round = () => Promise.all(bots.map((bot) => bot.services.payments.tick()));

  it('posts each purchase once, whichever process reads it, and again nothing after a restart of one', async () => {
    await round();
    const vip = findVariant(store.shop, 'VIP', '30 dni').variant.id;
    for (let index = 0; index < 2; index += 1) store.purchaseOnWebsite({ nick: `Pair_${index}`, items: [{ variantId: vip, quantity: 1 }] });
    for (let minute = 0; minute < 3; minute += 1) {
      clock.advance(60_000);
      await round();
      await round();
    }
    const posts = discord.messagesIn(feed);
    expect(posts).toHaveLength(2);
    expect(posts.map(textOf).join('\n')).toMatch(/Pair\\_0[\s\S]*Pair\\_1/);
  });
});
