/**
 * The scale-out step of `npm run bench` (phase `scaleout`): the same crowd against
 *
 *   1. one process on SQLite,
 *   2. one process on Redis,
 *   3. two processes on Redis, one shard each (A: SHARDS=0, B: SHARDS=1, SHARD_COUNT=2, DISCORD_GLOBAL_RPS=25 each).
 *
 * Every setup gets a fresh local Discord recommending 2 shards (max_concurrency 2, so shard 0 and
 * shard 1 identify in different buckets and nobody waits 5 s) and a fresh local store with the shop
 * fixture. The one-process setups run `SHARDS=auto`, so that process runs both shards (discord.js's
 * internal sharding): the guilds, the gateway sessions and the crowd are the same in all three, only
 * the storage and the number of processes change. Guilds are spread over both shards, members over the
 * guilds. Redis setups use a fresh prefix `bench-<random>` in database 13, deleted afterwards.
 *
 * Per setup: start, warm up (every member's first /shop, one journey per product so every offer is
 * cached), then ramp the arrival rate in steps; in each step members walk /shop → server → category →
 * product → variant → quantity → Add to cart (a record lock and a cart write), so every step has the
 * same mix, one seventh of each. Per step: first-callback p50/p99, failures, bot and driver CPU, and
 * the Redis commands executed (INFO commandstats, server-wide). Then, on Redis, one interaction kind at a
 * time at a low rate under MONITOR, to count the commands each kind sends (and those run inside Lua
 * scripts), and an idle second, to show the traffic nobody asked for (lock refreshes, pub/sub, polling).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { FakeDiscord } from '../test/fakes/discord/fake-discord.js';
import type { FakeSpaceIs, ShopFixture } from '../test/fakes/spaceis/fake-spaceis.js';
import { BenchMember, pacer, Recorder, type Sample } from './members.js';
import { readProcCpuMs, startWatched, untilReady, type Watched } from './process.js';
import { BOT_ENTRY, botEnv } from './bot-process.js';
import { registerCommands, startStore } from './world.js';
import { shelves, type Shelf } from './journey-plans.js';
import { shopSizedFixture } from './shop-fixture.js';
import { mb, ms, round, roundSummary, summarize, table, type Summary } from './stats.js';
import { deleteKeysMatching, scanKeys } from '../src/coordination/redis-keys.js';

/** Away from database 0 (a developer's) and 14/15 (the tests'). */
const BENCH_DB = 13;
const P99_GOAL_MS = 100;
/** USER_HZ of /proc/stat. */
const CLOCK_TICKS = 100;

/** One walk through the shop, as in the journeys of the other phases, up to Add to cart. */
export const SCALE_KINDS = ['shop', 'server', 'category', 'product', 'variant', 'quantity', 'add'] as const;
type Kind = (typeof SCALE_KINDS)[number];

export interface ScaleOutOptions {
  /** Arrival rates of the ramp, interactions per second overall. */
  rates: number[];
  /** Seconds per ramp step. */
  stepSeconds: number;
  /** Guilds, half on each shard. */
  guilds: number;
  /** Rate of the one-kind-at-a-time Redis accounting steps. */
  kindRate: number;
  /** Members in each accounting step. */
  kindMembers: number;
  /** A step whose p99 first callback is above this ends the ramp (the higher rates would only be worse). */
  abandonAboveMs: number;
  logLevel: string;
  /** node flags of `npm start`. */
  startFlags: string[];
  redisUrl: string;
  /** Which setups to run (default all three). */
  setups: SetupName[];
}

export type SetupName = 'sqlite-1p' | 'redis-1p' | 'redis-2p';
const SETUP_TITLES: Record<SetupName, string> = {
  'sqlite-1p': 'one process, SQLite (SHARDS=auto: both shards)',
  'redis-1p': 'one process, Redis (SHARDS=auto: both shards)',
  'redis-2p': 'two processes, Redis (SHARDS=0 | SHARDS=1, SHARD_COUNT=2)',
};

export function scaleOutOptionsFromEnv(logLevel: string, startFlags: string[]): ScaleOutOptions {
  const list = (name: string, fallback: string) => (process.env[name]?.trim() || fallback).split(',').map((part) => part.trim()).filter(Boolean);
  const number = (name: string, fallback: number) => {
    const value = Number(process.env[name]);
    return process.env[name] !== undefined && process.env[name] !== '' && Number.isFinite(value) ? value : fallback;
  };
  return {
    rates: list('BENCH_SCALE_RATES', '50,100,200,400,800,1200,1600').map(Number).filter((rate) => rate > 0),
    stepSeconds: number('BENCH_SCALE_STEP_S', 4),
    guilds: number('BENCH_SCALE_GUILDS', 8),
    kindRate: number('BENCH_SCALE_KIND_RATE', 50),
    kindMembers: number('BENCH_SCALE_KIND_MEMBERS', 70),
    abandonAboveMs: number('BENCH_SCALE_ABANDON_MS', 1000),
    logLevel,
    startFlags,
    redisUrl: process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379',
    setups: list('BENCH_SCALE_SETUPS', 'sqlite-1p,redis-1p,redis-2p') as SetupName[],
  };
}

// ---- results ------------------------------------------------------------------------------------

