/**
 * The goals the bench's figures are held against, each with what was measured: printed last and kept
 * in the results file. A phase left out leaves its targets out.
 *
 * The gates are the targets that fail the run: each reads one figure from a run's results
 * and holds it under a limit; run.ts exits non-zero, naming each missed gate, when the median of
 * the figure over the runs (one bench run, or several results files through gate.ts) is over it.
 */
import { journeyPhases, type Gate, type Json, type Target } from './report-shape.js';
import type { JourneyResult } from './journeys.js';
import { mb, median, ms, ratio, round } from './stats.js';
import { PAYMENT_GATES } from './payment-gates.js';

export type { Gate, Target } from './report-shape.js';


const MB = 1024 * 1024;
/** The payments phase's rows of 1 000 licenses or more (bench/payment-licenses.ts), on any storage. */
const defined = (...values: unknown[]) => values.every((value) => typeof value === 'number' && Number.isFinite(value));
const over = (ours: number, bare: number) => (ours - bare) / MB;

export const GATES: readonly Gate[] = [
  {
    name: 'crowd (walk): bot CPU per interaction vs the bare bot',
    limit: 1.1,
    unit: '×',
    figure: (r) => (defined(r.walk?.ours?.botCpuMsPerInteraction, r.walk?.bare?.botCpuMsPerInteraction) ? ratio(r.walk.ours.botCpuMsPerInteraction, r.walk.bare.botCpuMsPerInteraction) : undefined),
    detail: (r) => `ours ${r.walk.ours.botCpuMsPerInteraction} ms, bare ${r.walk.bare.botCpuMsPerInteraction} ms`,
  },
  {
    name: 'crowd (walk): first answer p99 vs the bare bot',
    limit: 2,
    unit: '×',
    figure: (r) => (defined(r.walk?.ours?.firstAnswerMs?.p99, r.walk?.bare?.firstAnswerMs?.p99) ? ratio(r.walk.ours.firstAnswerMs.p99, r.walk.bare.firstAnswerMs.p99) : undefined),
    detail: (r) => `ours ${ms(r.walk.ours.firstAnswerMs.p99)} ms, bare ${ms(r.walk.bare.firstAnswerMs.p99)} ms`,
  },
  {
    name: 'peak RSS through the journeys over the bare bot',
    limit: 30,
    unit: 'MB',
    figure: (r) => (defined(r.botMemory?.peakRssBytes, r.bare?.peakRssBytes) ? round(over(r.botMemory.peakRssBytes, r.bare.peakRssBytes), 1) : undefined),
    detail: (r) => `ours ${mb(r.botMemory.peakRssBytes)}, bare ${mb(r.bare.peakRssBytes)}`,
  },
  {
    name: 'peak RSS in the memory flood over the bare bot',
    limit: 30,
    unit: 'MB',
    figure: (r) => (defined(r.memoryFlood?.ours?.peakRssBytes, r.memoryFlood?.bare?.peakRssBytes) ? round(over(r.memoryFlood.ours.peakRssBytes, r.memoryFlood.bare.peakRssBytes), 1) : undefined),
    detail: (r) => `ours ${mb(r.memoryFlood.ours.peakRssBytes)}, bare ${mb(r.memoryFlood.bare.peakRssBytes)}`,
  },
  {
    name: 'checkout crowd: time to the Pay link, p50',
    limit: 1000,
    unit: 'ms',
    figure: (r) => (defined(r.checkoutCrowd?.payButtonMs?.median) ? round(r.checkoutCrowd.payButtonMs.median, 1) : undefined),
    detail: (r) => `${r.checkoutCrowd.members} members at once, ${r.checkoutCrowd.failures.length} failures`,
  },
  {
    name: 'checkout crowd: time to the Pay link, max',
    limit: 2000,
    unit: 'ms',
    figure: (r) => (defined(r.checkoutCrowd?.payButtonMs?.max) ? round(r.checkoutCrowd.payButtonMs.max, 1) : undefined),
    detail: (r) => `${r.checkoutCrowd.members} members at once, ${r.checkoutCrowd.failures.length} failures`,
  },
  {
    name: 'start-up: process start to READY vs the bare bot',
    limit: 1.1,
    unit: '×',
    figure: (r) => (defined(r.startUp?.median?.node?.ratio) ? r.startUp.median.node.ratio : undefined),
    detail: (r) => `median of ${r.startUp.starts} starts: ours ${ms(r.startUp.median.node.ours)} ms, bare ${ms(r.startUp.median.node.bare)} ms`,
  },
  {
    name: 'start-up: npm start to READY vs the bare bot',
    limit: 1.1,
    unit: '×',
    figure: (r) => (defined(r.startUp?.median?.npm?.ratio) ? r.startUp.median.npm.ratio : undefined),
    detail: (r) => `median of ${r.startUp.starts} starts: ours ${ms(r.startUp.median.npm.ours)} ms, bare ${ms(r.startUp.median.npm.bare)} ms`,
  },
  // The payments gates and the store webhook's gates (bench/payment-gates.ts).
  ...PAYMENT_GATES,
];

