/**
 * The goals the bench's figures are held against, each with what was measured: printed last and kept
 * in the results file. A phase left out leaves its targets out; nothing here fails the run.
 */
import { journeyPhases, type Json, type Target } from './report-shape.js';
import type { JourneyResult } from './journeys.js';
import { mb, ms, ratio, round } from './stats.js';

export type { Target } from './report-shape.js';

export function evaluate(report: Json): Target[] {
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
  const bareRss = report.bare?.peakRssBytes as number | undefined;
  const journeysRss = report.botMemory?.peakRssBytes as number | undefined;
  const floodBareRss = flood?.bare?.peakRssBytes as number | undefined;
  if ((bareRss !== undefined && journeysRss !== undefined) || (floodBareRss !== undefined && flood?.ours?.peakRssBytes !== undefined)) {
    const over = (ours: number, bare: number) => `${ours - bare >= 0 ? '+' : '−'}${mb(Math.abs(ours - bare))}`;
    const floodOver = floodBareRss !== undefined && flood?.ours?.peakRssBytes !== undefined ? flood.ours.peakRssBytes - floodBareRss : undefined;
    const journeysOver = bareRss !== undefined && journeysRss !== undefined ? journeysRss - bareRss : undefined;
    targets.push({
      target: 'peak RSS against the bare bot in the same run: the memory flood (both fresh), and the bot through every journey phase (payment watcher, feed and panel refresher running) against the bare bot through its first steps and walk',
      goal: '≤ bare + 30 MB in each',
      measured: `flood ${floodOver !== undefined ? over(flood.ours.peakRssBytes, floodBareRss!) : '–'}; journeys ${journeysOver !== undefined ? `${over(journeysRss!, bareRss!)} (${mb(journeysRss!)} against ${mb(bareRss!)})` : '–'}`,
      met: [floodOver, journeysOver].every((value) => value === undefined || value <= 30 * 1024 * 1024),
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
  const startUp = report.startUp;
  if (startUp) {
    const { node, npm, firstAnswer } = startUp.median;
    targets.push({
      target: `\`npm start\` to gateway READY (build up to date), median of ${startUp.starts} starts, vs the bare bot started by npm start too`,
      goal: '≤ 1.1 × (and ≤ 1500 ms)',
      measured: `${npm.ratio} × (ours ${ms(npm.ours)} ms, bare ${ms(npm.bare)} ms)`,
      met: npm.ratio <= 1.1 && npm.ours <= 1500,
    });
    targets.push({
      target: `process start to READY, median of ${startUp.starts} starts, vs the bare bot`,
      goal: '≤ 1.1 ×',
      measured: `${node.ratio} × (ours ${ms(node.ours)} ms, bare ${ms(node.bare)} ms); first answer ${ms(firstAnswer.ours)} ms (bare ${ms(firstAnswer.bare)} ms)`,
      met: node.ratio <= 1.1,
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
