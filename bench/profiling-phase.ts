/**
 * BENCH_PROFILE=1 (run.ts): after the journeys, the crowd walks the menus again under the profilers,
 * then once more step by step for the allocation per interaction of each step; the checkout crowd
 * is profiled as it runs (its figures are then not measured ones: profiling costs the bot CPU).
 */
import { join } from 'node:path';
import { allocationPerStep, type StepAllocation } from './allocation-walk.js';
import { ROOT, type RunningBot } from './bot-process.js';
import { WALK_ROUTE } from './first-step.js';
import { connectInspector, type Inspector } from './inspector.js';
import { printPhaseProfile, startProfiles, stopProfiles, type PhaseProfile } from './profiling.js';
import { walkPhase } from './walk.js';
import type { World } from './world.js';

export const PROFILE_DIR = join(ROOT, 'bench/results/profiles');

export interface Profiling {
  inspector: Inspector;
  profiles: PhaseProfile[];
  allocationPerStep?: StepAllocation[];
}

export async function profileCrowd(world: World, bot: RunningBot, members: number, rate: number, log: (text: string) => void): Promise<Profiling> {
  const inspector = await connectInspector(bot.proc);
  await startProfiles(inspector);
  await walkPhase(world.discord, () => bot.proc.cpuMs(), members, rate, 'profiled', WALK_ROUTE);
  const crowd = await stopProfiles(inspector, 'crowd', PROFILE_DIR);
  printPhaseProfile(crowd, log);
  const steps = await allocationPerStep(world.discord, inspector, members, rate, WALK_ROUTE);
  log('\nallocation per interaction, each step of the walk (garbage included):');
  for (const step of steps) log(`  ${step.step.padEnd(9)} ${Math.round(step.bytesPerInteraction / 1024).toString().padStart(6)} KB (${step.bytesPerInteraction} bytes, ${step.interactions} interactions)`);
  return { inspector, profiles: [crowd], allocationPerStep: steps };
}

/** Runs `work` (the checkout crowd) under the profilers. */
export async function profiled<T>(profiling: Profiling, label: string, work: () => Promise<T>, log: (text: string) => void): Promise<T> {
  await startProfiles(profiling.inspector);
  const result = await work();
  const profile = await stopProfiles(profiling.inspector, label, PROFILE_DIR);
  printPhaseProfile(profile, log);
  profiling.profiles.push(profile);
  return result;
}
