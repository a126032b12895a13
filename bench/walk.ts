/**
 * The walk: K members, paced, go /shop → a server → a category → a product → Next page, as members
 * browsing a big shop do. Run against the bot and against the bare discord.js bot (which answers
 * every step at once with a menu of the same size), so the difference is what the bot itself costs.
 */
import type { FakeDiscord } from '../test/fakes/discord/fake-discord.js';
import { optionLabels } from '../test/support/ui.js';
import { BenchMember, pacer, Recorder } from './members.js';
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
): Promise<WalkResult> {
  const recorder = new Recorder();
  const failures: string[] = [];
  const walkers = Array.from({ length: members }, (_unused, index) => new BenchMember(discord, recorder, `${label}-walk-${index}`));
  const cpuBefore = cpuMs();
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
        await pace();
        await member.press('next', 'Next');
      } catch (error) {
        failures.push(`${member.user.username}: ${(error as Error).message}`);
      }
    }),
  );
  // Let the bot finish what follows its answers before reading its CPU time.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const cpuAfter = cpuMs();
  const samples = recorder.samples;
  return {
    members,
    interactions: samples.length,
    settledMs: summarize(samples.map((sample) => sample.settled)),
    firstAnswerMs: summarize(samples.map((sample) => sample.ack)),
    ...(cpuBefore !== undefined && cpuAfter !== undefined ? { botCpuMsPerInteraction: round((cpuAfter - cpuBefore) / Math.max(1, samples.length), 3) } : {}),
    failures: failures.slice(0, 5),
  };
}
