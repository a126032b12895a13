/**
 * `npm run bench`: measures the bot as Discord would drive it.
 *
 * Starts the local Discord-compatible server and the local SpaceIs-compatible store used by the tests,
 * then the bot as a separate process exactly as `npm start` runs it (`node dist/bundle/main.js`, SQLite in
 * a temporary folder), and drives simulated members through it. Also measures a bare discord.js bot on
 * the same servers (the floor discord.js sets on this machine) and the storage at 100 000 carts.
 * Prints tables and writes bench/results/latest.json. Exits 1, with one line per miss, when a gate of
 * targets.ts (the performance targets) is missed, or when the bench itself failed; else 0. Three runs' results
 * held together (the median of each figure): node dist-bench/bench/gate.js a.json b.json c.json
 *
 * Options (environment):
 *   BENCH_MEMBERS=200     simulated members per phase
 *   BENCH_RATE=200        arrival rate of the paced phases, interactions per second overall
 *   BENCH_CARTS=100000    carts in the storage scale step (BENCH_LINKS=100000 link records)
 *   BENCH_RMW=1000        cart read/modify/write cycles timed at scale
 *   BENCH_PROFILE=1       profile the bot through the inspector (bench/profiling-phase.ts): after the journeys, the
 *                         crowd walks again under the CPU and sampling heap profilers, then step by step for the
 *                         allocation per interaction of each step; the checkout crowd runs profiled (its figures
 *                         are then not measured ones). Top functions by self time and by allocation are printed;
 *                         the profiles go to bench/results/profiles/ (.cpuprofile, .heapprofile: Chrome DevTools)
 *   BENCH_CPU_PROF=1      run the bot under `node --cpu-prof`; profiles go to bench/results/profiles/
 *                         (summarize one with: node dist-bench/bench/profile-summary.js <file>)
 *   BENCH_NODE_ARGS="…"   extra node flags for the bot (e.g. --trace-gc); its output goes to bench/results/bot-output.log
 *   BENCH_PROBE=1         preload bench/probe.js into the bots (reads memory and event-loop delay, changes nothing)
 *   BENCH_HEAP=1          BENCH_PROBE=1 and a heap snapshot of the bot at each probe (after start, after the journeys,
 *                         after the checkout crowd) in bench/results/heap/ (summarize one with:
 *                         node dist-bench/bench/heap-summary.js <file>). Snapshots inflate RSS: not for measured runs.
 *   BENCH_SAMPLES=1       also write every timed interaction to bench/results/samples.json
 *   BENCH_LOG_LEVEL=warn  the bot's LOG_LEVEL
 *   BENCH_SKIP=bare,flags,insightsoff,startup,crowd,memflood,metrics,storeclient,flood,burst,storage,scaled,search,scaleout,payments,webhook
 *                         leave phases out (flags / insightsoff: the bot without npm start's node flags / with INSIGHTS=off, walked turn about;
 *                         storeclient: undici's request against fetch; the first step, walk and journeys always run)
 *   BENCH_ONLY=scaleout   one phase alone (latest.json then holds only it); so do payments, webhook, chart (a 12-month
 *                         chart BENCH_CHART_RENDERS=20 times), intent (the webhook phase's chat flood alone) and
 *                         guilds (bench/guild-memory.ts: peak RSS of 2 processes on Redis receiving 10 000 guilds),
 *                         burst (bench/burst.ts: 200 members walking at once, CPU against the bare bot, with/without flags)
 *   BENCH_PAY_LICENSES_ONLY=1   the payments phase measures only its many-licenses part (1, 1 000, 10 000 licenses on
 *                         SQLite, 1 000 and 10 000 on Redis: REDIS_URL or 127.0.0.1:6379, database 12, prefix
 *                         bench-pay-<random>, deleted afterwards; left out with one line when Redis does not answer)
 *                         and the invalid requests to Discord from background work (5 000 timed roles, a simulated hour)
 *   BENCH_PAY_LICENSES=1:30,1000:5,10000:2   its sizes: licenses:simulated minutes
 *   Payments (bench/payment-watch-phase.ts: store requests per hour by open links, a walk beside polling):
 *     BENCH_PAY_WALK_S=40 (the walk's length: two poll rounds at PAYMENT_POLL_SECONDS=15)  BENCH_PAY_RATE=100
 *   Store webhook (bench/store-webhook-phase.ts: a sale in a minute with and without it, payments among forged ids):
 *     BENCH_HOOK_PAYMENTS=100 BENCH_HOOK_FORGED=500 BENCH_HOOK_FLOOD_PAYMENTS=10 BENCH_HOOK_FLOOD_S=10
 *   Scale-out (bench/scale-out.ts: one process on SQLite, one and two on Redis, the arrival rate ramped):
 *     BENCH_SCALE_RATES=50,100,200,400,800,1200,1600  BENCH_SCALE_STEP_S=4  BENCH_SCALE_GUILDS=8
 *     BENCH_SCALE_SETUPS=sqlite-1p,redis-1p,redis-2p  BENCH_SCALE_KIND_RATE=50  BENCH_SCALE_KIND_MEMBERS=70
 *     REDIS_URL=redis://127.0.0.1:6379 (database 13, prefix bench-<random>, deleted afterwards)
 *   BENCH_FLOOD_MEMBERS=4000 BENCH_FLOOD_RATE=800   the memory flood (fresh processes, peak RSS)
 *   BENCH_STARTS=5        starts of each bot in the start-up phase (bench/start-up.ts: node and npm start, alternated)
 *   BENCH_SEARCH_ROUNDS=40 rounds of the search matcher's keystrokes (bench/search-bench.ts, also runnable alone)
 *   BENCH_STORE_DELAY_MS=50 how long the store takes to answer in the search warm-up (bench/search-warm-up.ts)
 *   BENCH_OUT=bench/results/latest.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { probe, ROOT, START_FLAGS, stopAndSumUp, type BotLaunch } from './bot-process.js';
import { chartPhase } from './chart-phase.js';
import { burstPhase } from './burst.js';
import { checkoutCrowd } from './checkout-crowd.js';
import { bareFirstSteps, ourFirstSteps, type RunningBare } from './first-step.js';
import { crowdPicks } from './journey-plans.js';
import { floodJourneys, mainServerJourneys, WARM_UP_MEMBERS } from './journeys.js';
import { guildMemory } from './guild-memory.js';
import { memoryFloodPhase } from './memory-flood.js';
import { measureMetricsCost } from './metrics-cost.js';
import { measureStoreClientCost } from './store-client-cost.js';
import { rangeVariantRequests } from './phase-stats.js';
import { profileCrowd, profiled, type Profiling } from './profiling-phase.js';
import { machine, printReport } from './report.js';
import { scaledBot } from './scaled-bot.js';
import { startUpPhase } from './start-up.js';
import { printScaleOut, scaleOut, scaleOutOptionsFromEnv } from './scale-out.js';
import { searchMatcher } from './search-phase.js';
import { warmUpBench } from './search-warm-up.js';
import { paymentWatchPhase, printPaymentWatch } from './payment-watch-phase.js';
import { intentCost, printIntentCost, printStoreWebhook, storeWebhookPhase } from './store-webhook-phase.js';
import { countOffer, shopSizedFixture } from './shop-fixture.js';
import { round } from './stats.js';
import { storageAtScale, type StorageResult } from './storage-phase.js';
import { evaluate, holdGates, missedLines } from './targets.js';
import { closeWorld, openWorld, registerCommands, type World } from './world.js';

const envNumber = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && process.env[name] !== '' && process.env[name] !== undefined ? value : fallback;
};

/** Written into the results as they are: the run's shape. */
const options = {
  members: envNumber('BENCH_MEMBERS', 200),
  rate: envNumber('BENCH_RATE', 200),
  carts: envNumber('BENCH_CARTS', 100_000),
  links: envNumber('BENCH_LINKS', 100_000),
  rmwCycles: envNumber('BENCH_RMW', 1000),
  cpuProfile: process.env.BENCH_CPU_PROF === '1',
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  skip: new Set((process.env.BENCH_SKIP ?? '').split(',').map((part) => part.trim()).filter(Boolean)),
  only: process.env.BENCH_ONLY?.trim() || undefined,
  out: resolve(ROOT, process.env.BENCH_OUT ?? 'bench/results/latest.json'),
};
// The rest stay out of the results, as they always have: investigation switches and per-phase sizes.
const launch: BotLaunch = {
  logLevel: options.logLevel,
  cpuProfile: options.cpuProfile,
  probe: process.env.BENCH_PROBE === '1',
  nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
  heapDir: process.env.BENCH_HEAP === '1' ? resolve(ROOT, 'bench/results/heap') : undefined,
  inspect: process.env.BENCH_PROFILE === '1',
};
if (launch.heapDir) {
  launch.probe = true;
  mkdirSync(launch.heapDir, { recursive: true });
}
const botOutputLog = process.env.BENCH_NODE_ARGS ? join(dirname(options.out), 'bot-output.log') : undefined;
const keepSamples = process.env.BENCH_SAMPLES === '1';
const floodMembers = envNumber('BENCH_FLOOD_MEMBERS', 4000);
const floodRate = envNumber('BENCH_FLOOD_RATE', 800);
const searchRounds = process.env.BENCH_SEARCH_ROUNDS;
const storeDelayMs = envNumber('BENCH_STORE_DELAY_MS', 50);

