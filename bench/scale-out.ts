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
 *
 * This file runs the setups in turn and prints the tables; the parts are in scale-out/.
 */
import { cpus } from 'node:os';
import { mb, ms, table } from './stats.js';
import { BENCH_DB, SCALE_KINDS, SETUP_TITLES, type ScaleOutOptions } from './scale-out/options.js';
import { emptySetup, type ScaleOutResult, type SetupResult } from './scale-out/results.js';
import { redisClient } from './scale-out/redis-readings.js';
import { runSetup } from './scale-out/run-setup.js';

// What this module exported before its parts moved to scale-out/, so that importers need not change.
export { SCALE_KINDS, scaleOutOptionsFromEnv, type ScaleOutOptions, type SetupName } from './scale-out/options.js';
export type { KindAccounting, RampStep, ScaleOutResult, SetupResult } from './scale-out/results.js';

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
