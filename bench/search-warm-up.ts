/**
 * The search phase's second half (run.ts phase 7): the background read of a license's variants that
 * the first search starts (src/spaceis/variant-warm-up.ts), measured on fresh bot processes.
 * - Alone: one member's autocomplete "vip 30" on a fresh bot; what it suggests at once, the store
 *   requests the warm-up then sends and how long until every product's variants are in, and what
 *   "vip 30" suggests afterwards.
 * - Its effect on a browsing crowd: members walk /shop → server → category → product (each a
 *   different product, so many product steps need the store) on a fresh bot without any search (no
 *   warm-up), then on a fresh bot where a search started the warm-up just before the crowd arrived.
 * The store answers every request after `storeDelayMs` (BENCH_STORE_DELAY_MS, default 50 ms), as a
 * store across the internet does; with the local store's instant answers the warm-up would be over
 * before anyone could meet it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeUser } from '../test/fakes/discord/fake-discord.js';
import { startProcess, type RunningBot } from './bot-process.js';
import { shelves } from './journey-plans.js';
import { BenchMember, browseToProduct, pacer, Recorder } from './members.js';
import { stepStats, storeStats, type StepStats, type StoreStats } from './phase-stats.js';
import { round } from './stats.js';
import type { World } from './world.js';

const QUERY = 'vip 30';
/** The warm-up counts as done when every product's variants were asked for; given up after this long. */
const WARM_UP_LIMIT_MS = 60_000;

export interface WarmUpAlone {
  /** What "vip 30" suggested at once, on a cold cache (the first 3). */
  suggestedAtOnce: string[];
  /** Dispatch → every product's variants asked for (ms); undefined if that never happened within WARM_UP_LIMIT_MS. */
  allVariantsReadMs: number | undefined;
  /** Every store request from the autocomplete on: servers, server offers and the warm-up's variants. */
  store: StoreStats;
  /** What "vip 30" suggested once the warm-up was over (the first 3). */
  suggestedAfter: string[];
}

export interface CrowdRun {
  steps: Record<string, StepStats>;
  store: StoreStats;
  failures: string[];
}

export interface WarmUpBenchResult {
  storeDelayMs: number;
  products: number;
  alone: WarmUpAlone;
  crowd: { members: number; rate: number; withoutWarmUp: CrowdRun; withWarmUp: CrowdRun & { allVariantsReadMs: number | undefined } };
}

export async function warmUpBench(world: World, members: number, rate: number, storeDelayMs: number): Promise<WarmUpBenchResult> {
  const products = world.shop.servers.reduce((sum, server) => sum + server.categories.reduce((inner, category) => inner + category.products.length, 0), 0);
  world.store.answerDelayMs = storeDelayMs;
  try {
    const alone = await withFreshBot(world, 'warm-up-alone', async () => {
      const from = world.store.requests.length;
      const searcher = world.discord.newUser({ username: 'warm-up-searcher' });
      const started = performance.now();
      const suggestedAtOnce = await suggest(world, searcher);
      const readAt = await untilEveryProductRead(world, from, products);
      return {
        suggestedAtOnce,
        allVariantsReadMs: readAt === undefined ? undefined : round(readAt - started, 0),
        store: storeStats(world.store, from),
        suggestedAfter: await suggest(world, searcher),
      };
    });
    const withoutWarmUp = await withFreshBot(world, 'crowd-without', () => browsingCrowd(world, members, rate, 'plain'));
    const withWarmUp = await withFreshBot(world, 'crowd-with', async () => {
      const from = world.store.requests.length;
      const started = performance.now();
      await suggest(world, world.discord.newUser({ username: 'crowd-searcher' }));
      const crowd = await browsingCrowd(world, members, rate, 'warm');
      const readAt = await untilEveryProductRead(world, from, products);
      return { ...crowd, allVariantsReadMs: readAt === undefined ? undefined : round(readAt - started, 0) };
    });
    return { storeDelayMs, products, alone, crowd: { members, rate, withoutWarmUp, withWarmUp } };
  } finally {
    world.store.answerDelayMs = 0;
  }
}

/** A fresh bot process (cold offer cache), stopped after `work`. */
async function withFreshBot<T>(world: World, name: string, work: (bot: RunningBot) => Promise<T>): Promise<T> {
  const dir = join(world.work, name);
  mkdirSync(dir, { recursive: true });
  const bot = await startProcess(world, 'bot', join(dir, 'store.sqlite'), dir);
  try {
    return await work(bot);
  } finally {
    await bot.proc.stop();
  }
}

async function suggest(world: World, user: FakeUser): Promise<string[]> {
  const handle = await world.discord.autocomplete(user, 'shop', { name: 'item', value: QUERY });
  return ((await handle.settled()).choices ?? []).slice(0, 3).map((choice) => choice.name);
}

/** When the store has been asked for every product's variants since `from` (polled: the bot is another process). */
async function untilEveryProductRead(world: World, from: number, products: number): Promise<number | undefined> {
  const deadline = performance.now() + WARM_UP_LIMIT_MS;
  while (performance.now() < deadline) {
    const read = new Set(world.store.requests.slice(from).filter((request) => request.path.endsWith('/variants')).map((request) => request.path));
    if (read.size >= products) return performance.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return undefined;
}

/** `members` walk to a product each (the shop's products in turn), paced at `rate` interactions a second. */
async function browsingCrowd(world: World, members: number, rate: number, label: string): Promise<CrowdRun> {
  const everyShelf = world.shop.servers.flatMap((server) => shelves(world.shop, server.name));
  const recorder = new Recorder();
  const failures: string[] = [];
  const from = world.store.requests.length;
  const start = performance.now() + 20;
  await Promise.all(
    Array.from({ length: members }, async (_unused, index) => {
      const member = new BenchMember(world.discord, recorder, `${label}-browser-${index}`);
      const shelf = everyShelf[index % everyShelf.length]!;
      try {
        await browseToProduct(member, shelf, pacer(start, index, members, rate));
      } catch (error) {
        failures.push(`${member.user.username}: ${(error as Error).message}`);
      }
    }),
  );
  const steps: Record<string, StepStats> = {};
  for (const step of ['shop', 'server', 'category', 'product']) steps[step] = stepStats(recorder.samples.filter((sample) => sample.step === step));
  steps.all = stepStats(recorder.samples);
  return { steps, store: storeStats(world.store, from), failures: failures.slice(0, 5) };
}
