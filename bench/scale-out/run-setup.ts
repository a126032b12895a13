/**
 * One setup run through: start, warm-up, the ramp, on Redis the one-kind-at-a-time accounting and the
 * idle stretch, the store's requests over the run, and each process's memory and log levels.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { BenchMember, pacer, Recorder } from '../members.js';
import { readProcCpuMs } from '../process.js';
import { shelves } from '../journey-plans.js';
import { ms, round, roundSummary, summarize } from '../stats.js';
import { P99_GOAL_MS, SCALE_KINDS, type ScaleOutOptions, type SetupName } from './options.js';
import { emptySetup, type KindAccounting, type RampStep, type SetupResult } from './results.js';
import { commandStats, countPrefix, monitored, statsDelta } from './redis-readings.js';
import { CLOCK_TICKS, errorLines, logLevels, readMachineTicks } from './machine.js';
import { Setup } from './setup.js';
import { p99ByKind, walkOnce, type PoolMember } from './walk.js';

export async function runSetup(name: SetupName, options: ScaleOutOptions, log: (text: string) => void): Promise<SetupResult> {
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
