/**
 * Phases 1 and 2 of run.ts: the first step (/shop, answered from the cache), paced at the arrival
 * rate and as a burst, then the walk (walk.ts); first on a bare discord.js bot, the floor
 * discord.js sets on this machine, then on the bot itself, which keeps running for the journeys.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { probe, START_FLAGS, startProcess, type RunningBot } from './bot-process.js';
import { BenchMember, pacer, Recorder } from './members.js';
import { stepStats, storeStats, type StepStats } from './phase-stats.js';
import { RANGE_PRODUCT } from './shop-fixture.js';
import { ratio, round } from './stats.js';
import { alternatingWalks, walkPhase, type WalkResult, type WalkSide } from './walk.js';
import type { World } from './world.js';

/** The walk through a big shop: the coin pack's 300 variants, as the bare bot's menus are that size. */
export const WALK_ROUTE = { server: 'Survival', category: 'Monety', product: RANGE_PRODUCT };

export interface FirstStepResult {
  mode: 'paced' | 'burst';
  members: number;
  targetRate?: number;
  achievedRate: number;
  steps: StepStats;
  failures: number;
  /** CPU the bot process spent over the run, per interaction (ms). */
  botCpuMsPerInteraction?: number;
}

/** K members send /shop: paced at the arrival rate, or all in the same instant (a crowd after an announcement). */
async function firstStep(world: World, bot: RunningBot, label: string, mode: 'paced' | 'burst', members: number, rate: number): Promise<FirstStepResult> {
  const recorder = new Recorder();
  const cpuBefore = bot.proc.cpuMs();
  const crowd = Array.from({ length: members }, (_unused, index) => new BenchMember(world.discord, recorder, `${label}-${mode}-${index}`));
  const start = performance.now() + 20;
  await Promise.all(
    crowd.map(async (member, index) => {
      if (mode === 'paced') await pacer(start, index, members, rate)();
      try {
        await member.slash('shop', 'shop');
      } catch (error) {
        recorder.failures.push({ step: 'shop', member: member.user.username, message: String(error) });
      }
    }),
  );
  const samples = recorder.samples;
  const first = Math.min(...samples.map((sample) => sample.at));
  const last = Math.max(...samples.map((sample) => sample.at + sample.settled));
  // Let the bot finish whatever follows its answer (logging, GC) before reading its CPU time.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const cpuAfter = bot.proc.cpuMs();
  return {
    mode,
    ...(cpuBefore !== undefined && cpuAfter !== undefined ? { botCpuMsPerInteraction: round((cpuAfter - cpuBefore) / Math.max(1, samples.length), 3) } : {}),
    members,
    ...(mode === 'paced' ? { targetRate: rate } : {}),
    achievedRate: round((samples.length / Math.max(1, last - first)) * 1000, 1),
    steps: stepStats(samples),
    failures: recorder.failures.length,
  };
}

/** The bot started without `npm start`'s memory flags, walked turn about with the others (BENCH_SKIP=flags leaves it out). */
export interface RunningUnflagged {
  bot: RunningBot;
  session: string;
}

export interface BareResult {
  paced: FirstStepResult;
  burst: FirstStepResult;
  /** Measured with the bot's walk, in alternating rounds (ourFirstSteps): filled in there. */
  walk?: WalkResult;
  startToReadyMs: number;
  peakRssBytes?: number;
}

/** The bare bot, left running after its first steps: the walk measures it turn about with the bot. */
export interface RunningBare {
  result: BareResult;
  bot: RunningBot;
  /** Its gateway session: interactions sent there reach it while the bot (newer) is up too. */
  session: string;
}

/** Rounds of the walk gate's alternating walk, each side (BENCH_WALK_ROUNDS). */
const WALK_ROUNDS = Number(process.env.BENCH_WALK_ROUNDS ?? 3);