export interface RampStep {
  targetRate: number;
  members: number;
  interactions: number;
  achievedRate: number;
  callbackTypes: Record<string, number>;
  firstCallbackMs: Summary;
  settledMs: Summary;
  /** p99 first callback per interaction kind. */
  firstCallbackP99ByKind: Record<string, number>;
  failures: number;
  firstFailures: string[];
  /** Error-level lines the bot processes logged during the step. */
  botErrors: number;
  /** Bot CPU (all processes) per interaction, ms; and per process. */
  botCpuMsPerInteraction?: number;
  botCpuMsByProcess?: number[];
  /** This process (local Discord, local store, members) per interaction, ms. */
  driverCpuMsPerInteraction: number;
  /** Share of the machine's cores busy in processes (user + nice + system) over the step: bots, driver, Redis, the rest, %. */
  machineBusyPct?: number;
  /** Share of the machine's cores used by neither the bots, the driver nor Redis: another load disturbing the step, %. */
  otherCpuPct?: number;
  /** Share of the machine's CPU time the hypervisor gave to others (/proc/stat steal), %. */
  cpuStealPct?: number;
  /** CPU of the Redis server (when local) per interaction, ms. */
  redisServerCpuMsPerInteraction?: number;
  /** INFO commandstats delta (every command Redis executed, those inside Lua scripts and MULTI included; server-wide), per interaction. */
  redisCommandsPerInteraction?: number;
  /** Commands the bots sent to the bench database (MONITOR), per interaction, and those run inside Lua scripts. */
  redisSentPerInteraction?: number;
  redisInsideScriptsPerInteraction?: number;
  redisSentByCommand?: Record<string, number>;
  redisTopCommands?: Record<string, number>;
  storeRequests: number;
}

export interface KindAccounting {
  kind: Kind;
  interactions: number;
  /** Commands the bots sent, per interaction (MONITOR; MULTI/EXEC wrappers are not shown by MONITOR). */
  sentPerInteraction: number;
  /** Commands run inside Lua scripts (redis-semaphore's release, the gate's scripts), per interaction. */
  insideScriptsPerInteraction: number;
  /** INFO commandstats delta per interaction, for comparison (includes script-internal and MULTI/EXEC). */
  commandstatsPerInteraction: number;
  /** Sent commands by name, per interaction. */
  sentByCommand: Record<string, number>;
  firstCallbackMs: Summary;
}

export interface SetupResult {
  name: SetupName;
  title: string;
  processes: { label: string; env: Record<string, string>; startToReadyMs: number; peakRssBytes?: number; rssAtEndBytes?: number; peakSampledRssBytes: number; logLevels: Record<string, number>; firstNotable: string[] }[];
  guildsByShard: Record<string, number>;
  members: number;
  warmup: { interactions: number; failures: number; durationMs: number };
  steps: RampStep[];
  /** Highest ramp rate whose p99 first callback is ≤ 100 ms with no failure, before the first step that missed it. */
  maxRateP99Within100ms: number | null;
  firstMissedStep?: { targetRate: number; reason: string };
  notRun: number[];
  store: {
    total: number;
    byRoute: Record<string, { requests: number; distinct: number }>;
    productsBrowsed: number;
    /** Variant listings per product browsed (1.0 = one store call per product over the whole run). */
    variantCallsPerProduct: number;
    /** All offer requests (servers, server, variants) per product browsed. */
    offerCallsPerProduct: number;
    duplicateOfferRequests: number;
  };
  redis?: {
    kinds: KindAccounting[];
    /** A journey's worth: the sum over the seven kinds, divided by 7 (per interaction of the ramp's mix). */
    mixSentPerInteraction: number;
    mixInsideScriptsPerInteraction: number;
    idle: { seconds: number; sentPerSecond: number; byCommand: Record<string, number> };
    keysAtEnd: number;
  };
  error?: string;
}

export interface ScaleOutResult {
  options: Omit<ScaleOutOptions, 'redisUrl'> & { redisDb: number };
  setups: SetupResult[];
  notes: string[];
}

// ---- the world ----------------------------------------------------------------------------------

interface Bot {
  label: string;
  proc: Watched;
  env: Record<string, string>;
  startToReadyMs: number;
}

function redisStorageUrl(base: string, prefix: string): string {
  const url = new URL(base);
  url.pathname = `/${BENCH_DB}`;
  url.searchParams.set('prefix', prefix);
  return url.toString();
}

