/**
 * What many guilds cost the bot's memory (BENCH_ONLY=guilds): 10 000 guilds on 4 shards, run by two
 * processes on Redis (SHARDS=0,1 and SHARDS=2,3, SHARD_COUNT=4), started as `npm start` starts them.
 * Each process's peak RSS (VmHWM) from its start until every guild of its shards was received (its
 * `bot ready` line: discord.js waits for each guild's GUILD_CREATE), and again once the background jobs
 * that start then have run a while (BENCH_GUILDS_SETTLE_S). Guilds are as the local Discord makes them:
 * one text channel, @everyone and the bot's role, the owner and the bot as members; BENCH_GUILDS_ROLES and
 * BENCH_GUILDS_CHANNELS add more of each per guild, nearer a real server. With BENCH_HEAP=1 each process
 * writes a heap snapshot once settled (read after the peaks, since a snapshot inflates RSS).
 *   BENCH_NODE_ARGS="--trace-gc": extra node flags; each process's output then goes to bench/results/guilds-process-<n>.log
 *   BENCH_GUILDS_COUNT=10000  BENCH_GUILDS_SHARDS=4  BENCH_GUILDS_PROCESSES=2  BENCH_GUILDS_SETTLE_S=10
 *   REDIS_URL=redis://127.0.0.1:6379 (database 13, prefix bench-<random>, deleted afterwards)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { FakeDiscord } from '../test/fakes/discord/fake-discord.js';
import { BOT_ENTRY, botEnv, ROOT, START_FLAGS } from './bot-process.js';
import { startWatched, type Watched } from './process.js';
import { deletePrefix, redisClient, redisStorageUrl } from './scale-out/redis-readings.js';
import { shopSizedFixture } from './shop-fixture.js';
import { round } from './stats.js';
import { registerCommands, startStore } from './world.js';

const MB = 1024 * 1024;
const envNumber = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);

export interface GuildMemoryProcess {
  shards: number[];
  guilds: number;
  startToReadyMs: number;
  peakRssAtReadyMb: number;
  peakRssSettledMb: number;
  rssSettledMb: number;
  heapSnapshot?: string;
}

/** Resolves with the process's `bot ready` line; fails with its last lines if it exits first or takes over `limitMs`. */
async function readyLine(proc: Watched, limitMs: number): Promise<Record<string, unknown>> {
  for (let waited = 0; waited < limitMs; waited += 50) {
    const line = proc.lines.find((text) => text.includes('"msg":"bot ready"'));
    if (line) return JSON.parse(line) as Record<string, unknown>;
    if (proc.memory() === undefined) break;
    await sleep(50);
  }
  throw new Error(`bot not ready within ${limitMs} ms:\n${proc.lines.slice(-10).join('\n')}`);
}