/** The newest live gateway session: that of the bot process that has just become ready. */
function newestSession(world: World): string {
  const session = world.discord.gatewaySessions().filter((each) => each.live).at(-1);
  if (!session) throw new Error('no live gateway session after a bot became ready');
  return session.id;
}

/** The same warm-up walks for either bot before its walk is measured: 50 members, then a full crowd. */
async function warmUpWalk(world: World, side: WalkSide, members: number, rate: number, label: string): Promise<void> {
  await walkPhase(world.discord, side.cpuMs, Math.min(members, 50), rate, `${label}-warmup-50`, side.route, side.session);
  await walkPhase(world.discord, side.cpuMs, members, rate, `${label}-warmup`, side.route, side.session);
}

/** Phase 1: the bare bot on the same servers, the same first step, warmed for the walk; left running for it. */
export async function bareFirstSteps(world: World, members: number, rate: number): Promise<RunningBare> {
  const bareBot = await startProcess(world, 'bare', join(world.work, 'unused.sqlite'), world.work);
  const session = newestSession(world);
  await firstStep(world, bareBot, 'bare-warmup', 'paced', Math.min(members, 100), rate);
  const paced = await firstStep(world, bareBot, 'bare', 'paced', members, rate);
  const burst = await firstStep(world, bareBot, 'bare', 'burst', members, rate);
  await warmUpWalk(world, { cpuMs: () => bareBot.proc.cpuMs(), session, route: undefined }, members, rate, 'bare');
  await probe(world, bareBot, 'bare: after first steps');
  return { result: { paced, burst, startToReadyMs: round(bareBot.startToReadyMs, 1) }, bot: bareBot, session };
}

/**
 * The bot as `npm start` runs it but without its node flags (`--max-semi-space-size`,
 * `--heap-growing-percent`): what the flags cost in CPU is the walk's difference between the two.
 */
async function startUnflagged(world: World, members: number, rate: number): Promise<RunningUnflagged> {
  const dir = join(world.work, 'bot-without-flags');
  mkdirSync(dir, { recursive: true });
  const bot = await startProcess(world, 'bot', join(dir, 'store.sqlite'), dir, {}, []);
  const session = newestSession(world);
  await warmUpWalk(world, { cpuMs: () => bot.proc.cpuMs(), session, route: WALK_ROUTE }, members, rate, 'unflagged');
  return { bot, session };
}

/**
 * The bot as shipped but with counting off (INSIGHTS=off): what counting costs in CPU per interaction
 * is the walk's difference between the two, measured turn about in the same run.
 */
async function startInsightsOff(world: World, members: number, rate: number): Promise<RunningUnflagged> {
  const dir = join(world.work, 'bot-insights-off');
  mkdirSync(dir, { recursive: true });
  const bot = await startProcess(world, 'bot', join(dir, 'store.sqlite'), dir, { INSIGHTS: 'off' });
  const session = newestSession(world);
  await warmUpWalk(world, { cpuMs: () => bot.proc.cpuMs(), session, route: WALK_ROUTE }, members, rate, 'insights-off');
  return { bot, session };
}

/** Stops the bare bot once its walk is measured; its peak memory is read just before. */
async function stopBare(bare: RunningBare): Promise<void> {
  const memory = bare.bot.proc.memory();
  if (memory) bare.result.peakRssBytes = memory.hwm;
  await bare.bot.proc.stop();
}

/**
 * Phase 2: the bot, started as `npm start` starts it, the same first step and walk. The bot is left running for the journeys; `storeAtStart` is
 * where its store requests begin.
 */
