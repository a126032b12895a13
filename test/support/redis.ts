import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, it } from 'vitest';

/**
 * Tests that need a real Redis: REDIS_URL, or redis://127.0.0.1:6379. They use database 15 and a
 * key prefix of their own, and delete their keys after. Without a reachable Redis they are skipped with
 * one line saying how to run them; under CI=true they fail instead, so CI never passes by skipping.
 */

/** Where the Redis tests connect. */
export function redisUrl(): string {
  return process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
}

/** The database tests use, away from anything a developer keeps in database 0. */
export const TEST_REDIS_DB = 15;

/** The URL without its password, for messages. */
function shownUrl(): string {
  try {
    const url = new URL(redisUrl());
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(REDIS_URL is not a URL)';
  }
}

/** A connection to the test database; the caller quits it. Fails fast rather than retrying forever. */
export function connectTestRedis(): Redis {
  return new Redis(redisUrl(), { db: TEST_REDIS_DB, maxRetriesPerRequest: 1, connectTimeout: 2_000, lazyConnect: true });
}

/** A fresh key prefix, so parallel runs never see each other's keys. */
export function testKeyPrefix(name: string): string {
  return `test-${name}-${randomBytes(4).toString('hex')}:`;
}

/** Deletes every key under the prefix. */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
}

async function probe(): Promise<string | undefined> {
  const redis = new Redis(redisUrl(), { db: TEST_REDIS_DB, lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // The 'error' event says why (ECONNREFUSED …); the rejected connect() only says the connection closed.
  let cause: string | undefined;
  redis.on('error', (error: Error) => (cause ??= error.message));
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    return cause ?? (error as Error).message;
  } finally {
    redis.disconnect();
  }
}

let reachability: Promise<string | undefined> | undefined;

/** Undefined when Redis answers PING, else why not. Probed once per test file. */
export function redisProblem(): Promise<string | undefined> {
  reachability ??= probe();
  return reachability;
}

/**
 * `describe` that runs only with a reachable Redis (see above). Call it with top-level await:
 *   await describeWithRedis('the identify throttler', () => { ... });
 */
export async function describeWithRedis(name: string, fn: () => void): Promise<void> {
  const problem = await redisProblem();
  if (problem === undefined) {
    describe(name, fn);
    return;
  }
  const howTo = `start redis-server on 127.0.0.1:6379 or set REDIS_URL`;
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs a reachable Redis', () => {
        throw new Error(`Redis is not reachable at ${shownUrl()} (${problem}); under CI=true Redis tests must run: ${howTo}`);
      });
    });
    return;
  }
  console.warn(`[skipped] "${name}" needs Redis, not reachable at ${shownUrl()} (${problem}): ${howTo} to run it`);
  describe.skip(name, fn);
}
