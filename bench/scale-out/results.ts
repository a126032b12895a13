/**
 * The shape of what the scale-out phase measures (per ramp step, per interaction kind on Redis, per
 * setup, overall), and a setup's result before anything is measured.
 */
import type { Summary } from '../stats.js';
import { SETUP_TITLES, type Kind, type ScaleOutOptions, type SetupName } from './options.js';

export interface RampStep {
  targetRate: number;
  members: number;
  interactions: number;
  achievedRate: number;
  callbackTypes: Record<string, number>;
  firstCallbackMs: Summary;
  settledMs: Summary;
  /** p99 first callback per interaction kind. */
  firstCallbackP99ByKind: Record<string, number>;
  failures: number;
  firstFailures: string[];
  /** Error-level lines the bot processes logged during the step. */
  botErrors: number;
  /** Bot CPU (all processes) per interaction, ms; and per process. */
  botCpuMsPerInteraction?: number;
  botCpuMsByProcess?: number[];
  /** This process (local Discord, local store, members) per interaction, ms. */
  driverCpuMsPerInteraction: number;
  /** Share of the machine's cores busy in processes (user + nice + system) over the step: bots, driver, Redis, the rest, %. */
  machineBusyPct?: number;
  /** Share of the machine's cores used by neither the bots, the driver nor Redis: another load disturbing the step, %. */
  otherCpuPct?: number;
  /** Share of the machine's CPU time the hypervisor gave to others (/proc/stat steal), %. */
  cpuStealPct?: number;
  /** CPU of the Redis server (when local) per interaction, ms. */
  redisServerCpuMsPerInteraction?: number;
  /** INFO commandstats delta (every command Redis executed, those inside Lua scripts and MULTI included; server-wide), per interaction. */
  redisCommandsPerInteraction?: number;
  /** Commands the bots sent to the bench database (MONITOR), per interaction, and those run inside Lua scripts. */
  redisSentPerInteraction?: number;
  redisInsideScriptsPerInteraction?: number;
  redisSentByCommand?: Record<string, number>;
  redisTopCommands?: Record<string, number>;
  storeRequests: number;
}

export interface KindAccounting {
  kind: Kind;
  interactions: number;
  /** Commands the bots sent, per interaction (MONITOR; MULTI/EXEC wrappers are not shown by MONITOR). */
  sentPerInteraction: number;
  /** Commands run inside Lua scripts (redis-semaphore's release, the gate's scripts), per interaction. */
  insideScriptsPerInteraction: number;
  /** INFO commandstats delta per interaction, for comparison (includes script-internal and MULTI/EXEC). */
  commandstatsPerInteraction: number;
  /** Sent commands by name, per interaction. */
  sentByCommand: Record<string, number>;
  firstCallbackMs: Summary;
}

export interface SetupResult {
  name: SetupName;
  title: string;
  processes: { label: string; env: Record<string, string>; startToReadyMs: number; peakRssBytes?: number; rssAtEndBytes?: number; peakSampledRssBytes: number; logLevels: Record<string, number>; firstNotable: string[] }[];
  guildsByShard: Record<string, number>;
  members: number;
  warmup: { interactions: number; failures: number; durationMs: number };
  steps: RampStep[];
  /** Highest ramp rate whose p99 first callback is ≤ 100 ms with no failure, before the first step that missed it. */
  maxRateP99Within100ms: number | null;
  firstMissedStep?: { targetRate: number; reason: string };
  notRun: number[];
  store: {
    total: number;
    byRoute: Record<string, { requests: number; distinct: number }>;
    productsBrowsed: number;
    /** Variant listings per product browsed (1.0 = one store call per product over the whole run). */
    variantCallsPerProduct: number;
    /** All offer requests (servers, server, variants) per product browsed. */
    offerCallsPerProduct: number;
    duplicateOfferRequests: number;
  };
  redis?: {
    kinds: KindAccounting[];
    /** A journey's worth: the sum over the seven kinds, divided by 7 (per interaction of the ramp's mix). */
    mixSentPerInteraction: number;
    mixInsideScriptsPerInteraction: number;
    idle: { seconds: number; sentPerSecond: number; byCommand: Record<string, number> };
    keysAtEnd: number;
  };
  error?: string;
}

export interface ScaleOutResult {
  options: Omit<ScaleOutOptions, 'redisUrl'> & { redisDb: number };
  setups: SetupResult[];
  notes: string[];
}

export function emptySetup(name: SetupName): SetupResult {
  return {
    name,
    title: SETUP_TITLES[name],
    processes: [],
    guildsByShard: {},
    members: 0,
    warmup: { interactions: 0, failures: 0, durationMs: 0 },
    steps: [],
    maxRateP99Within100ms: null,
    notRun: [],
    store: { total: 0, byRoute: {}, productsBrowsed: 0, variantCallsPerProduct: Number.NaN, offerCallsPerProduct: Number.NaN, duplicateOfferRequests: 0 },
  };
}
