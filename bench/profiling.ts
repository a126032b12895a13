/**
 * BENCH_PROFILE=1: profiles of the bot during a phase (the crowd walking the menus, the checkout crowd),
 * taken through the inspector (inspector.ts): a CPU profile and a sampling heap profile that counts
 * every allocation, garbage included (objects collected by minor and major GCs), written to
 * bench/results/profiles/ and summed up as the top functions by self time and by allocation.
 * Profiling costs the bot CPU: the figures of a profiled phase are not the bench's measured ones.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { topAllocation, topSelfTime, type CpuProfile, type HeapNode, type Share } from './cpu-profile.js';
import type { Inspector } from './inspector.js';
import { round } from './stats.js';

/** Bytes between two allocation samples: small enough for a step of a few hundred interactions. */
const HEAP_SAMPLING_BYTES = 16 * 1024;
const TOP = 15;

export interface PhaseProfile {
  label: string;
  cpuProfile: string;
  heapProfile: string;
  cpuSampledMs: number;
  allocatedBytes: number;
  topSelfTime: Share[];
  topAllocation: Share[];
}

export async function startHeapSampling(inspector: Inspector): Promise<void> {
  await inspector.send('HeapProfiler.enable');
  await inspector.send('HeapProfiler.startSampling', { samplingInterval: HEAP_SAMPLING_BYTES, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
}

/** The allocation profile since startHeapSampling: its tree's head. */
export async function stopHeapSampling(inspector: Inspector): Promise<HeapNode> {
  const { profile } = await inspector.send<{ profile: { head: HeapNode } }>('HeapProfiler.stopSampling');
  return profile.head;
}

export async function startProfiles(inspector: Inspector): Promise<void> {
  await inspector.send('Profiler.enable');
  await inspector.send('Profiler.setSamplingInterval', { interval: 200 });
  await inspector.send('Profiler.start');
  await startHeapSampling(inspector);
}

export async function stopProfiles(inspector: Inspector, label: string, dir: string): Promise<PhaseProfile> {
  const head = await stopHeapSampling(inspector);
  const { profile } = await inspector.send<{ profile: CpuProfile }>('Profiler.stop');
  mkdirSync(dir, { recursive: true });
  const stamp = `${label}-${Date.now()}`;
  const cpuProfile = join(dir, `${stamp}.cpuprofile`);
  const heapProfile = join(dir, `${stamp}.heapprofile`);
  writeFileSync(cpuProfile, JSON.stringify(profile));
  writeFileSync(heapProfile, JSON.stringify({ head }));
  const cpu = topSelfTime(profile, TOP);
  const allocation = topAllocation(head, TOP);
  return { label, cpuProfile, heapProfile, cpuSampledMs: round(cpu.totalUs / 1000, 1), allocatedBytes: allocation.totalBytes, topSelfTime: cpu.top, topAllocation: allocation.top };
}

export function printPhaseProfile(result: PhaseProfile, log: (text: string) => void): void {
  log(`\n=== profile: ${result.label} (${result.cpuSampledMs} ms of bot CPU sampled, idle left out, ${round(result.allocatedBytes / 1024 / 1024, 1)} MB allocated) ===`);
  log(`files: ${result.cpuProfile} (open in Chrome DevTools, or node dist-bench/bench/profile-summary.js <file>), ${result.heapProfile}`);
  log('top functions by self time:');
  for (const share of result.topSelfTime) log(`  ${share.percent.toFixed(1).padStart(5)}%  ${round(share.amount / 1000, 1).toString().padStart(7)} ms  ${share.name}`);
  log('top functions by allocation (garbage included):');
  for (const share of result.topAllocation) log(`  ${share.percent.toFixed(1).padStart(5)}%  ${round(share.amount / 1024, 0).toString().padStart(7)} KB  ${share.name}`);
}
