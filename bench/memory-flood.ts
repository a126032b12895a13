/**
 * The memory flood: 4 000 distinct members send /shop or /cart, 800 per second overall, to a freshly
 * started process, whose peak RSS (VmHWM) is then read: what a crowd after an announcement costs in
 * memory, with the start command the README gives.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeDiscord } from '../test/fakes/discord/fake-discord.js';
import { START_FLAGS, startProcess } from './bot-process.js';
import { BenchMember, pacer, Recorder } from './members.js';
import { round, summarize, type Summary } from './stats.js';
import type { World } from './world.js';

export interface MemoryFloodResult {
  members: number;
  rate: number;
  achievedRate: number;
  settledMs: Summary;
  peakRssBytes?: number;
  failures: number;
}

async function memoryFlood(
  discord: FakeDiscord,
  memory: () => { hwm: number } | undefined,
  members: number,
  rate: number,
  label: string,
): Promise<MemoryFloodResult> {
  const recorder = new Recorder();
  const crowd = Array.from({ length: members }, (_unused, index) => new BenchMember(discord, recorder, `${label}-flood-${index}`));
  const start = performance.now() + 20;
  let failures = 0;
  await Promise.all(
    crowd.map(async (member, index) => {
      await pacer(start, index, members, rate)();
      try {
        await (index % 2 === 0 ? member.slash('shop', 'shop') : member.slash('cart', 'cart'));
      } catch {
        failures += 1;
      }
    }),
  );
  const samples = recorder.samples;
  const first = Math.min(...samples.map((sample) => sample.at));
  const last = Math.max(...samples.map((sample) => sample.at + sample.settled));
  const peak = memory()?.hwm;
  return {
    members,
    rate,
    achievedRate: round((samples.length / Math.max(1, last - first)) * 1000, 1),
    settledMs: summarize(samples.map((sample) => sample.settled)),
    ...(peak !== undefined ? { peakRssBytes: peak } : {}),
    failures,
  };
}

/** The bare bot first (when it is measured at all), then the bot, each freshly started and stopped afterwards. */
export async function memoryFloodPhase(world: World, members: number, rate: number, withBare: boolean) {
  const flood: { ours?: MemoryFloodResult; bare?: MemoryFloodResult; startFlags: string[] } = { startFlags: START_FLAGS };
  if (withBare) {
    const bareFresh = await startProcess(world, 'bare', join(world.work, 'unused.sqlite'), world.work);
    flood.bare = await memoryFlood(world.discord, () => bareFresh.proc.memory(), members, rate, 'bare');
    await bareFresh.proc.stop();
  }
  const floodDir = join(world.work, 'flood');
  mkdirSync(floodDir, { recursive: true });
  const botFresh = await startProcess(world, 'bot', join(floodDir, 'store.sqlite'), floodDir);
  flood.ours = await memoryFlood(world.discord, () => botFresh.proc.memory(), members, rate, 'ours');
  await botFresh.proc.stop();
  return flood;
}
