/**
 * Memory of a bot holding many licenses, each used once: 1 000 guilds with their own key, every
 * one opening /shop once (the servers and one server's offer), then an hour with no buyer.
 * Uses the real StoreDirectory, clients, gates and offer caches against the local fake store,
 * and prints heapUsed (after a forced GC) at each step as one JSON line:
 *
 *   npm run build && tsc -p tsconfig.bench.json && node --expose-gc dist-bench/bench/license-memory.js [licenses]
 */
import Keyv from 'keyv';
import { ManualClock } from '../src/clock.js';
import { createLogger } from '../src/logger.js';
import { SecretBox } from '../src/security/secret-box.js';
import { StoreDirectory } from '../src/services/store-directory.js';
import { GuildSettingsRepository } from '../src/storage/guild-settings.js';
import { defaultShop } from '../test/fakes/spaceis/fixtures.js';
import { FakeSpaceIs } from '../test/fakes/spaceis/fake-spaceis.js';

const LICENSES = Number(process.argv[2] ?? 1_000);
const HOUR_MS = 60 * 60_000;

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with node --expose-gc');

function heapUsedMb(): number {
  // The fake store shares this process: its log of requests is not the bot's memory.
  store.requests.length = 0;
  // Twice: finalizers of the first pass free more in the second.
  collect!();
  collect!();
  return Math.round((process.memoryUsage().heapUsed / 1024 / 1024) * 10) / 10;
}

const store = await FakeSpaceIs.start({ apiKey: 'bench-default-key', shop: defaultShop(), rateLimit: 100_000_000 });
const clock = new ManualClock();
const box = new SecretBox(Buffer.alloc(32, 5));
// Sealed for its guild where the box binds secrets to one (a box that does not ignores the second argument).
const seal = box.seal.bind(box) as (secret: string, boundTo: string) => string;
const settings = new GuildSettingsRepository(new Keyv(), createLogger('silent'));
const guilds: string[] = [];
for (let i = 0; i < LICENSES; i++) {
  const guildId = String(700_000_000_000_000_000n + BigInt(i));
  const key = `bench-guild-license-${i}`;
  store.otherKeys.add(key);
  await settings.set(guildId, { license: { sealed: seal(key, guildId), fingerprint: 'bench', setBy: '1', setAt: 0 } });
  guilds.push(guildId);
}
// Each request's AbortSignal.timeout keeps its request alive until the timer fires (real time): a
// short time-out, waited out before measuring, keeps those out of the figures.
const TIMEOUT_MS = 1_000;
const timersDone = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 500));
const directory = new StoreDirectory({ baseUrl: store.url, defaultApiKey: undefined, settings, secretBox: box, clock, timeoutMs: TIMEOUT_MS });
const held = (): number | undefined => (directory as { size?: number }).size;

// One request first, so the code that fetch and the schemas load on first use is in the baseline.
await directory.probe('bench-default-key').listServers();
await timersDone();
const before = heapUsedMb();
for (const guildId of guilds) {
  const shop = (await directory.forGuild(guildId))!;
  const [first] = await shop.offers.servers();
  await shop.offers.server(first!.id);
}
await timersDone();
const used = heapUsedMb();
const heldWhenUsed = held();

// An hour without buyers; then one guild's member opens the shop again.
clock.advance(HOUR_MS + 60_000);
await directory.forGuild(guilds[0]!);
await timersDone();
const idle = heapUsedMb();

process.stdout.write(
  `${JSON.stringify({
    licenses: LICENSES,
    heapUsedMb: { settingsOnly: before, afterEachUsedOnce: used, anHourLater: idle },
    licensesHeld: { afterEachUsedOnce: heldWhenUsed ?? 'n/a', anHourLater: held() ?? 'n/a' },
  })}\n`,
);
await store.close();
