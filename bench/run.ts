/**
 * `npm run bench`: measures the bot as Discord would drive it.
 *
 * Starts the local Discord-compatible server and the local SpaceIs-compatible store used by the tests,
 * then the bot as a separate process exactly as `npm start` runs it (`node dist/src/main.js`, SQLite in
 * a temporary folder), and drives simulated members through it. Also measures a bare discord.js bot on
 * the same servers (the floor discord.js sets on this machine) and the storage at 100 000 carts.
 * Prints tables and writes bench/results/latest.json. Always exits 0: it measures, it does not judge.
 *
 * Options (environment):
 *   BENCH_MEMBERS=200     simulated members per phase
 *   BENCH_RATE=200        arrival rate of the paced phases, interactions per second overall
 *   BENCH_CARTS=100000    carts in the storage scale step (BENCH_LINKS=100000 link records)
 *   BENCH_RMW=1000        cart read/modify/write cycles timed at scale
 *   BENCH_CPU_PROF=1      run the bot under `node --cpu-prof`; profiles go to bench/results/profiles/
 *                         (summarize one with: node dist-bench/bench/profile-summary.js <file>)
 *   BENCH_NODE_ARGS="…"   extra node flags for the bot (e.g. --trace-gc); its output goes to bench/results/bot-output.log
 *   BENCH_PROBE=1         preload bench/probe.js into the bots (reads memory and event-loop delay, changes nothing)
 *   BENCH_SAMPLES=1       also write every timed interaction to bench/results/samples.json
 *   BENCH_LOG_LEVEL=warn  the bot's LOG_LEVEL
 *   BENCH_SKIP=bare,crowd,memflood,metrics,flood,storage,scaled,search,scaleout   leave phases out
 *                         (the bot's own first step, walk and paced journeys always run, except with BENCH_ONLY)
 *   BENCH_ONLY=scaleout   run the scale-out phase alone (latest.json then holds only it)
 *   Scale-out (bench/scale-out.ts): the same crowd against one process on SQLite, one on Redis, and two
 *   processes (one shard each) on Redis; ramps the arrival rate and reports the highest rate whose p99
 *   first callback is ≤ 100 ms, store calls per product, Redis commands per interaction, CPU and RSS.
 *     BENCH_SCALE_RATES=50,100,200,400,800,1200,1600  BENCH_SCALE_STEP_S=4  BENCH_SCALE_GUILDS=8
 *     BENCH_SCALE_SETUPS=sqlite-1p,redis-1p,redis-2p  BENCH_SCALE_KIND_RATE=50  BENCH_SCALE_KIND_MEMBERS=70
 *     REDIS_URL=redis://127.0.0.1:6379 (database 13, prefix bench-<random>, deleted afterwards)
 *   BENCH_FLOOD_MEMBERS=4000 BENCH_FLOOD_RATE=800   the memory flood (fresh processes, peak RSS)
 *   BENCH_SEARCH_ROUNDS=40 rounds of the search matcher's keystrokes (bench/search-bench.ts, also runnable alone)
 *   BENCH_OUT=bench/results/latest.json
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { checkoutCrowd } from './checkout-crowd.js';
import { memoryFlood, type MemoryFloodResult } from './memory-flood.js';
import { measureMetricsCost } from './metrics-cost.js';
import { bareFirstSteps, ourFirstSteps, type BareResult, type FirstStepResult } from './first-step.js';
import { storageAtScale, type StorageResult } from './storage-phase.js';
import { searchMatcher } from './search-phase.js';
import { ROOT, START_FLAGS, startProcess, stopAndSumUp, type BotLaunch } from './bot-process.js';
import { closeWorld, openWorld, registerCommands } from './world.js';
import { floodJourneys, mainServerJourneys, WARM_UP_MEMBERS, type JourneyResult } from './journeys.js';
import { crowdPicks } from './journey-plans.js';
import { scaledBot } from './scaled-bot.js';
import { countOffer, shopSizedFixture } from './shop-fixture.js';
import { mb, ms, ratio, round, table } from './stats.js';
import { rangeVariantRequests, type StepStats } from './phase-stats.js';
import { printScaleOut, scaleOut, scaleOutOptionsFromEnv } from './scale-out.js';


const envNumber = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && process.env[name] !== '' && process.env[name] !== undefined ? value : fallback;
};

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
const launch: BotLaunch = {
  logLevel: options.logLevel,
  cpuProfile: options.cpuProfile,
  probe: process.env.BENCH_PROBE === '1',
  nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
};

// ---- report -------------------------------------------------------------------------------------

function machine() {
  let cpuModel = cpus()[0]?.model ?? 'unknown';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpuModel;
  } catch {
    /* not Linux */
  }
  return { nproc: cpus().length, cpuModel, node: process.version, platform: `${process.platform} ${process.arch}`, memoryBytes: totalmem() };
}