export interface GateResult {
  name: string;
  limit: number;
  unit: string;
  /** The median of the figure over the runs that measured it. */
  median: number;
  runs: number[];
  detail: string;
  met: boolean;
}

/** Every gate some run measured: its median over those runs against its limit (the last run's detail). */
export function holdGates(reports: readonly Json[]): GateResult[] {
  const results: GateResult[] = [];
  for (const gate of GATES) {
    const measured = reports.filter((report) => gate.figure(report) !== undefined);
    if (measured.length === 0) continue;
    const runs = measured.map((report) => gate.figure(report)!);
    const middle = median(runs);
    results.push({ name: gate.name, limit: gate.limit, unit: gate.unit, median: middle, runs, detail: gate.detail(measured.at(-1)), met: middle <= gate.limit && !Number.isNaN(middle) });
  }
  return results;
}

/** One line per missed gate: its figure, the target, and what the figure was made from. */
export function missedLines(results: readonly GateResult[]): string[] {
  return results
    .filter((result) => !result.met)
    .map((result) => {
      const runs = result.runs.length > 1 ? `median of ${result.runs.length} runs (${result.runs.join(', ')}); ` : '';
      return `bench: TARGET MISSED: ${result.name}: ${result.median} ${result.unit}, target ≤ ${result.limit} ${result.unit} (${runs}${result.detail})`;
    });
}

