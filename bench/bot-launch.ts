/* What the bot processes and the world (world.ts) share: how bots are started and what a started one is. */
import type { Watched } from './process.js';

export const TOKEN = 'bench-bot-token.NOT-A-SECRET.0000';
export const LICENSE_KEY = 'bench-license-key';

/** How bot processes are started (BENCH_LOG_LEVEL, BENCH_CPU_PROF, BENCH_PROBE, BENCH_NODE_ARGS). */
export interface BotLaunch {
  logLevel: string;
  cpuProfile: boolean;
  /** BENCH_PROFILE=1: the bot listens for the DevTools protocol (inspector.ts), to be profiled phase by phase. */
  inspect?: boolean;
  /** Preload bench/probe.js, so that probe() can read the bot's memory and event-loop delay. */
  probe: boolean;
  /** Extra node flags for investigations, e.g. --trace-gc. */
  nodeArgs: string[];
  /** BENCH_HEAP=1: where each probe also writes a heap snapshot of the bot (probe implied). */
  heapDir?: string | undefined;
}

export interface RunningBot {
  proc: Watched;
  /** Spawn → the local Discord saw IDENTIFY and sent READY and every GUILD_CREATE. */
  startToReadyMs: number;
  /** Spawn → the bot's first callback to a /shop dispatched the moment it was ready. */
  startToFirstAnswerMs?: number;
  firstAnswerCallbackType?: number;
}
