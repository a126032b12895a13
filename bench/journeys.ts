/**
 * The journey phases: members walk the shop to a payment link (members.ts runJourney), paced at the
 * arrival rate or as a flood, while the bot's CPU, the store requests and this process's own load are
 * recorded, so a slow figure can be told apart from a busy driver or a busy machine.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buttons, textOf } from '../test/support/ui.js';
import { probe, type RunningBot } from './bot-process.js';
import { mainServerPlans, spreadPlans } from './journey-plans.js';
import { BenchMember, JOURNEY_STEPS, pacer, Recorder, runJourney, type JourneyPlan } from './members.js';
import { byStep, storeStats, type StepStats, type StoreStats } from './phase-stats.js';
import { round } from './stats.js';
import type { World } from './world.js';

export interface JourneyResult {
  name: string;
  description: string;
  members: number;
  /** Interactions per second aimed at; 0 = none (flood: every member acts as soon as it sees the answer). */
  targetRate: number;
  interactions: number;
  durationMs: number;
  achievedRate: number;
  /** Interactions per second over the busiest 90% of the phase (first and last 5% of dispatches cut). */
  sustainedRate: number;
  steps: Record<string, StepStats>;
  store: StoreStats;
  journeysCompleted: number;
  linksIssued: number;
  dmsDelivered: number;
  failures: { count: number; first: string[] };
  bot: { cpuMs?: number; cpuMsPerInteraction?: number; rssAfterBytes?: number };
  /** CPU of this process (local Discord, local store and the members), to show the driver was not the bottleneck. */
  driverCpuMs: number;
  /** This process's own event-loop delay: time its measurements may have waited (ms). */
  driverLoopDelayMs: { p99: number; max: number };
  /** Share of the machine's CPU time the hypervisor gave to others meanwhile (/proc/stat steal), %. */
  cpuStealPct?: number;
}