const runs = (phase: string) => !options.skip.has(phase);
const log = (text: string) => process.stdout.write(`${text}\n`);

function writeResults(report: Record<string, unknown>): void {
  mkdirSync(dirname(options.out), { recursive: true });
  writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
}

/** Prints the scale-out table at once when it runs alone, else with the report. */
async function scaleOutPhase(report: Record<string, unknown>, printNow: boolean): Promise<void> {
  log('[8] scale-out: the same crowd against one process on SQLite, one on Redis, two processes on Redis (one shard each)');
  const result = await scaleOut(scaleOutOptionsFromEnv(options.logLevel, START_FLAGS), log);
  report.scaleOut = result;
  if (printNow) printScaleOut(result, log);
}

/** Prints the payments tables at once when the phase runs alone, else with the report. */
async function paymentsPhase(world: World, report: Record<string, unknown>, printNow: boolean): Promise<void> {
  log('[9] payments: store requests per simulated hour by open links, and a crowd beside polling');
  const result = await paymentWatchPhase(world, { members: options.members, rate: envNumber('BENCH_PAY_RATE', 100), walkSeconds: envNumber('BENCH_PAY_WALK_S', 40), crowd: true, licensesOnly: process.env.BENCH_PAY_LICENSES_ONLY === '1' }, log);
  report.payments = result;
  if (printNow) printPaymentWatch(result, log);
}

