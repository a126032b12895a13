import type { Redis } from 'ioredis';

/**
 * Keys matching `pattern`, a page at a time. SCAN, never KEYS: the Redis may hold other work (and
 * other bots) that one long command would block. SCAN may return a key twice; callers that count
 * must tolerate it (see migration-stores.ts).
 */
export async function* scanKeys(client: Pick<Redis, 'scan'>, pattern: string, pageSize = 1000): AsyncIterable<string[]> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', pageSize);
    cursor = next;
    if (keys.length > 0) yield keys;
  } while (cursor !== '0');
}

/** Deletes every key matching `pattern` (UNLINK: freed in the background); returns how many went. */
export async function deleteKeysMatching(client: Pick<Redis, 'scan' | 'unlink'>, pattern: string, pageSize = 1000): Promise<number> {
  let deleted = 0;
  for await (const keys of scanKeys(client, pattern, pageSize)) deleted += await client.unlink(...keys);
  return deleted;
}
