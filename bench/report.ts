/* The bench's printed report: the machine it ran on, then a section per phase that ran, then the targets. */
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { FirstStepResult } from './first-step.js';
import type { JourneyResult } from './journeys.js';
import type { StepStats } from './phase-stats.js';
import { printScaleOut } from './scale-out.js';
import type { CrowdRun, WarmUpBenchResult } from './search-warm-up.js';
import { printPaymentWatch } from './payment-watch-phase.js';
import { printStoreWebhook } from './store-webhook-phase.js';
import { mb, ms, table } from './stats.js';
import { journeyPhases, type Json, type Target } from './report-shape.js';

export type { Json } from './report-shape.js';

export function machine() {
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

/** Every journey phase that ran, the scaled bot's last. */
export function printReport(report: Json, log: (text: string) => void): void {
  log('');
  log('=== startup ===');
  log(
    table([
      ['process', 'start → ready', 'start → first answer'],
      ['bot (node dist/bundle/main.js)', `${ms(report.startup.startToReadyMs)} ms`, `${ms(report.startup.startToFirstAnswerMs)} ms`],
      ...(report.bare ? [['bare discord.js bot', `${ms(report.bare.startToReadyMs)} ms`, '–']] : []),
      ...(report.scaledBot ? [['bot on the 100k storage', `${ms(report.scaledBot.startToReadyMs)} ms`, `${ms(report.scaledBot.startToFirstAnswerMs)} ms`]] : []),
    ]),
  );

  if (report.startUp) {
    const { nodeMs, npmMs, firstAnswerMs, median, starts } = report.startUp;
    const each = (values: number[]) => values.map((value) => ms(value)).join(' ');
    log(`\nstart-up, ${starts} starts each, alternated (every start; median):`);
    log(
      table([
        ['how', 'bot', 'bare discord.js bot', 'bot ÷ bare'],
        ['node → READY', `${each(nodeMs.ours)}; ${ms(median.node.ours)} ms`, `${each(nodeMs.bare)}; ${ms(median.node.bare)} ms`, `${median.node.ratio} ×`],
        ['node → first answer', `${each(firstAnswerMs.ours)}; ${ms(median.firstAnswer.ours)} ms`, `${each(firstAnswerMs.bare)}; ${ms(median.firstAnswer.bare)} ms`, ''],
        ['npm start → READY', `${each(npmMs.ours)}; ${ms(median.npm.ours)} ms`, `${each(npmMs.bare)}; ${ms(median.npm.bare)} ms`, `${median.npm.ratio} ×`],
      ]),
    );
  }

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

  for (const phase of journeyPhases(report)) {
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
          `first ${fill.oneByOne.carts} carts one by one through the cart service (addMany): ${fill.oneByOne.perCartMs} ms each (all ${fill.carts} that way: ~${fill.oneByOne.projectedAllCartsS} s); ` +
          `rest in SQLite transactions (${fill.bulk.cartRows + fill.bulk.linkRows} rows); file ${mb(fill.fileBytes)}`,
      );
    }
    if (measure && !measure.error) {
      log(
        table([
          ['operation at scale', 'n', 'p50', 'p95', 'p99', 'max'],
          ['cart read/modify/write (cart service setQuantity)', measure.rmwMs.n, `${ms(measure.rmwMs.median)} ms`, `${ms(measure.rmwMs.p95)} ms`, `${ms(measure.rmwMs.p99)} ms`, `${ms(measure.rmwMs.max)} ms`],
          ['payment link create (record + 4 indexes)', measure.linkCreateMs.n, `${ms(measure.linkCreateMs.median)} ms`, `${ms(measure.linkCreateMs.p95)} ms`, `${ms(measure.linkCreateMs.p99)} ms`, `${ms(measure.linkCreateMs.max)} ms`],
          ['link lookup (findByUrl + listForMember)', measure.linkLookupMs.n, `${ms(measure.linkLookupMs.median)} ms`, `${ms(measure.linkLookupMs.p95)} ms`, `${ms(measure.linkLookupMs.p99)} ms`, `${ms(measure.linkLookupMs.max)} ms`],
        ]),
      );
      log(
        `${measure.cycles} concurrent read/modify/writes: ${measure.concurrentRmw.perSecond}/s; open ${ms(measure.openMs)} ms; prune at start ${ms(measure.pruneMs)} ms; ` +
          `sweep of expired records ${ms(measure.sweepMs)} ms (every cart expired: ${measure.sweepAll.deleted} deleted in ${ms(measure.sweepAll.ms)} ms); ` +
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

  if (report.searchWarmUp) printWarmUp(report.searchWarmUp as WarmUpBenchResult, log);

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
  if (report.payments) printPaymentWatch(report.payments, log);
  if (report.storeWebhook) printStoreWebhook(report.storeWebhook, log);

  if (report.botLogs) log(`\nbot log lines: ${JSON.stringify(report.botLogs.levels)}${report.botLogs.first.length ? `; first: ${report.botLogs.first.join(' | ')}` : ''}`);

  log('\n=== targets ===');
  for (const t of report.targets as Target[]) log(`${t.met === null ? '  –' : t.met ? ' ok' : ' NO'}  ${t.target}: goal ${t.goal}; measured ${t.measured}`);
  log(`\ntotal ${report.totalSeconds} s`);
}

/** The search phase's warm-up step (bench/search-warm-up.ts). */
function printWarmUp(result: WarmUpBenchResult, log: (text: string) => void): void {
  const { alone, crowd } = result;
  const variants = (store: CrowdRun['store']) => store.byRoute.variants ?? { requests: 0, distinct: 0 };
  const readIn = (value: number | undefined) => (value === undefined ? 'not within 60 s' : `${ms(value)} ms`);
  log(`\n=== search warm-up: ${result.products} products, the store answering in ${result.storeDelayMs} ms ===`);
  log(`"vip 30" on a fresh bot, at once: ${alone.suggestedAtOnce.join(' | ') || '(nothing)'}`);
  log(`then every product's variants read in the background in ${readIn(alone.allVariantsReadMs)}: ${variants(alone.store).requests} variants requests for ${variants(alone.store).distinct} products, ${alone.store.total} store requests in all, ${alone.store.duplicateOfferRequests} repeated`);
  log(`"vip 30" afterwards: ${alone.suggestedAfter.join(' | ') || '(nothing)'}`);
  const row = (name: string, run: CrowdRun): (string | number)[] => {
    const all = run.steps.all!.settledMs;
    const product = run.steps.product!.settledMs;
    return [name, run.steps.all!.n, `${ms(all.median)} ms`, `${ms(all.p99)} ms`, `${ms(product.median)} ms`, `${ms(product.p95)} ms`, `${ms(product.max)} ms`, variants(run.store).requests, run.store.duplicateOfferRequests, run.failures.length];
  };
  log(
    table([
      [`${crowd.members} members browse to a product at ${crowd.rate}/s`, 'n', 'settled p50', 'p99', 'product step p50', 'p95', 'max', 'variants requests', 'repeated', 'failures'],
      row('fresh bot, no search (no warm-up)', crowd.withoutWarmUp),
      row('fresh bot, a search just before (warm-up running)', crowd.withWarmUp),
    ]),
  );
  log(`with the warm-up, every product's variants were in after ${readIn(crowd.withWarmUp.allVariantsReadMs)}`);
}
