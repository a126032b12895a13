import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * The real Redis the Redis tests use: REDIS_URL, or the local one every developer machine and CI
 * runs. Tests use database TEST_DB and a key prefix of their own, and delete what they wrote.
 */
export const TEST_DB = 14;

export function redisUrl(): string {
  return process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/** The line shown when the Redis tests cannot run (vitest.config.ts). */
export function howToRunRedisTests(reason: string): string {
  return `Redis tests need Redis at ${redisUrl()} (REDIS_URL), which is not reachable (${reason}): start redis-server on 127.0.0.1:6379, or set REDIS_URL, and run npm test again.`;
}

/** Undefined when Redis answers PING, else why not. Gives up after a second. */
export async function redisUnreachable(url = redisUrl()): Promise<string | undefined> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? (error as Error).message;
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
  return { url: base.toString(), prefix: `${name}:`, cleanUp: () => deleteKeys(`${name}:*`) };
}

async function deleteKeys(pattern: string): Promise<void> {
  const base = new URL(redisUrl());
  base.pathname = `/${TEST_DB}`;
  const client = new Redis(base.toString(), { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await client.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}