export async function ourFirstSteps(world: World, members: number, rate: number, runningBare: RunningBare | undefined, withoutFlags: boolean, withInsightsOff = false) {
  const bare = runningBare?.result;
  const botDir = join(world.work, 'bot');
  mkdirSync(botDir, { recursive: true });
  // Started first, so the bot as shipped is the newest session (the later phases' interactions go to it).
  const unflagged = withoutFlags ? await startUnflagged(world, members, rate) : undefined;
  const insightsOff = withInsightsOff ? await startInsightsOff(world, members, rate) : undefined;
  const bot = await startProcess(world, 'bot', join(botDir, 'store.sqlite'), botDir);
  const session = newestSession(world);
  await probe(world, bot, 'bot: ready');
  const storeAtStart = world.store.requests.length;
  await firstStep(world, bot, 'warmup', 'paced', Math.min(members, 100), rate);
  const oursPaced = await firstStep(world, bot, 'ours', 'paced', members, rate);
  const oursBurst = await firstStep(world, bot, 'ours', 'burst', members, rate);
  // The walk through a big shop, as the bare bot walked it (its menus are the same size), after the same
  // warm-up; then both take turns (walk.ts alternatingWalks).
  const ours: WalkSide = { cpuMs: () => bot.proc.cpuMs(), session, route: WALK_ROUTE };
  await warmUpWalk(world, ours, members, rate, 'ours');
  const sides: Record<string, WalkSide> = {
    ...(runningBare ? { bare: { cpuMs: () => runningBare.bot.proc.cpuMs(), session: runningBare.session, route: undefined } } : {}),
    ours,
    ...(unflagged ? { oursWithoutFlags: { cpuMs: () => unflagged.bot.proc.cpuMs(), session: unflagged.session, route: WALK_ROUTE } } : {}),
    ...(insightsOff ? { oursInsightsOff: { cpuMs: () => insightsOff.bot.proc.cpuMs(), session: insightsOff.session, route: WALK_ROUTE } } : {}),
  };
  const walked = await alternatingWalks(world.discord, sides, WALK_ROUNDS, members, rate);
  const walk: { ours: WalkResult; bare: WalkResult | undefined; oursWithoutFlags?: WalkResult; withoutFlags?: readonly string[]; oursInsightsOff?: WalkResult } = {
    ours: walked.ours!,
    bare: walked.bare,
    ...(walked.oursWithoutFlags ? { oursWithoutFlags: walked.oursWithoutFlags, withoutFlags: START_FLAGS } : {}),
    ...(walked.oursInsightsOff ? { oursInsightsOff: walked.oursInsightsOff } : {}),
  };
  if (runningBare) {
    runningBare.result.walk = walked.bare;
    await stopBare(runningBare);
  }
  await unflagged?.bot.proc.stop();
  await insightsOff?.bot.proc.stop();
  await probe(world, bot, 'bot: after first steps');
  // Repeated starts, `npm start` among them, are the start-up phase's (start-up.ts): this is one start.
  const startup = {
    startToReadyMs: round(bot.startToReadyMs, 1),
    startToFirstAnswerMs: round(bot.startToFirstAnswerMs ?? Number.NaN, 1),
    firstAnswerCallbackType: bot.firstAnswerCallbackType,
    measuredAs: 'spawn of `node dist/bundle/main.js` (what npm start runs) → the local Discord answered IDENTIFY with READY and every GUILD_CREATE; first answer: → the bot\'s first callback to a /shop dispatched at that moment (cold cache: a defer)',
    bareStartToReadyMs: bare?.startToReadyMs,
  };
  const firstStepReport = {
    ours: { paced: oursPaced, burst: oursBurst },
    store: storeStats(world.store, storeAtStart),
    ...(bare
      ? {
          ratio: {
            paced: {
              median: ratio(oursPaced.steps.settledMs.median, bare.paced.steps.settledMs.median),
              p99: ratio(oursPaced.steps.settledMs.p99, bare.paced.steps.settledMs.p99),
            },
            burst: {
              median: ratio(oursBurst.steps.settledMs.median, bare.burst.steps.settledMs.median),
              p99: ratio(oursBurst.steps.settledMs.p99, bare.burst.steps.settledMs.p99),
            },
          },
        }
      : {}),
  };
  return { bot, storeAtStart, walk, startup, firstStep: firstStepReport };
}
