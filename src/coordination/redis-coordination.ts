import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { PrefixedMutex as Mutex } from './prefixed-locks.js';
import type { Logger } from '../logger.js';
import { LockUnavailableError } from './coordination-error.js';
import type { Coordination, Locks, Topic } from './coordination.js';
import { KeyLock } from './key-lock.js';
import { connectRedis } from './redis-connection.js';
import type { RedisTarget } from './redis-url.js';

export interface RedisCoordinationOptions {
  logger: Logger;
  /**
   * How long a lock outlives a process that died holding it (SIGKILL, lost machine). A live holder
   * refreshes it, so work may take longer. Above the store's request timeout (8 s): a checkout holds
   * its cart's lock across the payment-link request.
   */
  lockTimeoutMs?: number;
}

export const DEFAULT_LOCK_TIMEOUT_MS = 12_000;

/**
 * Several bot processes on one Redis (docs/scaling-out.md). Locks are redis-semaphore mutexes
 * (token-checked release, auto-refresh); changes are told over Redis pub/sub.
 */
export async function redisCoordination(target: RedisTarget, options: RedisCoordinationOptions): Promise<Coordination> {
  const { logger } = options;
  const client = await connectRedis(target, logger, 'coordination');
  // A connection in subscriber mode can do nothing else, so pub/sub has its own.
  const subscriber = await connectRedis(target, logger, 'events').catch((error: unknown) => {
    client.disconnect();
    throw error;
  });
  const self = randomUUID();
  const key = (name: string): string => `${target.prefix}${name}`;
  const channel = (topic: Topic): string => key(`events:${topic}`);
  const listeners = new Map<string, ((message: string) => void)[]>();

  subscriber.on('message', (from: string, raw: string) => {
    let parsed: { from?: unknown; body?: unknown };
    try {
      parsed = JSON.parse(raw) as typeof parsed;
    } catch {
      return;
    }
    if (parsed.from === self || typeof parsed.body !== 'string') return;
    for (const listener of listeners.get(from) ?? []) {
      try {
        listener(parsed.body);
      } catch (error) {
        logger.error({ err: error, channel: from }, 'a change listener failed');
      }
    }
  });

  const lockTimeout = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const locks = new SharedLocks(client, key, logger, lockTimeout);

  return {
    shared: true,
    locks,
    async publish(topic, message) {
      await client.publish(channel(topic), JSON.stringify({ from: self, body: message })).catch((error: unknown) => {
        // The other processes' caches expire soon anyway (short in-process lifetimes).
        logger.warn({ topic, err: { message: (error as Error).message } }, 'could not tell other processes of a change');
      });
    },
    subscribe(topic, listener) {
      const name = channel(topic);
      const known = listeners.get(name);
      if (known) {
        known.push(listener);
        return;
      }
      listeners.set(name, [listener]);
      subscriber.subscribe(name).catch((error: unknown) => logger.error({ topic, err: error }, 'could not listen for changes'));
    },
    async runAlone(job, work) {
      const mutex = new Mutex(client, key(`job:${job}`), {
        lockTimeout: 60_000,
        acquireAttemptsLimit: 1,
        onLockLost: (error) => logger.warn({ job, err: { message: error.message } }, 'lost the lock of a job while running it'),
      });
      if (!(await mutex.tryAcquire())) return false;
      try {
        await work();
      } finally {
        await mutex.release().catch(() => undefined);
      }
      return true;
    },
    redis: { client, key },
    async close() {
      subscriber.disconnect();
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/**
 * A lock per record across processes. Waiters in this process queue in memory first (KeyLock), so
 * only one of them at a time polls Redis for the shared lock. If Redis cannot grant it (down, or
 * the holder died and its lock has not expired within the wait), the work does not run: the member
 * is told storage is unavailable and nothing changed.
 */
class SharedLocks implements Locks {
  readonly #local = new KeyLock();

  constructor(
    private readonly client: Redis,
    private readonly key: (name: string) => string,
    private readonly logger: Logger,
    private readonly lockTimeoutMs: number,
  ) {}

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.#local.run(key, async () => {
      const mutex = new Mutex(this.client, this.key(`lock:${key}`), {
        lockTimeout: this.lockTimeoutMs,
        // Long enough to outlast the lock of a holder that died, once.
        acquireTimeout: this.lockTimeoutMs + 5_000,
        retryInterval: 20,
        onLockLost: (error) =>
          this.logger.error({ lock: key, err: { message: error.message } }, 'lost a record lock while holding it (Redis unreachable or too slow); its write may race another'),
      });
      try {
        await mutex.acquire();
      } catch (error) {
        throw new LockUnavailableError(key, error);
      }
      try {
        return await work();
      } finally {
        await mutex.release().catch(() => undefined);
      }
    });
  }
}
