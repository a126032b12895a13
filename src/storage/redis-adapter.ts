import KeyvRedis, { createClient } from '@keyv/redis';
import type { KeyvStoreAdapter } from 'keyv';
import { unreachable } from '../coordination/redis-connection.js';
import { StorageUnreachableError } from './storage-error.js';
import type { RedisTarget } from '../coordination/redis-url.js';
import type { Logger } from '../logger.js';

const CONNECT_TIMEOUT_MS = 5_000;
const MAX_RECONNECT_DELAY_MS = 5_000;

/**
 * Keyv's own Redis adapter on a connection that suits a bot: reconnects forever with a capped
 * back-off (Redis coming back brings storage back by itself) and never queues commands while
 * disconnected (`disableOfflineQueue`), so a read during an outage fails at once with a
 * StorageError and the member is told, instead of waiting past Discord's 3 s.
 * Keys are `<prefix>:<key>` (e.g. `shopbot::cart:<guild>:<member>`): the prefix of STORAGE_URL.
 */
export async function openRedisAdapter(target: RedisTarget, logger?: Logger): Promise<KeyvStoreAdapter> {
  const client = createClient({
    url: target.url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      // The first connection must succeed: a wrong STORAGE_URL is reported at once. Later ones are retried forever.
      reconnectStrategy: (retries: number, cause: Error) => (connected ? Math.min(retries * 200, MAX_RECONNECT_DELAY_MS) : cause),
    },
  });
  let connected = false;
  let down = false;
  // node-redis emits 'error' on every failed reconnect: one line per outage, one when it is over.
  client.on('error', (error: Error) => {
    if (!connected || down) return;
    down = true;
    logger?.warn({ redis: target.display, role: 'storage', err: { message: error.message } }, 'Redis connection lost; reconnecting');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger?.info({ redis: target.display, role: 'storage' }, 'Redis connection back');
  });
  try {
    await Promise.race([
      client.connect().then(() => (connected = true)),
      new Promise((_resolve, reject) => setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), CONNECT_TIMEOUT_MS).unref()),
    ]);
  } catch (error) {
    if (client.isOpen) client.destroy();
    throw new StorageUnreachableError(unreachable(target, error).message);
  }
  return new KeyvRedis(client, { throwOnErrors: true, throwOnConnectError: true }) as unknown as KeyvStoreAdapter;
}
