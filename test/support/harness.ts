import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { createBot, registerBotCommands, type Bot } from '../../src/app.js';
import type { Timers } from '../../src/services/jobs/runner.js';
import type { ChartRenderer } from '../../src/services/insights/chart-renderer.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs, type ShopFixture } from '../fakes/spaceis/fake-spaceis.js';
import { defaultShop } from '../fakes/spaceis/fixtures.js';
import { StorageSwitch } from './storage-switch.js';
import { testStorage } from './redis.js';

export const BOT_TOKEN = 'test-bot-token.NEVER-LOG-ME.abc123';
export const LICENSE_KEY = 'license-key-NEVER-LOG-ME-9f8e7d';
/** 32 bytes, base64: seals guild license keys in the test's storage. */
export const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * The real bot, wired as main.ts wires it, logged in to a local Discord-compatible server and
 * selling from a local SpaceIs-compatible store, with a clock the test moves and SQLite in a
 * temporary folder. Nothing reaches the network; nothing waits on wall-clock time.
 */
export interface Harness {
  discord: FakeDiscord;
  store: FakeSpaceIs;
  bot: Bot;
  clock: ManualClock;
  config: Config;
  /** Where the bot keeps its data (the SQLite file), for tests that read it raw. */
  storageFile: string;
  /** Between the bot and its SQLite file: makes storage fail on demand, counts bytes written. */
  storage: StorageSwitch;
  /** Every log line the bot wrote, raw. */
  logs: string[];
  /** Resolves once the bot has logged `count` lines (default 1) with this message (event-driven, no polling). */
  logged(message: string, count?: number): Promise<void>;
  /** Delays the store client asked to wait between retries (it is never made to actually wait). */
  sleeps: number[];
  /**
   * Stops the bot and starts a new one on the same storage and servers, as after a crash or deploy.
   * `env` changes the operator's settings for this start and the later ones (a variable set to
   * undefined is removed), e.g. a rotated SPACEIS_API_KEY; `config` then holds the new settings.
   */
  restart(env?: Record<string, string | undefined>): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  shop?: ShopFixture;
  /** Start without SPACEIS_API_KEY: guilds must set their own license. */
  noDefaultLicense?: boolean;
  logLevel?: string;
  storeTimeoutMs?: number;
  /** How checkout waits for the DM before the reply shows the link (0: the reply always comes first). */
  dmWaitMs?: number;
  /** HEALTH_PORT: the health and metrics listener on 127.0.0.1. */
  healthPort?: number;
  /** How long a silent handler may take before the router acknowledges for it. */
  ackGuardMs?: number;
  /** STORAGE_URL instead of a SQLite file in a temporary folder (the test cleans up what it names). */
  storageUrl?: string;
  /** The shard count the local Discord recommends (GET /gateway/bot); default 1. */
  recommendedShards?: number;
  /** SHARDS and SHARD_COUNT, as an operator sets them (default: SHARDS=auto, all recommended shards). */
  shards?: string;
  shardCount?: number;
  /** How long the payment watcher waits for a busy store gate before skipping the license this round. */
  paymentQuietWaitMs?: number;
  /** `timer`: the payment rounds run on the JobRunner's timers (pass `jobTimers` to fire them by hand); default `manual`. */
  paymentWatch?: 'timer' | 'manual';
  /** The background jobs' timers, made on the harness's clock (e.g. test/support/manual-timers.ts); real timers otherwise. */
  jobTimers?: (clock: ManualClock) => Timers;
  /** Further settings, as an operator writes them in .env; they win over the harness's own (a function: built from the local Discord, e.g. its guild's id). */
  env?: Record<string, string> | ((discord: FakeDiscord) => Record<string, string>);
  /** The insights' chart renderer (test/support/chart-double.ts); none: the bot's own. */
  chartRenderer?: ChartRenderer;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'shopbot-test-'));
  const discord = await FakeDiscord.start(options.recommendedShards !== undefined ? { shards: options.recommendedShards } : {});
  const store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY, shop: options.shop ?? defaultShop() });
  const clock = new ManualClock();
  // Purchases at the local store are dated on the bot's clock.
  store.now = () => clock.now();
  const jobTimers = options.jobTimers?.(clock);
  const logs: string[] = [];
  const logWaiters = new Set<() => void>();
  const countLogged = (message: string) => logs.filter((line) => (JSON.parse(line) as { msg?: string }).msg === message).length;
  const sleeps: number[] = [];
  const storage = new StorageSwitch();
  // The buyers-on-redis project (vitest.config.ts) runs the same flows on Redis, under a prefix of their own.
  const redis = process.env.SHOPBOT_TEST_STORAGE === 'redis' ? testStorage('flows') : undefined;
  let env: Record<string, string | undefined> = {
    DISCORD_TOKEN: BOT_TOKEN,
    DISCORD_API_URL: discord.apiUrl,
    SPACEIS_API_URL: store.url,
    ...(options.noDefaultLicense ? {} : { SPACEIS_API_KEY: LICENSE_KEY }),
    ENCRYPTION_KEY,
    STORAGE_URL: options.storageUrl ?? redis?.url ?? `sqlite://${join(dir, 'store.sqlite')}`,
    LOG_LEVEL: options.logLevel ?? 'debug',
    ...(options.healthPort !== undefined ? { HEALTH_PORT: String(options.healthPort) } : {}),
    ...(options.shards !== undefined ? { SHARDS: options.shards } : {}),
    ...(options.shardCount !== undefined ? { SHARD_COUNT: String(options.shardCount) } : {}),
    // Any free port: test files run in parallel, each with its own demo pay page.
    DEMO_PORT: '0',
    ...(typeof options.env === 'function' ? options.env(discord) : options.env),
  };
  const config = loadConfig(env);
  const logSink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      for (const waiter of [...logWaiters]) waiter();
      done();
    },
  });

  const launch = async (config: Config): Promise<Bot> => {
    const bot = await createBot({
      config,
      logger: createLogger(config.LOG_LEVEL, logSink),
      clock,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      ...(options.storeTimeoutMs !== undefined ? { storeTimeoutMs: options.storeTimeoutMs } : {}),
      ...(options.dmWaitMs !== undefined ? { linkDelivery: { dmWaitMs: options.dmWaitMs } } : {}),
      storageAdapter: storage.wrap,
      ...(options.chartRenderer ? { chartRenderer: options.chartRenderer } : {}),
      // Rounds of the payment watcher run when a test calls services.payments.tick() (or jobs.runNow('payment-watch')), on the test's clock.
      paymentWatch: options.paymentWatch ?? 'manual',
      ...(jobTimers ? { jobTimers } : {}),
      // So do the shop panels' goal refreshes: services.panels.tick().
      panelRefresh: 'manual',
      ...(options.ackGuardMs !== undefined ? { ackGuardMs: options.ackGuardMs } : {}),
      ...(options.paymentQuietWaitMs !== undefined ? { paymentQuietWaitMs: options.paymentQuietWaitMs } : {}),
      // discord.js spaces identifies 5 s apart; a test that loses its session should not wait for that.
      discordOptions: { ws: { buildIdentifyThrottler: async () => ({ waitForIdentify: async () => undefined }) } },
    });
    await bot.start();
    // Registered as an operator would (npm run register-commands): the fake then knows every option's type.
    await registerBotCommands(bot.client.rest);
    return bot;
  };

  const harness: Harness = {
    discord,
    store,
    bot: await launch(config),
    clock,
    config,
    storageFile: join(dir, 'store.sqlite'),
    storage,
    logs,
    logged: (message, count = 1) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (countLogged(message) < count) return;
          logWaiters.delete(check);
          resolve();
        };
        logWaiters.add(check);
        check();
      }),
    sleeps,
    async restart(changes) {
      await harness.bot.stop();
      if (changes) {
        env = { ...env, ...changes };
        harness.config = loadConfig(env);
      }
      harness.bot = await launch(harness.config);
    },
    async close() {
      await harness.bot.stop().catch(() => undefined);
      await discord.close();
      await store.close();
      await redis?.cleanUp();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/**
 * One harness for the enclosing `describe` (or file): started in beforeAll, closed in afterAll.
 * Returns the harness itself, read through: use it inside tests and hooks as you would the
 * value startHarness resolves to (`h.discord`, `new Member(h)`, `h.restart()`). Reading it
 * before the harness started (at collection time) throws. Hooks registered after this call
 * run after the harness started, so further setup goes in a beforeAll of its own.
 * For several harnesses in one test, or a fresh one per test, call startHarness directly.
 */
export function useHarness(options: HarnessOptions = {}): Harness {
  let current: Harness | undefined;
  beforeAll(async () => {
    current = await startHarness(options);
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  const started = (): Harness => {
    if (!current) throw new Error('useHarness: the harness is started in beforeAll; read it inside a test or a hook');
    return current;
  };
  return new Proxy({} as Harness, {
    get: (_target, key) => Reflect.get(started(), key),
    set: (_target, key, value) => Reflect.set(started(), key, value),
    has: (_target, key) => Reflect.has(started(), key),
  });
}