/** Prints the store webhook's tables at once when the phase runs alone, else with the report; BENCH_ONLY=intent: its chat flood alone. */
async function webhookPhase(world: World, report: Record<string, unknown>, printNow: boolean): Promise<void> {
  if (options.only === 'intent') return printIntentCost((report.storeWebhookIntent = await intentCost(world, envNumber('BENCH_HOOK_FLOOD_S', 10), log)), log);
  log('[10] store webhook: a sale and a flood of forged ids (payment → DM edited), store requests per hour per server, a chat flood with the intent');
  const result = await storeWebhookPhase(world, { payments: envNumber('BENCH_HOOK_PAYMENTS', 100), forged: envNumber('BENCH_HOOK_FORGED', 500), floodPayments: envNumber('BENCH_HOOK_FLOOD_PAYMENTS', 10), floodSeconds: envNumber('BENCH_HOOK_FLOOD_S', 10) }, log);
  report.storeWebhook = result;
  if (printNow) printStoreWebhook(result, log);
}

/** The lines naming each missed gate, printed last so they are the run's last words. */
let missed: string[] = [];
/** The insights chart's phase (bench/chart-phase.ts); its gate joins the run's missed lines. */
const insightsChartPhase = async (report: Record<string, unknown>) => missed.push(...(await chartPhase(report, envNumber('BENCH_CHART_RENDERS', 20), log)));

