/**
 * Allocation per interaction for each step of the walk (BENCH_PROFILE=1): the walk's members take one
 * step all together, paced at the walk's rate, with the bot's sampling heap profiler counting every
 * byte allocated (garbage included), then the next step. Bytes ÷ interactions of that step.
 */
import type { FakeDiscord } from '../test/fakes/discord/fake-discord.js';
import type { Inspector } from './inspector.js';
import { BenchMember, pacer, Recorder } from './members.js';
import { startHeapSampling, stopHeapSampling } from './profiling.js';
import { topAllocation } from './cpu-profile.js';
import type { WalkRoute } from './walk.js';

export interface StepAllocation {
  step: string;
  interactions: number;
  bytesPerInteraction: number;
}

export async function allocationPerStep(discord: FakeDiscord, inspector: Inspector, members: number, rate: number, route: WalkRoute): Promise<StepAllocation[]> {
  const recorder = new Recorder();
  const walkers = Array.from({ length: members }, (_unused, index) => new BenchMember(discord, recorder, `alloc-walk-${index}`));
  const steps: [string, (member: BenchMember) => Promise<unknown>][] = [
    ['shop', (member) => member.slash('shop', 'shop')],
    ['server', (member) => member.choose('server', route.server)],
    ['category', (member) => member.choose('category', route.category)],
    ['product', (member) => member.choose('product', route.product)],
    ['next', (member) => member.press('next', 'Next')],
  ];
  const result: StepAllocation[] = [];
  for (const [step, act] of steps) {
    const before = recorder.samples.length;
    await startHeapSampling(inspector);
    const start = performance.now() + 20;
    await Promise.all(
      walkers.map(async (member, index) => {
        await pacer(start, index, members, rate)();
        await act(member).catch(() => undefined); // a failure shows as fewer interactions
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100)); // what follows the answers
    const { totalBytes } = topAllocation(await stopHeapSampling(inspector), 0);
    const interactions = recorder.samples.length - before;
    result.push({ step, interactions, bytesPerInteraction: Math.round(totalBytes / Math.max(1, interactions)) });
  }
  return result;
}