export function evaluate(report: Json): Target[] {
  const targets: Target[] = holdGates([report]).map((gate) => ({
    target: `[gate] ${gate.name}`,
    goal: `≤ ${gate.limit} ${gate.unit}`,
    measured: `${gate.median} ${gate.unit} (${gate.detail})`,
    met: gate.met,
  }));
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
    const phases = journeyPhases(report);
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
    // Its CPU and p99 against the bare bot's are gates (above).
    const settled = ratio(walk.ours.settledMs.median, walk.bare.settledMs.median);
    targets.push({
      target: `${walk.ours.members} members walk /shop → server → category → product → Next at ${report.options.rate}/s, vs the bare bot`,
      goal: 'settled median ≤ 1.3 ×, no failure',
      measured: `median ${settled} × (ours ${ms(walk.ours.settledMs.median)} ms, bare ${ms(walk.bare.settledMs.median)} ms); ${walk.ours.failures.length} failures`,
      met: settled <= 1.3 && walk.ours.failures.length === 0,
    });
  }
  if (walk?.oursWithoutFlags) {
    // Peak RSS is held with npm start's flags, which must then cost no measurable CPU.
    const cost = ratio(walk.ours.botCpuMsPerInteraction, walk.oursWithoutFlags.botCpuMsPerInteraction);
    const rounds = (walk.ours.botCpuMsPerRound ?? []).map((each: number, index: number) => ratio(each, walk.oursWithoutFlags.botCpuMsPerRound?.[index] ?? Number.NaN));
    targets.push({
      target: `the memory flags' CPU: the walk's bot CPU per interaction with npm start's flags (${(walk.withoutFlags ?? []).join(' ')}) vs the same bot without them, turn about`,
      goal: '≤ 1.05 × (no measurable cost)',
      measured: `${cost} × (with ${walk.ours.botCpuMsPerInteraction} ms, without ${walk.oursWithoutFlags.botCpuMsPerInteraction} ms; by round ${rounds.join(', ')} ×)`,
      met: cost <= 1.05,
    });
  }
  if (walk?.oursInsightsOff) {
    // Counting what members do must be cheap enough to leave on: measured against the same bot with INSIGHTS=off, turn about.
    const cost = ratio(walk.ours.botCpuMsPerInteraction, walk.oursInsightsOff.botCpuMsPerInteraction);
    const rounds = (walk.ours.botCpuMsPerRound ?? []).map((each: number, index: number) => ratio(each, walk.oursInsightsOff.botCpuMsPerRound?.[index] ?? Number.NaN));
    targets.push({
      target: "the insights' counting: the walk's bot CPU per interaction with counting on (INSIGHTS=on) vs the same bot with it off, turn about",
      goal: '≤ 1.05 × (no measurable cost)',
      measured: `${cost} × (on ${walk.ours.botCpuMsPerInteraction} ms, off ${walk.oursInsightsOff.botCpuMsPerInteraction} ms; by round ${rounds.join(', ')} ×)`,
      met: cost <= 1.05,
    });
  }
  const storeClient = report.storeClientCost;
  if (storeClient) {
    targets.push({
      target: `a store request's CPU (payment links and purchase polls against the local store, ${storeClient.requests} each way, turn about): the client's transport (undici's request) vs fetch`,
      goal: 'below fetch',
      measured: `${storeClient.undiciUs} µs vs ${storeClient.fetchUs} µs per request (the local store's share included on both sides)`,
      met: storeClient.undiciUs < storeClient.fetchUs,
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
      target: `${crowd.members} members press /checkout at once: time to a usable Pay button (reply or DM); p50 and max are gates (above)`,
      goal: 'every one ≤ 3000 ms, no failure',
      measured: `p50 ${ms(crowd.payButtonMs.median)} ms, p95 ${ms(crowd.payButtonMs.p95)} ms, max ${ms(crowd.payButtonMs.max)} ms; ${crowd.over3s} over 3 s; in the reply ${crowd.shownInReply}${crowd.payButtonMsBy ? ` (p50 ${ms(crowd.payButtonMsBy.reply.median)} ms)` : ''}, in the DM ${crowd.shownInDm}${crowd.payButtonMsBy ? ` (p50 ${ms(crowd.payButtonMsBy.dm.median)} ms)` : ''}; DMs ${crowd.dmsDelivered} (last at ${ms(crowd.lastDmMs)} ms); DM channels opened ahead ${crowd.dmChannelsOpenedAhead} of ${crowd.members}${crowd.botCpuMsPerCheckout !== undefined ? `; bot CPU ${crowd.botCpuMsPerCheckout} ms per checkout` : ''}${crowd.store ? `; store during the crowd: ${crowd.store.byRoute.variants?.requests ?? 0} variants reads for ${crowd.store.byRoute.variants?.distinct ?? 0} products, ${crowd.store.byRoute.paymentUrl?.requests ?? 0} payment links` : ''}`,
      met: crowd.over3s === 0 && crowd.payButtonMs.max <= 3000 && crowd.failures.length === 0,
    });
  }
  const startUp = report.startUp;
  if (startUp) {
    // Both ratios against the bare bot are gates (above).
    const { npm, firstAnswer } = startUp.median;
    targets.push({
      target: `\`npm start\` to gateway READY (build up to date), median of ${startUp.starts} starts`,
      goal: '≤ 1500 ms',
      measured: `${ms(npm.ours)} ms (bare ${ms(npm.bare)} ms); first answer ${ms(firstAnswer.ours)} ms (bare ${ms(firstAnswer.bare)} ms)`,
      met: npm.ours <= 1500,
    });
  } else if (report.startup) {
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
