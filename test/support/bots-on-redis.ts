import { createBot, registerBotCommands, type Bot } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import type { ChartRenderer } from '../../src/services/insights/chart-renderer.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs, type ShopFixture } from '../fakes/spaceis/fake-spaceis.js';
import { BOT_TOKEN, ENCRYPTION_KEY, LICENSE_KEY } from './harness.js';
import { testStorage } from './redis.js';

export interface BotsOnRedis {
  discord: FakeDiscord;
  store: FakeSpaceIs;
  clock: ManualClock;
  bots: Bot[];
  /** Stops bot `index` and starts a new one in its place on the same Redis, as after a crash or deploy. */
  restart(index: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * `count` bots in this process on one Redis (a test database and prefix of their own), one local
 * Discord and one local store, on one manual clock, their payment watchers run by the test;
 * `chartRenderer` makes each bot's insights chart renderer (a test double), else the bot's own.
 */
export async function startBotsOnRedis(name: string, count = 2, options: { shop?: ShopFixture; chartRenderer?: () => ChartRenderer } = {}): Promise<BotsOnRedis> {
  const redis = testStorage(name);
  const clock = new ManualClock();
  const discord = await FakeDiscord.start();
  const store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY, ...(options.shop ? { shop: options.shop } : {}) });
  store.now = () => clock.now();
  const config = loadConfig({ DISCORD_TOKEN: BOT_TOKEN, DISCORD_API_URL: discord.apiUrl, SPACEIS_API_URL: store.url, SPACEIS_API_KEY: LICENSE_KEY, ENCRYPTION_KEY, STORAGE_URL: redis.url, LOG_LEVEL: 'silent', DEMO_PORT: '0' });
  const bots: Bot[] = [];
  const launch = async (): Promise<Bot> => {
    const bot = await createBot({
      config,
      logger: createLogger('silent'),
      clock,
      paymentWatch: 'manual',
      ...(options.chartRenderer ? { chartRenderer: options.chartRenderer() } : {}),
      discordOptions: { ws: { buildIdentifyThrottler: async () => ({ waitForIdentify: async () => undefined }) } },
    });
    await bot.start();
    return bot;
  };
  for (let index = 0; index < count; index += 1) bots.push(await launch());
  await registerBotCommands(bots[0]!.client.rest);
  return {
    discord,
    store,
    clock,
    bots,
    async restart(index) {
      await bots[index]!.stop();
      bots[index] = await launch();
    },
    async close() {
      for (const bot of bots) await bot.stop();
      await discord.close();
      await store.close();
      await redis.cleanUp();
    },
  };
}
