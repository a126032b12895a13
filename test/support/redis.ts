import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach } from 'vitest';
import type { Coordination } from '../../src/coordination/coordination.js';
import { openCoordination } from '../../src/coordination/open.js';
import { deleteKeysMatching } from '../../src/coordination/redis-keys.js';
import { createLogger } from '../../src/logger.js';

/**
 * The real Redis the Redis tests use: REDIS_URL, or the local one every developer machine and CI
 * runs. Tests use a database of their own (away from anything a developer keeps in database 0) and
 * a key prefix of their own, and delete what they wrote. Without a reachable Redis they are left out
 * with one line saying how to run them; under CI=true they fail instead, so CI never passes by skipping.
 */

/** The database of the bot-on-Redis tests (test/redis, buyers-on-redis). */
export const TEST_DB = 14;
/** The database of the identify throttler's tests, which use raw key prefixes of their own. */
export const TEST_REDIS_DB = 15;

export function redisUrl(): string {
  return process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
}

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

/** The line shown when the Redis tests cannot run (vitest.config.ts, test/redis/global-setup.ts). */
export function howToRunRedisTests(reason: string): string {
  return `Redis tests need Redis at ${shownUrl()} (REDIS_URL), which is not reachable (${reason}): start redis-server on 127.0.0.1:6379, or set REDIS_URL, and run npm test again.`;
}

/** Undefined when Redis answers PING, else why not. Gives up after a second. */
export async function redisUnreachable(url = redisUrl()): Promise<string | undefined> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  // The 'error' event says why (ECONNREFUSED …); the rejected connect() only says the connection closed.
  let cause: string | undefined;
  client.on('error', (error: Error) => (cause ??= error.message));
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return cause ?? (error as { code?: string }).code ?? (error as Error).message;
  } finally {
    client.disconnect();
  }
}

/** A STORAGE_URL of the test database with a fresh prefix, and a way to delete every key under it. */
export function testStorage(label: string): { url: string; prefix: string; cleanUp(): Promise<void> } {
  const name = `test-${label}-${randomBytes(4).toString('hex')}`;
  const base = new URL(redisUrl());
  base.pathname = `/${TEST_DB}`;
  base.searchParams.set('prefix', name);
  return {
    url: base.toString(),
    prefix: `${name}:`,
    cleanUp: async () => {
      const client = new Redis(redisUrl(), { db: TEST_DB, maxRetriesPerRequest: 1 });
      try {
        await deleteKeys(client, `${name}:`);
      } finally {
        client.disconnect();
      }
    },
  };
}

/** A connection to the low-level test database; the caller connects and quits it. Fails fast rather than retrying forever. */
export function connectTestRedis(): Redis {
  return new Redis(redisUrl(), { db: TEST_REDIS_DB, maxRetriesPerRequest: 1, connectTimeout: 2_000, lazyConnect: true });
}

/** A fresh key prefix, so parallel runs never see each other's keys. */
export function testKeyPrefix(name: string): string {
  return `test-${name}-${randomBytes(4).toString('hex')}:`;
}

/** Deletes every key under the prefix. */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  await deleteKeysMatching(redis, `${prefix}*`);
}

/**
 * Two processes' coordination (locks, change notices, the shared Redis) on one fresh test prefix,
 * opened before each test of the enclosing `describe` and closed, keys deleted, after it.
 */
export function coordinationsPerTest(label: string): { readonly processes: [Coordination, Coordination]; readonly prefix: string } {
  let storage: ReturnType<typeof testStorage> | undefined;
  let processes: [Coordination, Coordination] | undefined;
  beforeEach(async () => {
    storage = testStorage(label);
    const logger = createLogger('silent');
    processes = [await openCoordination(storage.url, { logger }), await openCoordination(storage.url, { logger })];
  });
  afterEach(async () => {
    await Promise.all((processes ?? []).map((coordination) => coordination.close()));
    await storage?.cleanUp();
  });
  return {
    get processes() {
      if (!processes) throw new Error('coordinationsPerTest: read it inside a test');
      return processes;
    },
    /** The prefix every key of this test's processes starts with. */
    get prefix() {
      if (!storage) throw new Error('coordinationsPerTest: read it inside a test');
      return storage.prefix;
    },
  };
}