export async function guildMemory(log: (text: string) => void) {
  const count = envNumber('BENCH_GUILDS_COUNT', 10_000);
  const shardCount = envNumber('BENCH_GUILDS_SHARDS', 4);
  const processes = envNumber('BENCH_GUILDS_PROCESSES', 2);
  const settleSeconds = envNumber('BENCH_GUILDS_SETTLE_S', 10);
  const extraRoles = envNumber('BENCH_GUILDS_ROLES', 0);
  const extraChannels = envNumber('BENCH_GUILDS_CHANNELS', 0);
  const heapDir = process.env.BENCH_HEAP === '1' ? join(ROOT, 'bench/results/heap') : undefined;
  const redisUrl = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const work = mkdtempSync(join(tmpdir(), 'shopbot-guilds-'));
  const discord = await FakeDiscord.start({ shards: shardCount, maxConcurrency: shardCount });
  const store = await startStore(shopSizedFixture());
  const redis = redisClient(redisUrl);
  const procs: Watched[] = [];
  try {
    await registerCommands({ discord });
    for (let index = 0; index < count; index++) {
      const { id } = discord.addGuild({ name: `Guild ${index}`, shard: index % shardCount, shardCount });
      for (let role = 0; role < extraRoles; role++) discord.addRole(id, `Role ${role}`);
      for (let channel = 0; channel < extraChannels; channel++) discord.addChannel(id, { name: `channel-${channel}` });
    }
    if (heapDir) mkdirSync(heapDir, { recursive: true });
    const perProcess = Math.ceil(shardCount / processes);
    const plans = Array.from({ length: processes }, (_unused, index) => Array.from({ length: perProcess }, (_s, at) => index * perProcess + at).filter((shard) => shard < shardCount));
    const results = await Promise.all(
      plans.map(async (shards, index) => {
        const cwd = join(work, `p${index}`);
        mkdirSync(cwd, { recursive: true });
        const env = {
          ...botEnv({ discord, store }, redisStorageUrl(redisUrl, prefix), cwd, 'info'),
          DEMO_PORT: '0',
          SHARDS: shards.join(','),
          SHARD_COUNT: String(shardCount),
          DISCORD_GLOBAL_RPS: String(Math.floor(50 / processes)),
          ...(heapDir ? { BENCH_HEAP_DIR: heapDir } : {}),
        };
        const probe = heapDir ? ['--import', pathToFileURL(join(ROOT, 'dist-bench/bench/probe.js')).href] : [];
        const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
        const proc = startWatched(process.execPath, [...START_FLAGS, ...nodeArgs, ...probe, BOT_ENTRY], { cwd, env, sampleEveryMs: 50 });
        procs.push(proc);
        const ready = await readyLine(proc, 300_000);
        const startToReadyMs = round(performance.now() - proc.spawnedAt, 0);
        const atReady = proc.memory()!;
        await sleep(settleSeconds * 1000);
        const settled = proc.memory()!;
        const result: GuildMemoryProcess = {
          shards,
          guilds: Number(ready.guilds),
          startToReadyMs,
          peakRssAtReadyMb: round(atReady.hwm / MB, 1),
          peakRssSettledMb: round(settled.hwm / MB, 1),
          rssSettledMb: round(settled.rss / MB, 1),
        };
        if (heapDir) {
          const before = proc.lines.length;
          proc.child.kill('SIGUSR2');
          for (let waited = 0; waited < 120_000 && !proc.lines.slice(before).some((line) => line.startsWith('BENCH-PROBE ')); waited += 100) await sleep(100);
          const line = proc.lines.slice(before).find((text) => text.startsWith('BENCH-PROBE '));
          if (line) result.heapSnapshot = (JSON.parse(line.slice('BENCH-PROBE '.length)) as { heapSnapshot?: string }).heapSnapshot;
        }
        return result;
      }),
    );
    // With BENCH_NODE_ARGS (e.g. --trace-gc), everything each process wrote, for the investigation.
    if (process.env.BENCH_NODE_ARGS) for (const [index, proc] of procs.entries()) writeFileSync(join(ROOT, `bench/results/guilds-process-${index}.log`), `${proc.lines.join('\n')}\n`);
    const errors = procs.flatMap((proc) => proc.lines.filter((line) => /"level":(5|6)\d/.test(line))).slice(0, 5);
    for (const [index, result] of results.entries()) {
      log(`  process ${index} (shards ${result.shards.join(',')}): ${result.guilds} guilds, ready in ${result.startToReadyMs} ms; peak RSS ${result.peakRssAtReadyMb} MB at ready, ${result.peakRssSettledMb} MB after ${settleSeconds} s (RSS then ${result.rssSettledMb} MB)${result.heapSnapshot ? `; heap: ${result.heapSnapshot}` : ''}`);
    }
    if (errors.length > 0) log(`  errors logged:\n${errors.join('\n')}`);
    return { guilds: count, shards: shardCount, processes, extraRoles, extraChannels, settleSeconds, startFlags: START_FLAGS, results, errors };
  } finally {
    for (const proc of procs) await proc.stop().catch(() => undefined);
    await discord.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    await deletePrefix(redis, `${prefix}:`).catch(() => undefined);
    redis.disconnect();
    rmSync(work, { recursive: true, force: true });
  }
}
