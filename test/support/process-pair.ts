import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs } from '../fakes/spaceis/fake-spaceis.js';
import { startBotProcess, type BotProcess } from './bot-process.js';
import { LICENSE_KEY } from './harness.js';
import { testStorage } from './redis.js';
import { freePort } from './sockets.js';

/**
 * Two bot processes on one Redis, selling from the same license (the default SPACEIS_API_KEY) of
 * one local store, each with a local Discord of its own (its own guild and members), as two shards
 * of one bot serving different guilds. What they share, they share through Redis only.
 */
export interface ProcessPair {
  store: FakeSpaceIs;
  discords: [FakeDiscord, FakeDiscord];
  bots: BotProcess[];
  /** Each process's HEALTH_PORT (its /metrics), when asked for. */
  metricsPorts: number[];
  end(): Promise<void>;
}

export async function startProcessPair(label: string, options: { metrics?: boolean } = {}): Promise<ProcessPair> {
  const storage = testStorage(label);
  const store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY });
  const dir = mkdtempSync(join(tmpdir(), `shopbot-${label}-`));
  // The second local Discord's snowflakes start 10 minutes later: its guild and members can never
  // share an id with the first one's, as they could not on the real Discord.
  const discords: [FakeDiscord, FakeDiscord] = [await FakeDiscord.start(), await FakeDiscord.start({ clock: () => Date.now() + 10 * 60_000 })];
  const bots: BotProcess[] = [];
  const metricsPorts: number[] = [];
  for (const discord of discords) {
    const env: Record<string, string> = { STORAGE_URL: storage.url };
    if (options.metrics) {
      const port = await freePort();
      metricsPorts.push(port);
      env.HEALTH_PORT = String(port);
    }
    bots.push(await startBotProcess({ discord, store, cwd: dir, env }));
  }
  return {
    store,
    discords,
    bots,
    metricsPorts,
    async end() {
      await Promise.all(bots.map((bot) => bot.end()));
      await Promise.all(discords.map((discord) => discord.close()));
      await store.close();
      await storage.cleanUp();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