export async function journeyPhase(world: World, bot: RunningBot, name: string, description: string, plans: JourneyPlan[], rate: number): Promise<JourneyResult> {
  const recorder = new Recorder();
  const crowd = plans.map((_plan, index) => new BenchMember(world.discord, recorder, `${name}-${index}`));
  const storeFrom = world.store.requests.length;
  const linksFrom = world.store.issuedLinks.length;
  const cpuBefore = bot.proc.cpuMs();
  const driverBefore = process.cpuUsage();
  const stealBefore = readSteal();
  const driverLoop = monitorEventLoopDelay({ resolution: 1 });
  driverLoop.enable();
  let completed = 0;
  const start = performance.now() + 50;
  await Promise.all(
    crowd.map(async (member, index) => {
      const pace = rate > 0 ? pacer(start, index, crowd.length, rate) : () => Promise.resolve();
      if (rate <= 0) await new Promise((resolve) => setTimeout(resolve, Math.max(0, start - performance.now())));
      try {
        const last = await runJourney(member, plans[index]!, pace);
        const channel = world.discord.dmChannelOf(member.user.id);
        const inDm = channel !== undefined && world.discord.messagesIn(channel).length > 0;
        // Under a crowd the reply carries the Pay button and the DM follows: either is a completed journey.
        const inReply = last.message !== undefined && buttons(last.message).some((button) => button.url !== undefined);
        if (inDm || inReply) completed += 1;
        else {
          const said = last.message ? textOf(last.message).replace(/\s+/g, ' ').slice(0, 160) : '(nothing)';
          recorder.failures.push({ step: 'nick', member: member.user.username, message: `no payment link in the DMs or the reply; the bot said: ${said}` });
        }
      } catch (error) {
        recorder.failures.push({ step: '?', member: member.user.username, message: String((error as Error).message ?? error) });
      }
    }),
  );
  const cpuAfter = bot.proc.cpuMs();
  const driver = process.cpuUsage(driverBefore);
  driverLoop.disable();
  const stealAfter = readSteal();
  await probe(world, bot, `journeys ${name}`);
  if (world.samples) world.samples[name] = recorder.samples.map((sample) => ({ ...sample, at: round(sample.at - start, 2) }));
  const samples = recorder.samples;
  const dispatches = samples.map((sample) => sample.at).sort((a, b) => a - b);
  const first = dispatches[0] ?? 0;
  const last = Math.max(...samples.map((sample) => sample.at + sample.settled));
  const cut = Math.floor(dispatches.length * 0.05);
  const windowStart = dispatches[cut] ?? first;
  const windowEnd = dispatches[dispatches.length - 1 - cut] ?? last;
  const dmsDelivered = crowd.filter((member) => {
    const channel = world.discord.dmChannelOf(member.user.id);
    return channel !== undefined && world.discord.messagesIn(channel).length > 0;
  }).length;
  const cpuMs = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
  return {
    name,
    description,
    members: crowd.length,
    targetRate: rate,
    interactions: samples.length,
    durationMs: round(last - first, 0),
    achievedRate: round((samples.length / Math.max(1, last - first)) * 1000, 1),
    sustainedRate: round(((dispatches.length - 2 * cut) / Math.max(1, windowEnd - windowStart)) * 1000, 1),
    steps: byStep(samples, JOURNEY_STEPS),
    store: storeStats(world.store, storeFrom, crowd.length),
    journeysCompleted: completed,
    linksIssued: world.store.issuedLinks.length - linksFrom,
    dmsDelivered,
    failures: { count: recorder.failures.length, first: recorder.failures.slice(0, 5).map((failure) => `${failure.member}: ${failure.message}`) },
    bot: {
      ...(cpuMs !== undefined ? { cpuMs: round(cpuMs, 0), cpuMsPerInteraction: round(cpuMs / Math.max(1, samples.length), 3) } : {}),
      ...(bot.proc.memory() ? { rssAfterBytes: bot.proc.memory()!.rss } : {}),
    },
    driverCpuMs: round((driver.user + driver.system) / 1000, 0),
    driverLoopDelayMs: { p99: round(driverLoop.percentile(99) / 1e6, 1), max: round(driverLoop.max / 1e6, 1) },
    ...(stealBefore && stealAfter ? { cpuStealPct: round(((stealAfter.steal - stealBefore.steal) / Math.max(1, stealAfter.total - stealBefore.total)) * 100, 1) } : {}),
  };
}

/** CPU ticks in total and stolen by the hypervisor, from the first line of /proc/stat. */
function readSteal(): { steal: number; total: number } | undefined {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    return { steal: fields[7] ?? 0, total: fields.reduce((sum, value) => sum + value, 0) };
  } catch {
    return undefined;
  }
}

export const WARM_UP_MEMBERS = 50;

/**
 * Phase 3: everyone in the main server, opening the same 300-variant product. A short warm-up first,
 * reported on its own: it meets every code path (and the main server's offer) for the first time, so
 * the measured phase shows the steady state of a running bot.
 */
export async function mainServerJourneys(world: World, bot: RunningBot, members: number, rate: number): Promise<JourneyResult[]> {
  const warmupMembers = Math.min(members, WARM_UP_MEMBERS);
  const warmUp = await journeyPhase(world, bot, 'warm-up', `${warmupMembers} members at ${rate}/s, the first journeys the bot serves (cold code paths, cold offer cache)`, mainServerPlans(world.shop, warmupMembers, 'Rozgrzewka'), rate);
  const paced = await journeyPhase(
    world,
    bot,
    'paced',
    `${members} members, ${rate} interactions/s overall (each member acts every ${round(members / rate, 2)} s), every member: the 300-variant product + 2 others in Survival, then /cart, Checkout, nick`,
    mainServerPlans(world.shop, members, 'Gracz'),
    rate,
  );
  return [warmUp, paced];
}

/** Phase 4: new members, no pause between steps, all servers: the most the bot sustains. */
export function floodJourneys(world: World, bot: RunningBot, members: number): Promise<JourneyResult> {
  return journeyPhase(world, bot, 'flood', `${members} new members all at once, each acting as soon as it sees the answer, spread over all 4 servers`, spreadPlans(world.shop, members, 'Kupiec'), 0);
}
