/**
 * Redis as the scale-out phase reads it: the bench database's URL and client, INFO commandstats and
 * their deltas, a prefix's keys counted or deleted, and the commands sent while something runs (MONITOR).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { deleteKeysMatching, scanKeys } from '../../src/coordination/redis-keys.js';
import { BENCH_DB } from './options.js';

export function redisStorageUrl(base: string, prefix: string): string {
  const url = new URL(base);
  url.pathname = `/${BENCH_DB}`;
  url.searchParams.set('prefix', prefix);
  return url.toString();
}

export function redisClient(base: string): Redis {
  const url = new URL(base);
  url.pathname = `/${BENCH_DB}`;
  url.search = '';
  return new Redis(url.toString(), { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
}

export async function commandStats(redis: Redis): Promise<Map<string, number>> {
  const text = await redis.info('commandstats');
  const stats = new Map<string, number>();
  for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) stats.set(match[1]!, Number(match[2]));
  return stats;
}

/** Commands executed between two readings; the bench's own INFO calls left out. */
export function statsDelta(before: Map<string, number>, after: Map<string, number>): { total: number; byCommand: Record<string, number> } {
  const byCommand: Record<string, number> = {};
  let total = 0;
  for (const [name, calls] of after) {
    if (name === 'info') continue;
    const delta = calls - (before.get(name) ?? 0);
    if (delta > 0) {
      byCommand[name] = delta;
      total += delta;
    }
  }
  return { total, byCommand };
}

export function deletePrefix(redis: Redis, prefix: string): Promise<number> {
  return deleteKeysMatching(redis, `${prefix}*`);
}

export async function countPrefix(redis: Redis, prefix: string): Promise<number> {
  let count = 0;
  for await (const keys of scanKeys(redis, `${prefix}*`)) count += keys.length;
  return count;
}

/** Commands the bots sent to the bench database while `during` runs (MONITOR), split into sent and run inside Lua. */
export async function monitored<T>(base: string, during: () => Promise<T>): Promise<{ value: T; sent: Record<string, number>; insideScripts: number; sentTotal: number }> {
  const client = redisClient(base);
  const monitor = await client.monitor();
  const sent: Record<string, number> = {};
  let sentTotal = 0;
  let insideScripts = 0;
  monitor.on('monitor', (_time: string, args: string[], source: string, database: string) => {
    if (database !== String(BENCH_DB)) return;
    if (source === 'lua') {
      insideScripts += 1;
      return;
    }
    const name = String(args[0] ?? '?').toLowerCase();
    // The bench's own INFO commandstats readings and its clients' connection handshakes.
    if (name === 'info' || name === 'monitor' || name === 'select' || name === 'client') return;
    sent[name] = (sent[name] ?? 0) + 1;
    sentTotal += 1;
  });
  try {
    const value = await during();
    // MONITOR lines trail the commands by a little.
    await sleep(100);
    return { value, sent, insideScripts, sentTotal };
  } finally {
    monitor.disconnect();
    client.disconnect();
  }
}