async function main(): Promise<void> {
  const began = performance.now();
  const report: Record<string, unknown> = { when: new Date().toISOString(), machine: machine(), options: { ...options, skip: [...options.skip] } };
  if (options.only === 'payments' || options.only === 'webhook' || options.only === 'intent' || options.only === 'burst') {
    const world = await openWorld(shopSizedFixture(), launch, keepSamples);
    try {
      await registerCommands(world);
      if (options.only === 'payments') await paymentsPhase(world, report, true);
      else if (options.only === 'burst') report.burst = await burstPhase(world, options.rate, log);
      else await webhookPhase(world, report, true);
    } finally {
      await closeWorld(world);
    }
    // The payments phase's gates hold alone too (a regression in its costs fails the run).
    report.targets = evaluate(report);
    for (const target of report.targets as { target: string; goal: string; measured: string; met: boolean }[]) log(`${target.met ? 'met' : 'MISSED'}: ${target.target}: ${target.measured} (goal ${target.goal})`);
    missed = missedLines(holdGates([report]));
    report.totalSeconds = round((performance.now() - began) / 1000, 1);
    log(`\ntotal ${report.totalSeconds} s`);
    writeResults(report);
    log(`JSON: ${options.out}`);
    return;
  }
  if (options.only !== undefined) {
    if (options.only === 'chart') await insightsChartPhase(report);
    else if (options.only === 'scaleout') await scaleOutPhase(report, true);
    else if (options.only === 'guilds') report.guildMemory = await guildMemory(log);
    else throw new Error(`BENCH_ONLY=${options.only}: only scaleout, guilds, burst, payments, webhook, intent or chart can run alone`);
    report.totalSeconds = round((performance.now() - began) / 1000, 1);
    log(`\ntotal ${report.totalSeconds} s`);
    writeResults(report);
    log(`JSON: ${options.out}`);
    return;
  }
  const shop = shopSizedFixture();
  report.offer = countOffer(shop);
  const world = await openWorld(shop, launch, keepSamples);
  const K = options.members;
  const m = machine();
  log(`bench: ${K} members, ${options.rate} interactions/s; ${m.nproc} × ${m.cpuModel}; Node ${m.node}`);
  log(`offer: ${JSON.stringify(report.offer)}`);

  try {
    await registerCommands(world);

    let bare: RunningBare | undefined;
    if (runs('bare')) {
      log('\n[1/6] bare discord.js bot: /shop, paced and as a burst; warmed for the walk and left running (measured with the bot, turn about)');
      bare = await bareFirstSteps(world, K, options.rate);
      report.bare = bare.result;
    }
    if (runs('memflood')) {
      log(`[1b] memory flood: ${floodMembers} members send /shop or /cart at ${floodRate}/s to a fresh process`);
      report.memoryFlood = await memoryFloodPhase(world, floodMembers, floodRate, runs('bare'));
    }

    if (runs('startup')) {
      const starts = envNumber('BENCH_STARTS', 5);
      log(`[1c] start-up: the bare bot and the bot, ${starts} starts each, alternated, by node and by npm start`);
      report.startUp = await startUpPhase(world, starts);
    }

    // The bot started here serves every phase up to the flood, so their figures are those of one running bot.
    log('[2/6] the bot: start, then /shop from the cache, paced and as a burst');
    const { bot, storeAtStart, ...figures } = await ourFirstSteps(world, K, options.rate, bare, runs('flags'), runs('insightsoff'));
    Object.assign(report, figures); // walk, startup, firstStep
    log(`[3/6] journeys: warm-up (${Math.min(K, WARM_UP_MEMBERS)} members), then ${K} members at ${options.rate}/s, all in the main server (same product for everyone)`);
    const journeys = await mainServerJourneys(world, bot, K, options.rate);
    // Measured in this process; targets.ts weighs it against the walk's bot CPU.
    if (runs('metrics')) report.metricsCost = await measureMetricsCost();
    if (runs('storeclient')) report.storeClientCost = await measureStoreClientCost();
    let profiling: Profiling | undefined;
    if (launch.inspect) {
      log(`[3p] profiles (BENCH_PROFILE=1): ${K} members walk the menus at ${options.rate}/s under the profilers, then step by step`);
      profiling = await profileCrowd(world, bot, K, options.rate, log);
    }
    if (runs('crowd')) {
      log(`[3b] checkout crowd: ${K} members with one line each press /checkout nick: at once`);
      const around = profiling ? <T>(work: () => Promise<T>) => profiled(profiling!, 'checkout-crowd', work, log) : undefined;
      report.checkoutCrowd = await checkoutCrowd(world.discord, crowdPicks(shop, K), 'Tlum', 60_000, world.store, around, () => bot.proc.cpuMs());
      await probe(world, bot, 'bot: after the checkout crowd');
    }
    if (profiling) {
      profiling.inspector.close();
      report.profiles = { phases: profiling.profiles, allocationPerStep: profiling.allocationPerStep };
    }
    if (runs('flood')) {
      log(`[4/6] journeys: ${K} new members, no pauses (flood), spread over all servers`);
      journeys.push(await floodJourneys(world, bot, K));
    }
    report.journeys = journeys;
    report.rangeVariantRequests = rangeVariantRequests(world.store, shop, storeAtStart);
    Object.assign(report, await stopAndSumUp(bot, botOutputLog)); // botMemory, botLogs
    if (runs('burst')) report.burst = await burstPhase(world, options.rate, log);

    let storage: StorageResult | undefined;
    const scaledFile = join(world.work, 'scaled', 'store.sqlite');
    if (runs('storage')) {
      log(`[5/6] storage: ${options.carts} carts + ${options.links} link records, then ${options.rmwCycles} read/modify/write cycles`);
      storage = await storageAtScale(scaledFile, world.work, options.carts, options.links, options.rmwCycles);
      report.storage = storage;
    }
    if (storage && !storage.error && runs('scaled')) {
      log('[6/6] the bot on the filled storage: start, paced journeys, memory');
      report.scaledBot = await scaledBot(world, scaledFile, K, options.rate, options.carts, options.links);
    }
    if (runs('search')) {
      log('[7] search matcher: keystrokes over a 5 000-variant offer');
      report.search = await searchMatcher(world.work, searchRounds);
      log(`[7b] search warm-up: the background variants read on fresh bots, alone and under ${K} browsing members (store answers in ${storeDelayMs} ms)`);
      report.searchWarmUp = await warmUpBench(world, K, options.rate, storeDelayMs);
    }
    if (runs('scaleout')) await scaleOutPhase(report, false);
    if (runs('payments')) await paymentsPhase(world, report, false);
    if (runs('webhook')) await webhookPhase(world, report, false);
    if (runs('chart')) await insightsChartPhase(report);

    if (Object.keys(world.probes).length > 0) report.probes = world.probes;
    report.targets = evaluate(report);
    report.totalSeconds = round((performance.now() - began) / 1000, 1);
    printReport(report, log);
    missed = [...missedLines(holdGates([report])), ...missed];
  } finally {
    await closeWorld(world);
    writeResults(report);
    if (world.samples && Object.keys(world.samples).length > 0) writeFileSync(join(dirname(options.out), 'samples.json'), JSON.stringify(world.samples));
    log(`\nJSON: ${options.out}`);
  }
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  process.stdout.write(`\nbench failed: ${String((error as Error).stack ?? error)}\n`);
}
if (missed.length > 0) process.stderr.write(`\n${missed.join('\n')}\n`);
process.exit(failed || missed.length > 0 ? 1 : 0);
