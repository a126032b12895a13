/**
 * What the scale-out phase runs with: its fixed figures (the Redis database, the p99 goal), the walk's
 * interaction kinds, the setups and their titles, and the options read from the environment.
 */

/** Away from database 0 (a developer's) and 14/15 (the tests'). */
export const BENCH_DB = 13;
export const P99_GOAL_MS = 100;

/** One walk through the shop, as in the journeys of the other phases, up to Add to cart. */
export const SCALE_KINDS = ['shop', 'server', 'category', 'product', 'variant', 'quantity', 'add'] as const;
export type Kind = (typeof SCALE_KINDS)[number];

export interface ScaleOutOptions {
  /** Arrival rates of the ramp, interactions per second overall. */
  rates: number[];
  /** Seconds per ramp step. */
  stepSeconds: number;
  /** Guilds, half on each shard. */
  guilds: number;
  /** Rate of the one-kind-at-a-time Redis accounting steps. */
  kindRate: number;
  /** Members in each accounting step. */
  kindMembers: number;
  /** A step whose p99 first callback is above this ends the ramp (the higher rates would only be worse). */
  abandonAboveMs: number;
  logLevel: string;
  /** node flags of `npm start`. */
  startFlags: string[];
  redisUrl: string;
  /** Which setups to run (default all three). */
  setups: SetupName[];
}

export type SetupName = 'sqlite-1p' | 'redis-1p' | 'redis-2p';
export const SETUP_TITLES: Record<SetupName, string> = {
  'sqlite-1p': 'one process, SQLite (SHARDS=auto: both shards)',
  'redis-1p': 'one process, Redis (SHARDS=auto: both shards)',
  'redis-2p': 'two processes, Redis (SHARDS=0 | SHARDS=1, SHARD_COUNT=2)',
};

export function scaleOutOptionsFromEnv(logLevel: string, startFlags: string[]): ScaleOutOptions {
  const list = (name: string, fallback: string) => (process.env[name]?.trim() || fallback).split(',').map((part) => part.trim()).filter(Boolean);
  const number = (name: string, fallback: number) => {
    const value = Number(process.env[name]);
    return process.env[name] !== undefined && process.env[name] !== '' && Number.isFinite(value) ? value : fallback;
  };
  return {
    rates: list('BENCH_SCALE_RATES', '50,100,200,400,800,1200,1600').map(Number).filter((rate) => rate > 0),
    stepSeconds: number('BENCH_SCALE_STEP_S', 4),
    guilds: number('BENCH_SCALE_GUILDS', 8),
    kindRate: number('BENCH_SCALE_KIND_RATE', 50),
    kindMembers: number('BENCH_SCALE_KIND_MEMBERS', 70),
    abandonAboveMs: number('BENCH_SCALE_ABANDON_MS', 1000),
    logLevel,
    startFlags,
    redisUrl: process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379',
    setups: list('BENCH_SCALE_SETUPS', 'sqlite-1p,redis-1p,redis-2p') as SetupName[],
  };
}
