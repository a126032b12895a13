/**
 * The walk: K members, paced, go /shop → a server → a category → a product → Next page, as members
 * browsing a big shop do. Run against the bot and against the bare discord.js bot (which answers
 * every step at once with a menu of the same size), so the difference is what the bot itself costs.
 */
import type { FakeDiscord } from '../test/fakes/discord/fake-discord.js';
import { optionLabels } from '../test/support/ui.js';
import { BenchMember, pacer, Recorder, type Sample } from './members.js';
import { round, summarize, type Summary } from './stats.js';

export interface WalkRoute {
  server: string;
  category: string;
  product: string;
}

export interface WalkResult {
  members: number;
  interactions: number;
  settledMs: Summary;
  /** Dispatch → the bot's first callback: the crowd's p99 is held against the bare bot's (targets.ts). */
  firstAnswerMs: Summary;
  botCpuMsPerInteraction?: number;
  /** With several rounds (alternatingWalks): how many, and each round's CPU per interaction. */
  rounds?: number;
  botCpuMsPerRound?: number[];
  failures: string[];
}

/** One side of the walk: the bot process that answers (its gateway session) and how its CPU time is read. */
export interface WalkSide {
  cpuMs: () => number | undefined;
  /** The gateway session that receives the members' interactions; default: the newest (the bot started last). */
  session?: string;
  /** Labels to pick; undefined picks the first option at each step (the bare bot's menus). */
  route: WalkRoute | undefined;
}

export interface WalkRound {
  samples: Sample[];
  cpuMs?: number;
  failures: string[];
}

/** `route` names the labels to pick; undefined picks the first option at each step (the bare bot's menus). */
export async function walkPhase(
  discord: FakeDiscord,
  cpuMs: () => number | undefined,
  members: number,
  rate: number,
  label: string,
  route: WalkRoute | undefined,
  session?: string,
): Promise<WalkResult> {
  return summarizeWalk(members, [await walkRound(discord, { cpuMs, route, ...(session !== undefined ? { session } : {}) }, members, rate, label)]);
}

/**
 * The walk gate's measurement: the bots are all up, each warmed by the same walks, and
 * they take turns, `rounds` rounds each (bare, ours, ..., bare, ours, ...), so all are measured on
 * the same machine in the same minute: on a shared machine the CPU time of one round differs from
 * the next by a fifth, and a single round of each, minutes apart, made the ratio swing from 0.99 to 1.42.
 */
export async function alternatingWalks<Name extends string>(
  discord: FakeDiscord,
  sides: Record<Name, WalkSide>,
  rounds: number,
  members: number,
  rate: number,
): Promise<Record<Name, WalkResult>> {
  const names = Object.keys(sides) as Name[];
  const done = new Map<Name, WalkRound[]>(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of names) done.get(name)!.push(await walkRound(discord, sides[name], members, rate, `${name}-${round}`));
  }
  return Object.fromEntries(names.map((name) => [name, summarizeWalk(members, done.get(name)!)])) as Record<Name, WalkResult>;
}

/** One round of the walk by `members` new members, paced at `rate` interactions a second overall (0: all at once), pressing Next `nexts` times. */
export async function walkRound(discord: FakeDiscord, side: WalkSide, members: number, rate: number, label: string, nexts = 1): Promise<WalkRound> {
  const recorder = new Recorder();
  const failures: string[] = [];
  const walkers = Array.from({ length: members }, (_unused, index) => new BenchMember(discord, recorder, `${label}-walk-${index}`, undefined, side.session));
  const route = side.route;
  const cpuBefore = side.cpuMs();
  const start = performance.now() + 20;
  await Promise.all(
    walkers.map(async (member, index) => {
      const pace = pacer(start, index, members, rate);
      const pick = (name: string | undefined) => name ?? optionLabels(member.message!)[0]!;
      try {
        await pace();
        await member.slash('shop', 'shop');
        await pace();
        await member.choose('server', pick(route?.server));
        await pace();
        await member.choose('category', pick(route?.category));
        await pace();
        await member.choose('product', pick(route?.product));
        for (let page = 0; page < nexts; page++) {
          await pace();
          await member.press('next', 'Next');
        }
      } catch (error) {
        failures.push(`${member.user.username}: ${(error as Error).message}`);
      }
    }),
  );
  // Let the bot finish what follows its answers before reading its CPU time.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const cpuAfter = side.cpuMs();
  return { samples: recorder.samples, ...(cpuBefore !== undefined && cpuAfter !== undefined ? { cpuMs: cpuAfter - cpuBefore } : {}), failures };
}

/** The rounds together: every sample pooled, CPU time over every interaction. */
export function summarizeWalk(members: number, rounds: readonly WalkRound[]): WalkResult {
  const samples = rounds.flatMap((round) => round.samples);
  const cpu = rounds.every((round) => round.cpuMs !== undefined) ? rounds.reduce((sum, round) => sum + round.cpuMs!, 0) : undefined;
  return {
    members,
    interactions: samples.length,
    settledMs: summarize(samples.map((sample) => sample.settled)),
    firstAnswerMs: summarize(samples.map((sample) => sample.ack)),
    ...(cpu !== undefined ? { botCpuMsPerInteraction: round(cpu / Math.max(1, samples.length), 3) } : {}),
    ...(rounds.length > 1 ? { rounds: rounds.length, botCpuMsPerRound: rounds.map((each) => (each.cpuMs === undefined ? Number.NaN : round(each.cpuMs / Math.max(1, each.samples.length), 3))) } : {}),
    failures: rounds.flatMap((round) => round.failures).slice(0, 5),
  };
}