function stepRows(steps: Record<string, StepStats>): (string | number)[][] {
  const rows: (string | number)[][] = [
    ['step', 'n', 'callbacks', 'first cb p50', 'p95', 'p99', 'max', 'settled p50', 'p95', 'p99', 'max'],
  ];
  for (const [step, stats] of Object.entries(steps)) {
    const callbacks = Object.entries(stats.callbackTypes)
      .map(([type, count]) => `${type}:${count}`)
      .join(' ');
    const a = stats.firstCallbackMs;
    const s = stats.settledMs;
    rows.push([step, stats.n, callbacks, ms(a.median), ms(a.p95), ms(a.p99), ms(a.max), ms(s.median), ms(s.p95), ms(s.p99), ms(s.max)]);
  }
  return rows;
}

interface Target {
  target: string;
  goal: string;
  measured: string;
  met: boolean | null;
}


async function main(): Promise<void> {
  const began = performance.now();
  const report: Record<string, unknown> = {
    when: new Date().toISOString(),
    machine: machine(),
    options: { ...options, skip: [...options.skip] },
  };
  const log = (text: string) => process.stdout.write(`${text}\n`);
  if (options.only !== undefined) {
    if (options.only !== 'scaleout') throw new Error(`BENCH_ONLY=${options.only}: only scaleout can run alone`);
    await scaleOutPhase(report, log);
    report.totalSeconds = round((performance.now() - began) / 1000, 1);
    log(`\ntotal ${report.totalSeconds} s`);
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
    log(`JSON: ${options.out}`);
    return;
  }
  const shop = shopSizedFixture();
  report.offer = countOffer(shop);
  const world = await openWorld(shop, launch, process.env.BENCH_SAMPLES === '1');
  const { discord, store, work } = world;
  const K = options.members;
  const m = machine();
  log(`bench: ${K} members, ${options.rate} interactions/s; ${m.nproc} × ${m.cpuModel}; Node ${m.node}`);
  log(`offer: ${JSON.stringify(report.offer)}`);

  try {
    await registerCommands(world);

    // 1. The floor: a bare discord.js bot, same servers, same first step.
    let bare: BareResult | undefined;
    if (!options.skip.has('bare')) {
      log('\n[1/6] bare discord.js bot: /shop, paced and as a burst');
      bare = await bareFirstSteps(world, K, options.rate);
      report.bare = bare;
    }

    // 1b. Memory under a flood: fresh processes (bare, then the bot), 4 000 members at 800/s.
    if (!options.skip.has('memflood')) {
      const floodMembers = envNumber('BENCH_FLOOD_MEMBERS', 4000);
      const floodRate = envNumber('BENCH_FLOOD_RATE', 800);
      log(`[1b] memory flood: ${floodMembers} members send /shop or /cart at ${floodRate}/s to a fresh process`);
      const flood: { ours?: MemoryFloodResult; bare?: MemoryFloodResult; startFlags: string[] } = { startFlags: START_FLAGS };
      if (!options.skip.has('bare')) {
        const bareFresh = await startProcess(world, 'bare', join(work, 'unused.sqlite'), work);
        flood.bare = await memoryFlood(discord, () => bareFresh.proc.memory(), floodMembers, floodRate, 'bare');
        await bareFresh.proc.stop();
      }
      const floodDir = join(work, 'flood');
      mkdirSync(floodDir, { recursive: true });
      const botFresh = await startProcess(world, 'bot', join(floodDir, 'store.sqlite'), floodDir);
      flood.ours = await memoryFlood(discord, () => botFresh.proc.memory(), floodMembers, floodRate, 'ours');
      await botFresh.proc.stop();
      report.memoryFlood = flood;
    }

    // 2. The bot, started as `npm start` starts it.
    log('[2/6] the bot: start, then /shop from the cache, paced and as a burst');
    const { bot, storeAtStart, ...figures } = await ourFirstSteps(world, K, options.rate, bare);
    Object.assign(report, figures); // walk, startup, firstStep

    // 3. Full journeys at the target arrival rate, all in the main server.
    log(`[3/6] journeys: warm-up (${Math.min(K, WARM_UP_MEMBERS)} members), then ${K} members at ${options.rate}/s, all in the main server (same product for everyone)`);
    const journeys = await mainServerJourneys(world, bot, K, options.rate);

    // 3a. What the operator's metrics add to each interaction (in this process, against the walk's CPU).
    if (!options.skip.has('metrics')) report.metricsCost = await measureMetricsCost();

    // 3b. The checkout crowd: everyone presses /checkout in the same instant.
    if (!options.skip.has('crowd')) {
      log(`[3b] checkout crowd: ${K} members with one line each press /checkout nick: at once`);
      report.checkoutCrowd = await checkoutCrowd(discord, crowdPicks(shop, K), 'Tlum', 60_000);
    }

    // 4. Flood: the most the bot sustains.
    if (!options.skip.has('flood')) {
      log(`[4/6] journeys: ${K} new members, no pauses (flood), spread over all servers`);
      journeys.push(await floodJourneys(world, bot, K));
    }
    report.journeys = journeys;
    report.rangeVariantRequests = rangeVariantRequests(store, shop, storeAtStart);
    Object.assign(report, await stopAndSumUp(bot, process.env.BENCH_NODE_ARGS ? join(dirname(options.out), 'bot-output.log') : undefined));

    // 5. Storage at scale, in its own processes.
    let storage: StorageResult | undefined;
    const scaledFile = join(work, 'scaled', 'store.sqlite');
    if (!options.skip.has('storage')) {
      log(`[5/6] storage: ${options.carts} carts + ${options.links} link records, then ${options.rmwCycles} read/modify/write cycles`);
      storage = await storageAtScale(scaledFile, work, options.carts, options.links, options.rmwCycles);
      report.storage = storage;
    }

    // 6. The bot on the filled storage: start, journeys, memory.
    if (storage && !storage.error && !options.skip.has('scaled')) {
      log('[6/6] the bot on the filled storage: start, paced journeys, memory');
      report.scaledBot = await scaledBot(world, scaledFile, K, options.rate, options.carts, options.links);
    }

    // 7. The search matcher alone, in its own process so the fake servers' work does not land in its figures.
    if (!options.skip.has('search')) {
      log('[7] search matcher: keystrokes over a 5 000-variant offer');
      report.search = await searchMatcher(work, process.env.BENCH_SEARCH_ROUNDS);
    }

    // 8. Scale-out: one process on SQLite, one on Redis, two on Redis; each with its own local servers.
    if (!options.skip.has('scaleout')) await scaleOutPhase(report, log, false);

    if (Object.keys(world.probes).length > 0) report.probes = world.probes;
    report.targets = evaluate(report);
    report.totalSeconds = round((performance.now() - began) / 1000, 1);
    printReport(report, log);
  } finally {
    await closeWorld(world);
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
    if (world.samples && Object.keys(world.samples).length > 0) writeFileSync(join(dirname(options.out), 'samples.json'), JSON.stringify(world.samples));
    log(`\nJSON: ${options.out}`);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the report is plain JSON assembled above
type Json = any;

function evaluate(report: Json): Target[] {
  const targets: Target[] = [];
  const ratioPaced = report.firstStep?.ratio?.paced;
  if (ratioPaced) {
    targets.push({
      target: 'warm interaction median round trip vs the bare bot',
      goal: '≤ 1.3 ×',
      measured: `${ratioPaced.median} × (ours ${ms(report.firstStep.ours.paced.steps.settledMs.median)} ms, bare ${ms(report.bare.paced.steps.settledMs.median)} ms)`,
      met: ratioPaced.median <= 1.3,
    });
  }
  const paced = (report.journeys as JourneyResult[] | undefined)?.find((journey) => journey.name === 'paced');
  if (paced) {
    const all = paced.steps.all!;
    const browse = paced.steps['browse+cart']!;
    const nick = paced.steps.nick;
    targets.push({
      target: `p99 to first callback at ${paced.targetRate} interactions/s (sustained ${paced.sustainedRate}/s)`,
      goal: '≤ 10 ms',
      measured: `${ms(all.firstCallbackMs.p99)} ms over all ${all.n} (browsing and cart steps alone: ${ms(browse.firstCallbackMs.p99)} ms; the nick form that issues the payment link: ${ms(nick?.firstCallbackMs.p99 ?? Number.NaN)} ms)`,
      met: all.firstCallbackMs.p99 <= 10,
    });
    const phases: JourneyResult[] = [...(report.journeys as JourneyResult[]), ...(report.scaledBot ? [report.scaledBot.journey as JourneyResult] : [])];
    const maxAck = Math.max(...phases.map((phase) => phase.steps.all!.firstCallbackMs.max));
    const maxSettled = Math.max(...phases.map((phase) => phase.steps.all!.settledMs.max));
    const worst = phases
      .flatMap((phase) => Object.entries(phase.steps).filter(([step]) => step !== 'all').map(([step, stats]) => ({ where: `${phase.name}/${step}`, max: stats.settledMs.max })))
      .sort((a, b) => b.max - a.max)[0];
    targets.push({
      target: 'nothing over 3 s, ever (every journey phase)',
      goal: '≤ 3000 ms',
      measured: `first callback max ${ms(maxAck)} ms; settled max ${ms(maxSettled)} ms (${worst?.where ?? ''})`,
      met: maxAck <= 3000 && maxSettled <= 3000,
    });
    const variants = paced.store.byRoute.variants;
    const rangeRequests = (report.rangeVariantRequests as number | undefined) ?? undefined;
    targets.push({
      target: `store calls while ${paced.members} members open the same product in one cache period`,
      goal: '1 for its variants (+1 per server/offer listing)',
      measured: `${rangeRequests ?? '?'} for the 300-variant product; paced phase: ${paced.store.total} requests (${JSON.stringify(paced.store.byRoute)}), ${paced.store.duplicateOfferRequests} beyond one per offer key; ${variants?.distinct ?? 0} products`,
      met: rangeRequests === 1 && paced.store.duplicateOfferRequests === 0,
    });
  }
  const flood = report.memoryFlood;
  if (flood?.ours?.peakRssBytes !== undefined) {
    targets.push({
      target: `peak RSS during a ${flood.ours.rate}/s flood of /shop and /cart from ${flood.ours.members} members (start flags: ${flood.startFlags.join(' ') || 'none'})`,
      goal: '≤ 200 MB',
      measured: `${mb(flood.ours.peakRssBytes)} (bare discord.js bot: ${flood.bare?.peakRssBytes ? mb(flood.bare.peakRssBytes) : '–'}); achieved ${flood.ours.achievedRate}/s, settled p99 ${ms(flood.ours.settledMs.p99)} ms, ${flood.ours.failures} failures`,
      met: flood.ours.peakRssBytes <= 200 * 1024 * 1024 && flood.ours.failures === 0,
    });
  }
  const walk = report.walk;
  if (walk?.bare) {
    const median = ratio(walk.ours.settledMs.median, walk.bare.settledMs.median);
    const cpu = ratio(walk.ours.botCpuMsPerInteraction, walk.bare.botCpuMsPerInteraction);
    targets.push({
      target: `${walk.ours.members} members walk /shop → server → category → product → Next at ${report.options.rate}/s, vs the bare bot`,
      goal: 'median ≤ 1.3 ×, bot CPU per interaction ≤ 1.15 ×',
      measured: `median ${median} × (ours ${ms(walk.ours.settledMs.median)} ms, bare ${ms(walk.bare.settledMs.median)} ms); CPU ${cpu} × (ours ${walk.ours.botCpuMsPerInteraction} ms, bare ${walk.bare.botCpuMsPerInteraction} ms)`,
      met: median <= 1.3 && cpu <= 1.15 && walk.ours.failures.length === 0,
    });
  }
  const metricsCost = report.metricsCost;
  const walkCpuMs = report.walk?.ours?.botCpuMsPerInteraction as number | undefined;
  if (metricsCost && walkCpuMs) {
    const share = round((metricsCost.perInteractionUs / 1000 / walkCpuMs) * 100, 2);
    targets.push({
      target: 'metrics cost per interaction (counter + histogram updates) against the bot CPU per interaction in the walk',
      goal: '≤ 3 %',
      measured: `${share} % (${metricsCost.perInteractionUs} µs of ${walkCpuMs} ms; a store request ${metricsCost.perStoreRequestUs} µs; a scrape ${metricsCost.scrapeMs} ms)`,
      met: share <= 3,
    });
  }
  const crowd = report.checkoutCrowd;
  if (crowd) {
    targets.push({
      target: `${crowd.members} members press /checkout at once: time to a usable Pay button (reply or DM)`,
      goal: 'every one ≤ 3000 ms, p50 ≤ 1000 ms',
      measured: `p50 ${ms(crowd.payButtonMs.median)} ms, p95 ${ms(crowd.payButtonMs.p95)} ms, max ${ms(crowd.payButtonMs.max)} ms; ${crowd.over3s} over 3 s; in the reply ${crowd.shownInReply}, in the DM ${crowd.shownInDm}; DMs ${crowd.dmsDelivered} (last at ${ms(crowd.lastDmMs)} ms); DM channels opened ahead ${crowd.dmChannelsOpenedAhead}`,
      met: crowd.over3s === 0 && crowd.payButtonMs.max <= 3000 && crowd.payButtonMs.median <= 1000 && crowd.failures.length === 0,
    });
  }
  if (report.startup?.npmStartToReadyMs !== undefined) {
    targets.push({
      target: '`npm start` to gateway READY (build up to date)',
      goal: '≤ 1500 ms',
      measured: `${ms(report.startup.npmStartToReadyMs)} ms`,
      met: report.startup.npmStartToReadyMs <= 1500,
    });
  }
  if (report.startup) {
    targets.push({
      target: 'process start to ready',
      goal: '≤ 1500 ms',
      measured: `${ms(report.startup.startToReadyMs)} ms (first answer at ${ms(report.startup.startToFirstAnswerMs)} ms)`,
      met: report.startup.startToReadyMs <= 1500,
    });
  }
  const scaledRss = report.scaledBot?.peakRssBytes as number | undefined;
  const storageRss = report.storage?.measure?.hwmBytes as number | undefined;
  if (scaledRss !== undefined || storageRss !== undefined) {
    const worst = Math.max(scaledRss ?? 0, storageRss ?? 0);
    targets.push({
      target: `RSS with ${report.options.carts} carts stored`,
      goal: '≤ 150 MB',
      measured: `bot serving journeys on that storage: peak ${scaledRss ? mb(scaledRss) : '–'}; storage alone: peak ${storageRss ? mb(storageRss) : '–'}`,
      met: worst <= 150 * 1024 * 1024,
    });
  }
  if (report.search?.typingMs) {
    const worst = Math.max(report.search.typingMs.p99, report.search.coldMs.p99);
    targets.push({
      target: `search matcher per keystroke over ${report.search.variants} variants, p99`,
      goal: '< 5 ms',
      measured: `typing ${ms(report.search.typingMs.p99)} ms, cold ${ms(report.search.coldMs.p99)} ms (p50 ${ms(report.search.typingMs.median)} ms)`,
      met: worst < 5,
    });
  }
  return targets;
}

/** Runs bench/scale-out.ts into report.scaleOut; prints its table at once when alone, else with the report. */
async function scaleOutPhase(report: Record<string, unknown>, log: (text: string) => void, printNow = true): Promise<void> {
  log('[8] scale-out: the same crowd against one process on SQLite, one on Redis, two processes on Redis (one shard each)');
  const result = await scaleOut(scaleOutOptionsFromEnv(options.logLevel, START_FLAGS), log);
  report.scaleOut = result;
  if (printNow) printScaleOut(result, log);
}

function printReport(report: Json, log: (text: string) => void): void {
  log('');
  log('=== startup ===');
  log(
    table([
      ['process', 'start → ready', 'start → first answer'],
      ['bot (node dist/src/main.js)', `${ms(report.startup.startToReadyMs)} ms`, `${ms(report.startup.startToFirstAnswerMs)} ms`],
      ...(report.bare ? [['bare discord.js bot', `${ms(report.bare.startToReadyMs)} ms`, '–']] : []),
      ...(report.scaledBot ? [['bot on the 100k storage', `${ms(report.scaledBot.startToReadyMs)} ms`, `${ms(report.scaledBot.startToFirstAnswerMs)} ms`]] : []),
    ]),
  );

  log('\n=== first step (/shop, menu from the cache) vs the bare discord.js bot ===');
  const rows: (string | number)[][] = [['run', 'n', 'rate/s', 'callbacks', 'first cb p50', 'p99', 'max', 'settled p50', 'p95', 'p99', 'max', 'bot CPU ms/interaction']];
  const add = (name: string, result: FirstStepResult) => {
    const a = result.steps.firstCallbackMs;
    const s = result.steps.settledMs;
    const callbacks = Object.entries(result.steps.callbackTypes)
      .map(([type, count]) => `${type}:${count}`)
      .join(' ');
    rows.push([name, result.steps.n, result.achievedRate, callbacks, ms(a.median), ms(a.p99), ms(a.max), ms(s.median), ms(s.p95), ms(s.p99), ms(s.max), result.botCpuMsPerInteraction ?? '–']);
  };
  if (report.bare) add('bare, paced', report.bare.paced);
  add('ours, paced', report.firstStep.ours.paced);
  if (report.bare) add('bare, burst', report.bare.burst);
  add('ours, burst', report.firstStep.ours.burst);
  log(table(rows));
  if (report.firstStep.ratio) {
    const r = report.firstStep.ratio;
    log(`ratio ours / bare: paced median ${r.paced.median} ×, p99 ${r.paced.p99} ×; burst median ${r.burst.median} ×, p99 ${r.burst.p99} ×`);
  }

  const phases: JourneyResult[] = [...(report.journeys ?? []), ...(report.scaledBot ? [report.scaledBot.journey] : [])];
  for (const phase of phases) {
    log(`\n=== journeys: ${phase.name} — ${phase.description} ===`);
    log(table(stepRows(phase.steps)));
    log(
      `interactions ${phase.interactions} in ${(phase.durationMs / 1000).toFixed(1)} s: ${phase.achievedRate}/s overall, ${phase.sustainedRate}/s sustained; ` +
        `journeys completed ${phase.journeysCompleted}/${phase.members}; links issued ${phase.linksIssued}; DMs delivered ${phase.dmsDelivered}; failures ${phase.failures.count}`,
    );
    log(
      `store API: ${phase.store.total} requests (${phase.store.perJourney} per journey): ` +
        Object.entries(phase.store.byRoute)
          .map(([route, entry]) => `${route} ${entry.requests} (${entry.distinct} distinct)`)
          .join(', ') +
        `; beyond one per offer key: ${phase.store.duplicateOfferRequests}`,
    );
    if (phase.bot.cpuMs !== undefined) {
      log(
        `CPU: bot ${phase.bot.cpuMs} ms (${phase.bot.cpuMsPerInteraction} ms per interaction, ${Math.round((phase.bot.cpuMs / phase.durationMs) * 100)}% of a core); ` +
          `driver (local Discord + store + members) ${phase.driverCpuMs} ms (${Math.round((phase.driverCpuMs / phase.durationMs) * 100)}% of a core), its event-loop delay p99 ${phase.driverLoopDelayMs.p99} ms, max ${phase.driverLoopDelayMs.max} ms` +
          (phase.cpuStealPct !== undefined ? `; CPU stolen by the hypervisor: ${phase.cpuStealPct}%` : ''),
      );
    }
    for (const failure of phase.failures.first) log(`  failure: ${failure}`);
  }

  log('\n=== memory ===');
  log(
    table([
      ['process', 'peak RSS (VmHWM)', 'peak sampled RSS'],
      ['bot (startup, first step, journeys)', report.botMemory.peakRssBytes ? mb(report.botMemory.peakRssBytes) : '–', mb(report.botMemory.peakSampledRssBytes)],
      ...(report.scaledBot ? [['bot on the 100k storage', mb(report.scaledBot.peakRssBytes), mb(report.scaledBot.peakSampledRssBytes)]] : []),
      ...(report.bare?.peakRssBytes ? [['bare discord.js bot', mb(report.bare.peakRssBytes), '–']] : []),
      ...(report.storage?.measure?.hwmBytes ? [['storage alone (100k carts, measure process)', mb(report.storage.measure.hwmBytes), '–']] : []),
    ]),
  );

  if (report.storage) {
    log('\n=== storage at scale ===');
    const { fill, measure, error } = report.storage;
    if (error) log(`error: ${error}`);
    if (fill && !fill.error) {
      log(
        `fill: ${fill.carts} carts + ${fill.links} link records in ${(fill.totalMs / 1000).toFixed(1)} s; ` +
          `first ${fill.oneByOne.carts} carts one by one through CartRepository.update: ${fill.oneByOne.perCartMs} ms each (all ${fill.carts} that way: ~${fill.oneByOne.projectedAllCartsS} s); ` +
          `rest in SQLite transactions (${fill.bulk.cartRows + fill.bulk.linkRows} rows); file ${mb(fill.fileBytes)}`,
      );
    }
    if (measure && !measure.error) {
      log(
        table([
          ['operation at scale', 'n', 'p50', 'p95', 'p99', 'max'],
          ['cart read/modify/write (CartRepository.update)', measure.rmwMs.n, `${ms(measure.rmwMs.median)} ms`, `${ms(measure.rmwMs.p95)} ms`, `${ms(measure.rmwMs.p99)} ms`, `${ms(measure.rmwMs.max)} ms`],
          ['payment link create (record + 4 indexes)', measure.linkCreateMs.n, `${ms(measure.linkCreateMs.median)} ms`, `${ms(measure.linkCreateMs.p95)} ms`, `${ms(measure.linkCreateMs.p99)} ms`, `${ms(measure.linkCreateMs.max)} ms`],
          ['link lookup (findByUrl + listForMember)', measure.linkLookupMs.n, `${ms(measure.linkLookupMs.median)} ms`, `${ms(measure.linkLookupMs.p95)} ms`, `${ms(measure.linkLookupMs.p99)} ms`, `${ms(measure.linkLookupMs.max)} ms`],
        ]),
      );
      log(
        `${measure.cycles} concurrent read/modify/writes: ${measure.concurrentRmw.perSecond}/s; open ${ms(measure.openMs)} ms; prune at start ${ms(measure.pruneMs)} ms; ` +
          `RSS after open ${mb(measure.rssAfterOpenBytes)}, at end ${mb(measure.rssBytes)}, peak ${mb(measure.hwmBytes)}`,
      );
    }
  }

  if (report.search?.typingMs) {
    const { typingMs, coldMs } = report.search;
    log(`\n=== search matcher: ${report.search.variants} variants, index built in ${ms(report.search.indexBuildMs)} ms ===`);
    log(
      table([
        ['per keystroke', 'n', 'p50', 'p99', 'max'],
        ['typing (earlier words remembered)', typingMs.n, `${ms(typingMs.median)} ms`, `${ms(typingMs.p99)} ms`, `${ms(typingMs.max)} ms`],
        ['cold (nothing remembered)', coldMs.n, `${ms(coldMs.median)} ms`, `${ms(coldMs.p99)} ms`, `${ms(coldMs.max)} ms`],
      ]),
    );
  }

  if (report.probes) {
    log('\n=== probes (BENCH_PROBE=1): memory and event-loop delay since the previous probe ===');
    const rows: (string | number)[][] = [['when', 'RSS', 'heap total', 'heap used', 'live heap (after GC)', 'external', 'loop delay p50', 'p99', 'max']];
    for (const [label, value] of Object.entries(report.probes as Record<string, Json>)) {
      const live = value.memory.heapLiveAfterGc;
      rows.push([label, mb(value.memory.rss), mb(value.memory.heapTotal), mb(value.memory.heapUsed), live ? mb(live) : '–', mb(value.memory.external), `${value.loopDelayMs.p50} ms`, `${value.loopDelayMs.p99} ms`, `${value.loopDelayMs.max} ms`]);
    }
    log(table(rows));
  }

  if (report.scaleOut) printScaleOut(report.scaleOut, log);

  if (report.botLogs) log(`\nbot log lines: ${JSON.stringify(report.botLogs.levels)}${report.botLogs.first.length ? `; first: ${report.botLogs.first.join(' | ')}` : ''}`);

  log('\n=== targets ===');
  for (const t of report.targets as Target[]) log(`${t.met === null ? '  –' : t.met ? ' ok' : ' NO'}  ${t.target}: goal ${t.goal}; measured ${t.measured}`);
  log(`\ntotal ${report.totalSeconds} s`);
}

try {
  await main();
} catch (error) {
  process.stdout.write(`\nbench failed: ${String((error as Error).stack ?? error)}\n`);
}
process.exit(0);
