import type { Logger } from '../logger.js';
import type { Coordination } from './coordination.js';
import { inProcessCoordination } from './in-process.js';
import { isRedisUrl, parseRedisUrl } from './redis-url.js';

export interface CoordinationOptions {
  logger: Logger;
  lockTimeoutMs?: number;
  /**
   * `process`: records are locked in this process only, even on Redis. Only tests use it, to show
   * that two processes on one Redis need the shared locks (they lose updates without them).
   */
  lockScope?: 'shared' | 'process';
}

/** SQLite: one process, nothing to agree on. Redis: every process on it agrees through it. */
export async function openCoordination(storageUrl: string, options: CoordinationOptions): Promise<Coordination> {
  if (!isRedisUrl(storageUrl)) return inProcessCoordination();
  const target = parseRedisUrl(storageUrl);
  if ('problem' in target) throw new Error(`STORAGE_URL ${target.problem}`);
  // Loaded only on Redis: ioredis and redis-semaphore would add to every start on SQLite.
  const { redisCoordination } = await import('./redis-coordination.js');
  const shared = await redisCoordination(target, options);
  if (options.lockScope !== 'process') return shared;
  return { ...shared, locks: inProcessCoordination().locks };
}