function redisClient(base: string): Redis {
  const url = new URL(base);
  url.pathname = `/${BENCH_DB}`;
  url.search = '';
  return new Redis(url.toString(), { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
}

async function commandStats(redis: Redis): Promise<Map<string, number>> {
  const text = await redis.info('commandstats');
  const stats = new Map<string, number>();
  for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) stats.set(match[1]!, Number(match[2]));
  return stats;
}

/** Commands executed between two readings; the bench's own INFO calls left out. */
function statsDelta(before: Map<string, number>, after: Map<string, number>): { total: number; byCommand: Record<string, number> } {
  const byCommand: Record<string, number> = {};
  let total = 0;
  for (const [name, calls] of after) {
    if (name === 'info') continue;
    const delta = calls - (before.get(name) ?? 0);
    if (delta > 0) {
      byCommand[name] = delta;
      total += delta;
    }
  }
  return { total, byCommand };
}

function deletePrefix(redis: Redis, prefix: string): Promise<number> {
  return deleteKeysMatching(redis, `${prefix}*`);
}

async function countPrefix(redis: Redis, prefix: string): Promise<number> {
  let count = 0;
  for await (const keys of scanKeys(redis, `${prefix}*`)) count += keys.length;
  return count;
}

/** Commands the bots sent to the bench database while `during` runs (MONITOR), split into sent and run inside Lua. */
async function monitored<T>(base: string, during: () => Promise<T>): Promise<{ value: T; sent: Record<string, number>; insideScripts: number; sentTotal: number }> {
  const client = redisClient(base);
  const monitor = await client.monitor();
  const sent: Record<string, number> = {};
  let sentTotal = 0;
  let insideScripts = 0;
  monitor.on('monitor', (_time: string, args: string[], source: string, database: string) => {
    if (database !== String(BENCH_DB)) return;
    if (source === 'lua') {
      insideScripts += 1;
      return;
    }
    const name = String(args[0] ?? '?').toLowerCase();
    // The bench's own INFO commandstats readings and its clients' connection handshakes.
    if (name === 'info' || name === 'monitor' || name === 'select' || name === 'client') return;
    sent[name] = (sent[name] ?? 0) + 1;
    sentTotal += 1;
  });
  try {
    const value = await during();
    // MONITOR lines trail the commands by a little.
    await sleep(100);
    return { value, sent, insideScripts, sentTotal };
  } finally {
    monitor.disconnect();
    client.disconnect();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** /proc/stat's first line: busy = user + nice + system (what processes' utime + stime add up to), steal apart. */
function readMachineTicks(): { busy: number; total: number; steal: number } | undefined {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    return { busy: (fields[0] ?? 0) + (fields[1] ?? 0) + (fields[2] ?? 0), total, steal: fields[7] ?? 0 };
  } catch {
    return undefined;
  }
}

function errorLines(bots: Bot[]): number {
  return bots.reduce((sum, bot) => sum + bot.proc.lines.filter((line) => Number(/"level":(\d+)/.exec(line)?.[1] ?? 0) >= 50).length, 0);
}

function logLevels(proc: Watched): { levels: Record<string, number>; first: string[] } {
  const levels: Record<string, number> = {};
  const first: string[] = [];
  for (const line of proc.lines) {
    const level = /"level":(\d+)/.exec(line)?.[1];
    const name = level === undefined ? 'other' : Number(level) >= 50 ? 'error' : Number(level) >= 40 ? 'warn' : 'info';
    levels[name] = (levels[name] ?? 0) + 1;
    if (name !== 'info' && first.length < 3) first.push(line.slice(0, 240));
  }
  return { levels, first };
}

// ---- one setup ----------------------------------------------------------------------------------

class Setup {
  readonly bots: Bot[] = [];
  readonly prefix = `bench-${randomBytes(4).toString('hex')}`;
  readonly work = mkdtempSync(join(tmpdir(), 'shopbot-scaleout-'));
  guilds: string[] = [];
  redis: Redis | undefined;
  /** The Redis server's pid, when it runs on this machine (its CPU is part of what Redis costs). */
  redisPid: number | undefined;

  private constructor(
    readonly name: SetupName,
    readonly options: ScaleOutOptions,
    readonly discord: FakeDiscord,
    readonly store: FakeSpaceIs,
    readonly shop: ShopFixture,
  ) {}

  static async create(name: SetupName, options: ScaleOutOptions): Promise<Setup> {
    const shop = shopSizedFixture();
    const discord = await FakeDiscord.start({ shards: 2, maxConcurrency: 2 });
    const store = await startStore(shop);
    const setup = new Setup(name, options, discord, store, shop);
    await registerCommands(setup);
    for (let index = 0; index < options.guilds; index++) setup.guilds.push(discord.addGuild({ name: `Bench guild ${index}`, shard: index % 2, shardCount: 2 }).id);
    if (name !== 'sqlite-1p') {
      setup.redis = redisClient(options.redisUrl);
      const host = new URL(options.redisUrl).hostname;
      const pid = Number(/^process_id:(\d+)/m.exec(await setup.redis.info('server'))?.[1]);
      if (['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host) && Number.isInteger(pid) && readProcCpuMs(pid) !== undefined) setup.redisPid = pid;
    }
    return setup;
  }

  private env(extra: Record<string, string>, cwd: string): Record<string, string> {
    const storageUrl = this.name === 'sqlite-1p' ? `sqlite://${join(cwd, 'store.sqlite')}` : redisStorageUrl(this.options.redisUrl, this.prefix);
    return { ...botEnv(this, storageUrl, cwd, this.options.logLevel), DEMO_PORT: '0', ...extra };
  }

  /** Starts the setup's processes together, as an operator's service manager would; resolves once every shard is READY. */
  async start(): Promise<void> {
    const plans: { label: string; extra: Record<string, string>; shards: number[] }[] =
      this.name === 'redis-2p'
        ? [
            { label: 'A (shard 0)', extra: { SHARDS: '0', SHARD_COUNT: '2', DISCORD_GLOBAL_RPS: '25' }, shards: [0] },
            { label: 'B (shard 1)', extra: { SHARDS: '1', SHARD_COUNT: '2', DISCORD_GLOBAL_RPS: '25' }, shards: [1] },
          ]
        : [{ label: 'the process (shards 0, 1)', extra: { SHARDS: 'auto' }, shards: [0, 1] }];
    await Promise.all(
      plans.map(async (plan, index) => {
        const cwd = join(this.work, `p${index}`);
        mkdirSync(cwd, { recursive: true });
        const env = this.env(plan.extra, cwd);
        const ready = Promise.all(plan.shards.map((shard) => this.discord.nextReady(shard)));
        const proc = startWatched(process.execPath, [...this.options.startFlags, BOT_ENTRY], { cwd, env });
        const bot: Bot = { label: plan.label, proc, env: plan.extra, startToReadyMs: Number.NaN };
        this.bots.push(bot);
        await untilReady(proc, plan.label, ready);
        bot.startToReadyMs = round(performance.now() - proc.spawnedAt, 1);
      }),
    );
  }

  botCpu(): (number | undefined)[] {
    return this.bots.map((bot) => bot.proc.cpuMs());
  }

  async close(): Promise<void> {
    for (const bot of this.bots) await bot.proc.stop().catch(() => undefined);
    await this.discord.close().catch(() => undefined);
    await this.store.close().catch(() => undefined);
    if (this.redis) {
      await deletePrefix(this.redis, `${this.prefix}:`).catch(() => undefined);
      this.redis.disconnect();
    }
    rmSync(this.work, { recursive: true, force: true });
  }
}

/** A member of the pool: its guild, its server (carts hold one server's items), its own walk per round. */
interface PoolMember {
  member: BenchMember;
  index: number;
  shelves: Shelf[];
}

async function walkOnce(pool: PoolMember, round: number, pace: () => Promise<void>, only?: Kind): Promise<void> {
  const { member, index, shelves } = pool;
  const shelf = shelves[(index + round * 3) % shelves.length]!;
  const variant = shelf.variants[(index + round) % shelf.variants.length]!;
  const quantity = 1 + ((index + round) % 5);
  const steps: Record<Kind, () => Promise<unknown>> = {
    shop: () => member.slash('shop', 'shop'),
    server: () => member.choose('server', shelf.server),
    category: () => member.choose('category', shelf.category),
    product: () => member.choose('product', shelf.product),
    variant: () => member.choose('variant', variant),
    quantity: () => member.choose('quantity', `${quantity} ×`),
    add: () => member.press('add', 'Add to cart'),
  };
  if (only) {
    await pace();
    await steps[only]();
    return;
  }
  for (const kind of SCALE_KINDS) {
    await pace();
    await steps[kind]();
  }
}

function p99ByKind(samples: Sample[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const kind of SCALE_KINDS) {
    const mine = samples.filter((sample) => sample.step === kind).map((sample) => sample.ack);
    if (mine.length > 0) out[kind] = round(summarize(mine).p99, 2);
  }
  return out;
}

async function runSetup(name: SetupName, options: ScaleOutOptions, log: (text: string) => void): Promise<SetupResult> {
  const setup = await Setup.create(name, options);
  const result = emptySetup(name);
  try {
    for (const guild of setup.guilds) {
      const shard = String(setup.discord.shardOf(guild, 2));
      result.guildsByShard[shard] = (result.guildsByShard[shard] ?? 0) + 1;
    }
    await setup.start();
    log(`  ${name}: ready (${setup.bots.map((bot) => `${bot.label} ${ms(bot.startToReadyMs)} ms`).join(', ')})`);

    // The crowd: enough members for the fastest step, each walking once per step (one interaction of each kind).
    const maxRate = Math.max(...options.rates);
    const poolSize = Math.max(options.kindMembers, Math.ceil((maxRate * options.stepSeconds) / SCALE_KINDS.length));
    const byServer = setup.shop.servers.map((server) => shelves(setup.shop, server.name));
    // One recorder for the whole setup; each step reads the samples it added.
    const warmRecorder = new Recorder();
    const pool: PoolMember[] = Array.from({ length: poolSize }, (_unused, index) => ({
      member: new BenchMember(setup.discord, warmRecorder, `so-${name}-${index}`, setup.guilds[index % setup.guilds.length]),
      index,
      shelves: byServer[Math.floor(index / setup.guilds.length) % byServer.length]!,
    }));
    result.members = poolSize;

    // Warm-up: every member's first /shop (200/s), then one walk per product (every offer read once).
    const warmStart = performance.now();
    const first = performance.now() + 20;
    await Promise.all(
      pool.map(async (entry, index) => {
        await pacer(first, index, pool.length, 200)();
        await entry.member.slash('shop', 'shop').catch((error: unknown) => warmRecorder.failures.push({ step: 'shop', member: entry.member.user.username, message: String(error) }));
      }),
    );
    const allShelves = byServer.flatMap((shelves, server) => shelves.map((shelf, index) => ({ shelf, server, index })));
    const walkers = allShelves.map(({ shelf, server }, index) => ({
      member: new BenchMember(setup.discord, warmRecorder, `so-${name}-warm-${index}`, setup.guilds[index % setup.guilds.length]),
      index: 0,
      shelves: [shelf],
      server,
    }));
    const walkStart = performance.now() + 20;
    await Promise.all(
      walkers.map(async (walker, index) => {
        const pace = pacer(walkStart, index, walkers.length, 100);
        await walkOnce(walker, 0, pace).catch((error: unknown) => warmRecorder.failures.push({ step: 'warm walk', member: walker.member.user.username, message: String(error) }));
      }),
    );
    result.warmup = { interactions: warmRecorder.samples.length, failures: warmRecorder.failures.length, durationMs: round(performance.now() - warmStart, 0) };
    if (warmRecorder.failures.length > 0) log(`  warm-up failures: ${warmRecorder.failures.slice(0, 3).map((failure) => failure.message).join(' | ')}`);

    // The ramp.
    let missed = false;
    for (const [stepIndex, rate] of options.rates.entries()) {
      if (missed) {
        result.notRun.push(rate);
        continue;
      }
      const members = Math.max(1, Math.round((rate * options.stepSeconds) / SCALE_KINDS.length));
      const crowd = pool.slice(0, members);
      const startSamples = warmRecorder.samples.length;
      const startFailures = warmRecorder.failures.length;
      const storeFrom = setup.store.requests.length;
      const errorsBefore = errorLines(setup.bots);
      const cpuBefore = setup.botCpu();
      const driverBefore = process.cpuUsage();
      const ticksBefore = readMachineTicks();
      const statsBefore = setup.redis ? await commandStats(setup.redis) : undefined;
      const redisCpuBefore = setup.redisPid !== undefined ? readProcCpuMs(setup.redisPid) : undefined;
      const runStep = async () => {
        const start = performance.now() + 20;
        await Promise.all(
          crowd.map(async (entry, index) => {
            const pace = pacer(start, index, members, rate);
            await walkOnce(entry, stepIndex + 1, pace).catch((error: unknown) =>
              warmRecorder.failures.push({ step: '?', member: entry.member.user.username, message: String((error as Error).message ?? error) }),
            );
          }),
        );
        // What follows the answers (lock releases, logging) belongs to the step.
        await sleep(200);
      };
      const watched = setup.redis ? await monitored(options.redisUrl, runStep) : (await runStep(), undefined);
      const statsAfter = setup.redis ? await commandStats(setup.redis) : undefined;
      const ticksAfter = readMachineTicks();
      const redisCpuAfter = setup.redisPid !== undefined ? readProcCpuMs(setup.redisPid) : undefined;
      const driver = process.cpuUsage(driverBefore);
      const cpuAfter = setup.botCpu();
      const samples = warmRecorder.samples.slice(startSamples);
      const failures = warmRecorder.failures.slice(startFailures);
      const n = samples.length;
      const dispatches = samples.map((sample) => sample.at);
      const firstAt = Math.min(...dispatches);
      const lastAt = Math.max(...samples.map((sample) => sample.at + sample.settled));
      const callbackTypes: Record<string, number> = {};
      for (const sample of samples) callbackTypes[sample.callbackType] = (callbackTypes[sample.callbackType] ?? 0) + 1;
      const perProcess = cpuBefore.map((before, index) => (before !== undefined && cpuAfter[index] !== undefined ? cpuAfter[index]! - before : undefined));
      const botCpuKnown = perProcess.every((value) => value !== undefined);
      const redisCpu = redisCpuBefore !== undefined && redisCpuAfter !== undefined ? redisCpuAfter - redisCpuBefore : undefined;
      const redisDelta = statsBefore && statsAfter ? statsDelta(statsBefore, statsAfter) : undefined;
      const top = redisDelta
        ? Object.fromEntries(
            Object.entries(redisDelta.byCommand)
              .sort((a, b) => b[1] - a[1])
              .slice(0, 6)
              .map(([command, calls]) => [command, round(calls / Math.max(1, n), 2)]),
          )
        : undefined;
      const step: RampStep = {
        targetRate: rate,
        members,
        interactions: n,
        achievedRate: round((n / Math.max(1, lastAt - firstAt)) * 1000, 1),
        callbackTypes,
        firstCallbackMs: roundSummary(summarize(samples.map((sample) => sample.ack)), 2),
        settledMs: roundSummary(summarize(samples.map((sample) => sample.settled)), 2),
        firstCallbackP99ByKind: p99ByKind(samples),
        failures: failures.length,
        firstFailures: failures.slice(0, 3).map((failure) => `${failure.member}: ${failure.message}`.slice(0, 200)),
        botErrors: errorLines(setup.bots) - errorsBefore,
        ...(botCpuKnown
          ? {
              botCpuMsPerInteraction: round(perProcess.reduce((sum: number, value) => sum + value!, 0) / Math.max(1, n), 3),
              botCpuMsByProcess: perProcess.map((value) => round(value!, 0)),
            }
          : {}),
        driverCpuMsPerInteraction: round((driver.user + driver.system) / 1000 / Math.max(1, n), 3),
        ...(ticksBefore && ticksAfter
          ? (() => {
              const totalMs = ((ticksAfter.total - ticksBefore.total) * 1000) / CLOCK_TICKS;
              const busyMs = ((ticksAfter.busy - ticksBefore.busy) * 1000) / CLOCK_TICKS;
              const known = perProcess.reduce((sum: number, value) => sum + (value ?? 0), 0) + (driver.user + driver.system) / 1000 + (redisCpu ?? 0);
              return {
                machineBusyPct: round((busyMs / Math.max(1, totalMs)) * 100, 0),
                otherCpuPct: round((Math.max(0, busyMs - known) / Math.max(1, totalMs)) * 100, 0),
                cpuStealPct: round(((ticksAfter.steal - ticksBefore.steal) / Math.max(1, ticksAfter.total - ticksBefore.total)) * 100, 1),
              };
            })()
          : {}),
        ...(redisCpu !== undefined ? { redisServerCpuMsPerInteraction: round(redisCpu / Math.max(1, n), 3) } : {}),
        ...(redisDelta ? { redisCommandsPerInteraction: round((redisDelta.total - (redisDelta.byCommand.monitor ?? 0)) / Math.max(1, n), 2), redisTopCommands: top } : {}),
        ...(watched
          ? {
              redisSentPerInteraction: round(watched.sentTotal / Math.max(1, n), 2),
              redisInsideScriptsPerInteraction: round(watched.insideScripts / Math.max(1, n), 2),
              redisSentByCommand: Object.fromEntries(Object.entries(watched.sent).sort((a, b) => b[1] - a[1]).map(([command, calls]) => [command, round(calls / Math.max(1, n), 2)])),
            }
          : {}),
        storeRequests: setup.store.requests.length - storeFrom,
      };
      result.steps.push(step);
      log(
        `  ${name} @ ${rate}/s: ${n} interactions, achieved ${step.achievedRate}/s, first callback p50 ${ms(step.firstCallbackMs.median)} ms, p99 ${ms(step.firstCallbackMs.p99)} ms` +
          (step.failures ? `, ${step.failures} failures` : '') +
          (step.redisSentPerInteraction !== undefined ? `, Redis ${step.redisSentPerInteraction} sent + ${step.redisInsideScriptsPerInteraction} in scripts per interaction (commandstats ${step.redisCommandsPerInteraction})` : ''),
      );
      const ok = step.failures === 0 && step.interactions > 0 && step.firstCallbackMs.p99 <= P99_GOAL_MS;
      if (ok && result.firstMissedStep === undefined) result.maxRateP99Within100ms = rate;
      if (!ok && result.firstMissedStep === undefined) {
        result.firstMissedStep = { targetRate: rate, reason: step.failures ? `${step.failures} failures` : `p99 ${ms(step.firstCallbackMs.p99)} ms` };
      }
      if (step.firstCallbackMs.p99 > options.abandonAboveMs || step.failures > n / 10) missed = true;
      await sleep(300);
    }

    // Redis: one kind at a time, under MONITOR, then an idle stretch.
    if (setup.redis) {
      const kinds: KindAccounting[] = [];
      const crowd = pool.slice(0, options.kindMembers);
      const round0 = options.rates.length + 1;
      for (const kind of SCALE_KINDS) {
        const startSamples = warmRecorder.samples.length;
        const statsBefore = await commandStats(setup.redis);
        const watched = await monitored(options.redisUrl, async () => {
          const start = performance.now() + 20;
          await Promise.all(
            crowd.map(async (entry, index) => {
              await walkOnce(entry, round0, pacer(start, index, crowd.length, options.kindRate), kind).catch((error: unknown) =>
                warmRecorder.failures.push({ step: kind, member: entry.member.user.username, message: String((error as Error).message ?? error) }),
              );
            }),
          );
          await sleep(200);
        });
        const statsAfter = await commandStats(setup.redis);
        const samples = warmRecorder.samples.slice(startSamples);
        const n = Math.max(1, samples.length);
        // MONITOR's own connection shows up in commandstats (monitor): leave it out.
        const delta = statsDelta(statsBefore, statsAfter);
        const monitorCalls = delta.byCommand.monitor ?? 0;
        kinds.push({
          kind,
          interactions: samples.length,
          sentPerInteraction: round(watched.sentTotal / n, 2),
          insideScriptsPerInteraction: round(watched.insideScripts / n, 2),
          commandstatsPerInteraction: round((delta.total - monitorCalls) / n, 2),
          sentByCommand: Object.fromEntries(Object.entries(watched.sent).sort((a, b) => b[1] - a[1]).map(([command, calls]) => [command, round(calls / n, 2)])),
          firstCallbackMs: roundSummary(summarize(samples.map((sample) => sample.ack)), 2),
        });
      }
      const idleSeconds = 2;
      const idle = await monitored(options.redisUrl, () => sleep(idleSeconds * 1000));
      result.redis = {
        kinds,
        mixSentPerInteraction: round(kinds.reduce((sum, kind) => sum + kind.sentPerInteraction, 0) / kinds.length, 2),
        mixInsideScriptsPerInteraction: round(kinds.reduce((sum, kind) => sum + kind.insideScriptsPerInteraction, 0) / kinds.length, 2),
        idle: { seconds: idleSeconds, sentPerSecond: round(idle.sentTotal / idleSeconds, 1), byCommand: idle.sent },
        keysAtEnd: await countPrefix(setup.redis, `${setup.prefix}:`),
      };
    }

    // The store over the whole run (warm-up included): what the caches saved.
    const byRoute: Record<string, { requests: number; paths: Set<string> }> = {};
    for (const request of setup.store.requests) {
      const clean = request.path.split('?')[0] ?? '';
      const route =
        request.method === 'GET' && clean === '/v4/servers'
          ? 'servers'
          : request.method === 'GET' && /^\/v4\/server\/[^/]+$/.test(clean)
            ? 'server'
            : request.method === 'GET' && /\/variants$/.test(clean)
              ? 'variants'
              : 'other';
      const entry = (byRoute[route] ??= { requests: 0, paths: new Set() });
      entry.requests += 1;
      entry.paths.add(request.path);
    }
    const products = byRoute.variants?.paths.size ?? 0;
    const offer = (byRoute.servers?.requests ?? 0) + (byRoute.server?.requests ?? 0) + (byRoute.variants?.requests ?? 0);
    result.store = {
      total: setup.store.requests.length,
      byRoute: Object.fromEntries(Object.entries(byRoute).map(([route, entry]) => [route, { requests: entry.requests, distinct: entry.paths.size }])),
      productsBrowsed: products,
      variantCallsPerProduct: round((byRoute.variants?.requests ?? 0) / Math.max(1, products), 3),
      offerCallsPerProduct: round(offer / Math.max(1, products), 3),
      duplicateOfferRequests: Object.values(byRoute).reduce((sum, entry) => sum + entry.requests - entry.paths.size, 0),
    };
  } catch (error) {
    result.error = String((error as Error).stack ?? error).slice(0, 1500);
    log(`  ${name} failed: ${result.error}`);
  } finally {
    for (const bot of setup.bots) {
      const memory = bot.proc.memory();
      const logs = logLevels(bot.proc);
      result.processes.push({
        label: bot.label,
        env: bot.env,
        startToReadyMs: bot.startToReadyMs,
        ...(memory ? { peakRssBytes: memory.hwm, rssAtEndBytes: memory.rss } : {}),
        peakSampledRssBytes: bot.proc.peakSampledRss,
        logLevels: logs.levels,
        firstNotable: logs.first,
      });
    }
    await setup.close();
  }
  return result;
}

export async function scaleOut(options: ScaleOutOptions, log: (text: string) => void): Promise<ScaleOutResult> {
  const setups: SetupResult[] = [];
  for (const name of options.setups) {
    if (!(name in SETUP_TITLES)) throw new Error(`BENCH_SCALE_SETUPS: unknown setup ${name} (sqlite-1p, redis-1p, redis-2p)`);
    if (name !== 'sqlite-1p') {
      const probe = redisClient(options.redisUrl);
      const reachable = await probe.ping().then(
        () => true,
        () => false,
      );
      probe.disconnect();
      if (!reachable) {
        setups.push({ ...emptySetup(name), error: `Redis at ${new URL(options.redisUrl).host} is not reachable (REDIS_URL)` });
        continue;
      }
    }
    log(`  ${SETUP_TITLES[name]}`);
    setups.push(await runSetup(name, options, log));
  }
  const { redisUrl: _redisUrl, ...shown } = options;
  return {
    options: { ...shown, redisDb: BENCH_DB },
    setups,
    notes: [
      '"busy (other; steal)": share of all cores busy in processes over the step; in brackets the share used by something other than the bots, the driver and Redis (another test run, say), and the share the hypervisor gave to other machines (steal). Steps above 10 % other or 5 % steal are flagged.',
      `The machine has ${cpus().length} cores shared by the driver (local Discord, local store, members), Redis and the bot processes: two bot processes compete with each other and with the driver, so the two-process figures show contention, not the gain a second machine would bring.`,
      'One-process setups run SHARDS=auto against a local Discord recommending 2 shards: both shards in one process, the same guilds and gateway sessions as the two-process setup.',
      'Redis per interaction: "sent" = commands the bots sent to the bench database (MONITOR, db 13; MULTI/EXEC wrappers not shown, the bench\'s own INFO left out), "Lua" = commands run inside Lua scripts (redis-semaphore\'s release, the store gate), counted apart since they cost no round trip. Each sent command is at most one round trip (pipelined ones share one). latest.json also holds INFO commandstats deltas, which are server-wide and include script-internal commands.',
      'Each ramp step: members walk /shop → server → category → product → variant → quantity → Add to cart, one interaction of each kind per member, paced at the step rate; "max rate" is the highest step rate whose p99 first callback is ≤ 100 ms with no failure, before the first step that missed it.',
    ],
  };
}

function emptySetup(name: SetupName): SetupResult {
  return {
    name,
    title: SETUP_TITLES[name],
    processes: [],
    guildsByShard: {},
    members: 0,
    warmup: { interactions: 0, failures: 0, durationMs: 0 },
    steps: [],
    maxRateP99Within100ms: null,
    notRun: [],
    store: { total: 0, byRoute: {}, productsBrowsed: 0, variantCallsPerProduct: Number.NaN, offerCallsPerProduct: Number.NaN, duplicateOfferRequests: 0 },
  };
}

// ---- report -------------------------------------------------------------------------------------

export function printScaleOut(result: ScaleOutResult, log: (text: string) => void): void {
  log(`\n=== scale-out: the same crowd, ${result.options.rates.join('/')} interactions/s for ${result.options.stepSeconds} s each (walks up to Add to cart) ===`);
  const rows: (string | number)[][] = [
    ['setup', 'rate/s', 'achieved', 'n', 'first cb p50', 'p99', 'max', 'p99 add', 'settled p99', 'fail', 'Redis/int. sent+Lua', 'bot CPU ms/int.', 'driver CPU ms/int.', 'Redis CPU ms/int.', 'busy (other; steal)'],
  ];
  for (const setup of result.setups) {
    if (setup.error && setup.steps.length === 0) {
      rows.push([setup.name, 'error', setup.error.split('\n')[0]!.slice(0, 60), '', '', '', '', '', '', '', '', '', '', '', '']);
      continue;
    }
    for (const step of setup.steps) {
      rows.push([
        setup.name,
        step.targetRate,
        step.achievedRate,
        step.interactions,
        `${ms(step.firstCallbackMs.median)} ms`,
        `${ms(step.firstCallbackMs.p99)} ms`,
        `${ms(step.firstCallbackMs.max)} ms`,
        `${ms(step.firstCallbackP99ByKind.add ?? Number.NaN)} ms`,
        `${ms(step.settledMs.p99)} ms`,
        step.failures + step.botErrors,
        step.redisSentPerInteraction !== undefined ? `${step.redisSentPerInteraction} + ${step.redisInsideScriptsPerInteraction}` : '–',
        step.botCpuMsPerInteraction !== undefined ? `${step.botCpuMsPerInteraction}${step.botCpuMsByProcess && step.botCpuMsByProcess.length > 1 ? ` (${step.botCpuMsByProcess.join('+')} ms)` : ''}` : '–',
        step.driverCpuMsPerInteraction,
        step.redisServerCpuMsPerInteraction ?? '–',
        step.machineBusyPct !== undefined ? `${step.machineBusyPct}% (${step.otherCpuPct ?? '?'}%; ${step.cpuStealPct ?? '?'}%)` : '–',
      ]);
    }
    for (const rate of setup.notRun) rows.push([setup.name, rate, 'not run (previous step too slow)', '', '', '', '', '', '', '', '', '', '', '', '']);
  }
  log(table(rows));

  log('');
  const summary: (string | number)[][] = [['setup', 'ready', 'max rate p99 ≤ 100 ms', 'first miss', 'store calls/product (variants; all offer)', 'products', 'peak RSS', 'bot log warn/error']];
  for (const setup of result.setups) {
    summary.push([
      setup.title,
      setup.processes.map((proc) => `${ms(proc.startToReadyMs)} ms`).join(' | ') || '–',
      setup.maxRateP99Within100ms === null ? 'none' : `${setup.maxRateP99Within100ms}/s`,
      setup.firstMissedStep ? `${setup.firstMissedStep.targetRate}/s: ${setup.firstMissedStep.reason}` : setup.error ? 'error' : '–',
      `${setup.store.variantCallsPerProduct}; ${setup.store.offerCallsPerProduct}`,
      setup.store.productsBrowsed,
      setup.processes.map((proc) => (proc.peakRssBytes ? mb(proc.peakRssBytes) : '–')).join(' | ') || '–',
      setup.processes.map((proc) => `${proc.logLevels.warn ?? 0}/${proc.logLevels.error ?? 0}`).join(' | ') || '–',
    ]);
  }
  log(table(summary));

  const redisSetups = result.setups.filter((setup) => setup.redis);
  if (redisSetups.length > 0) {
    log(`\nRedis per interaction, one kind at a time at ${result.options.kindRate}/s (${result.options.kindMembers} members; MONITOR on db ${result.options.redisDb}): commands sent + run inside Lua scripts (what was sent)`);
    const kindRows: (string | number)[][] = [['kind', ...redisSetups.map((setup) => setup.name)]];
    for (const kind of SCALE_KINDS) {
      kindRows.push([
        kind,
        ...redisSetups.map((setup) => {
          const entry = setup.redis!.kinds.find((candidate) => candidate.kind === kind);
          if (!entry) return '–';
          const sent = Object.entries(entry.sentByCommand)
            .map(([command, calls]) => `${command} ${calls}`)
            .join(', ');
          return `${entry.sentPerInteraction} + ${entry.insideScriptsPerInteraction}${sent ? ` (${sent})` : ''}`;
        }),
      ]);
    }
    kindRows.push(['journey mix (mean)', ...redisSetups.map((setup) => `${setup.redis!.mixSentPerInteraction} + ${setup.redis!.mixInsideScriptsPerInteraction}`)]);
    kindRows.push([
      'idle, per second',
      ...redisSetups.map((setup) => `${setup.redis!.idle.sentPerSecond}: ${Object.entries(setup.redis!.idle.byCommand).map(([command, calls]) => `${command} ${calls}`).join(', ') || 'nothing'}`),
    ]);
    log(table(kindRows));
  }
  const disturbed = result.setups.flatMap((setup) =>
    setup.steps.filter((step) => (step.otherCpuPct ?? 0) > 10 || (step.cpuStealPct ?? 0) > 5).map((step) => `${setup.name} @ ${step.targetRate}/s (other ${step.otherCpuPct}%, steal ${step.cpuStealPct}%)`),
  );
  if (disturbed.length > 0) log(`WARNING: another load or the hypervisor took CPU during ${disturbed.join(', ')}: those steps measured a disturbed machine.`);
  for (const note of result.notes) log(`note: ${note}`);
}
