/**
 * The burst (BENCH_ONLY=burst; BENCH_SKIP=burst leaves it out of the whole run): 200 members walking
 * at once, unpaced: /shop → a server → a category → a product → Next six times, 2 000 interactions,
 * each member's next step sent the moment the previous one is answered (a crowd after an announcement).
 * The bot's CPU per interaction against a bare discord.js bot's, with `npm start`'s node flags, without
 * any, and with each flag alone; beside it the paced walk (BENCH_RATE) of the same bots, since a flag
 * stays in `npm start` only if neither costs CPU (more than 1.05×). The bots are all up and warmed by the
 * same walks, then take turns, BENCH_BURST_ROUNDS rounds each (the machine's load moves minute to minute).
 *   BENCH_BURST_MEMBERS=200  BENCH_BURST_NEXTS=6  BENCH_BURST_ROUNDS=3
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { START_FLAGS, startProcess, type RunningBot } from './bot-process.js';
import { WALK_ROUTE } from './first-step.js';
import { ratio, round } from './stats.js';
import { summarizeWalk, walkRound, type WalkRound, type WalkSide } from './walk.js';
import type { World } from './world.js';

const envNumber = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);

interface Side extends WalkSide {
  name: string;
  flags: readonly string[] | undefined;
  bot: RunningBot;
}

/** The newest live gateway session: that of the bot process that has just become ready. */
function newestSession(world: World): string {
  const session = world.discord.gatewaySessions().filter((each) => each.live).at(-1);
  if (!session) throw new Error('no live gateway session after a bot became ready');
  return session.id;
}

export async function burstPhase(world: World, rate: number, log: (text: string) => void) {
  const members = envNumber('BENCH_BURST_MEMBERS', 200);
  const nexts = envNumber('BENCH_BURST_NEXTS', 6);
  const rounds = envNumber('BENCH_BURST_ROUNDS', 3);
  const variants: { name: string; flags: readonly string[] }[] = [
    { name: 'shipped', flags: START_FLAGS },
    { name: 'noFlags', flags: [] },
    ...(START_FLAGS.length > 1 ? START_FLAGS.map((flag) => ({ name: `only ${flag}`, flags: [flag] })) : []),
  ];
  const sides: Side[] = [];
  try {
    const bare = await startProcess(world, 'bare', join(world.work, 'unused.sqlite'), world.work);
    sides.push({ name: 'bare', flags: undefined, bot: bare, session: newestSession(world), route: undefined, cpuMs: () => bare.proc.cpuMs() });
    for (const variant of variants) {
      const dir = join(world.work, `burst-${sides.length}`);
      mkdirSync(dir, { recursive: true });
      const bot = await startProcess(world, 'bot', join(dir, 'store.sqlite'), dir, {}, variant.flags);
      sides.push({ name: variant.name, flags: variant.flags, bot, session: newestSession(world), route: WALK_ROUTE, cpuMs: () => bot.proc.cpuMs() });
    }
    // The same warm-up for every bot: a paced walk of 50, then a burst (caches filled, code optimized).
    for (const side of sides) {
      await walkRound(world.discord, side, Math.min(members, 50), rate, `${side.name}-warm-paced`);
      await walkRound(world.discord, side, members, 0, `${side.name}-warm-burst`, nexts);
    }
    const bursts = new Map<string, WalkRound[]>(sides.map((side) => [side.name, []]));
    const paced = new Map<string, WalkRound[]>(sides.map((side) => [side.name, []]));
    for (let turn = 0; turn < rounds; turn++) {
      for (const side of sides) {
        bursts.get(side.name)!.push(await walkRound(world.discord, side, members, 0, `${side.name}-burst-${turn}`, nexts));
        paced.get(side.name)!.push(await walkRound(world.discord, side, members, rate, `${side.name}-paced-${turn}`));
      }
    }
    const result = Object.fromEntries(
      sides.map((side) => {
        const burst = summarizeWalk(members, bursts.get(side.name)!);
        const seconds = bursts.get(side.name)!.map((each) => round((Math.max(...each.samples.map((sample) => sample.at + sample.settled)) - Math.min(...each.samples.map((sample) => sample.at))) / 1000, 2));
        return [side.name, { flags: side.flags, burst: { ...burst, secondsPerRound: seconds }, paced: summarizeWalk(members, paced.get(side.name)!) }];
      }),
    );
    const cpu = (name: string, kind: 'burst' | 'paced') => result[name]?.[kind].botCpuMsPerInteraction ?? Number.NaN;
    const ratios = Object.fromEntries(
      variants.map((variant) => [
        variant.name,
        {
          burstVsBare: ratio(cpu(variant.name, 'burst'), cpu('bare', 'burst')),
          pacedVsBare: ratio(cpu(variant.name, 'paced'), cpu('bare', 'paced')),
          // Above 1: the flags of this variant cost CPU against none.
          burstVsNoFlags: ratio(cpu(variant.name, 'burst'), cpu('noFlags', 'burst')),
          pacedVsNoFlags: ratio(cpu(variant.name, 'paced'), cpu('noFlags', 'paced')),
        },
      ]),
    );
    log(`  burst: ${members} members at once, ${members * (4 + nexts)} interactions a round, ${rounds} rounds each, turn about; paced walk at ${rate}/s beside it`);
    for (const side of sides) {
      const each = result[side.name]!;
      const vs = ratios[side.name];
      log(
        `  ${side.name.padEnd(34)} burst ${each.burst.botCpuMsPerInteraction} ms CPU/interaction (${each.burst.botCpuMsPerRound?.join(', ')}; ${each.burst.secondsPerRound.join(', ')} s; p99 ${round(each.burst.settledMs.p99, 0)} ms), paced ${each.paced.botCpuMsPerInteraction}` +
          (vs ? `; vs bare ${vs.burstVsBare}× burst, ${vs.pacedVsBare}× paced; vs no flags ${vs.burstVsNoFlags}×, ${vs.pacedVsNoFlags}×` : ''),
      );
    }
    const failures = sides.flatMap((side) => [...result[side.name]!.burst.failures, ...result[side.name]!.paced.failures]);
    if (failures.length > 0) log(`  failures: ${failures.slice(0, 3).join(' | ')}`);
    return { members, nexts, rounds, rate, sides: result, ratios };
  } finally {
    for (const side of sides) await side.bot.proc.stop().catch(() => undefined);
    world.running.splice(0, world.running.length, ...world.running.filter((bot) => !sides.some((side) => side.bot === bot)));
  }
}
