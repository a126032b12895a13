/**
 * What the phases of run.ts share: the local Discord and store the bots run against, a scratch
 * folder, the bot processes started (so a failing phase still leaves none behind) and the optional
 * readings collected along the way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REST } from 'discord.js';
import { registerBotCommands } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { FakeDiscord } from '../test/fakes/discord/fake-discord.js';
import { FakeSpaceIs, type ShopFixture } from '../test/fakes/spaceis/fake-spaceis.js';
import { LICENSE_KEY, TOKEN, type BotLaunch, type RunningBot } from './bot-launch.js';
import type { Sample } from './members.js';

export interface World {
  discord: FakeDiscord;
  store: FakeSpaceIs;
  shop: ShopFixture;
  /** A temporary folder for the bots' storage; deleted by closeWorld. */
  work: string;
  launch: BotLaunch;
  running: RunningBot[];
  /** With BENCH_PROBE=1: the bot's memory and event-loop delay, by when they were read. */
  probes: Record<string, unknown>;
  /** With BENCH_SAMPLES=1: every timed interaction, by journey phase. */
  samples: Record<string, Sample[]> | undefined;
}

/**
 * The local store. Its rate-limit budget never refills (a real store's window does): large enough that
 * the bot's gate never sees it run out, so the bench measures the bot, not the fake's counter.
 */
export function startStore(shop: ShopFixture): Promise<FakeSpaceIs> {
  return FakeSpaceIs.start({ apiKey: LICENSE_KEY, shop, rateLimit: 100_000_000 });
}

export async function openWorld(shop: ShopFixture, launch: BotLaunch, keepSamples: boolean): Promise<World> {
  const work = mkdtempSync(join(tmpdir(), 'shopbot-bench-'));
  const discord = await FakeDiscord.start();
  const store = await startStore(shop);
  return { discord, store, shop, work, launch, running: [], probes: {}, samples: keepSamples ? {} : undefined };
}

export async function registerCommands(servers: { discord: FakeDiscord }): Promise<void> {
  await registerBotCommands(new REST({ api: servers.discord.apiUrl }).setToken(TOKEN));
}

export async function closeWorld(world: World): Promise<void> {
  for (const bot of world.running) await bot.proc.stop().catch(() => undefined);
  await world.discord.close().catch(() => undefined);
  await world.store.close().catch(() => undefined);
  rmSync(world.work, { recursive: true, force: true });
}

/**
 * The settings of a bot the bench runs in its own process (on a ManualClock) against the local
 * servers: the bench's key and token, silent, SQLite in `dir` unless `extra` names other storage.
 */
export function inProcessConfig(servers: { discord: FakeDiscord; store: FakeSpaceIs }, dir: string, extra: Record<string, string> = {}): Config {
  return loadConfig({
    DISCORD_TOKEN: TOKEN,
    DISCORD_API_URL: servers.discord.apiUrl,
    SPACEIS_API_URL: servers.store.url,
    SPACEIS_API_KEY: LICENSE_KEY,
    STORAGE_URL: `sqlite://${join(dir, 'store.sqlite')}`,
    LOG_LEVEL: 'silent',
    DEMO_PORT: '0',
    ...extra,
  });
}
