import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import { RedisUnreachableError } from './coordination-error.js';
import type { RedisTarget } from './redis-url.js';

/** How long the first connection may take before the start fails with a clear message. */
const CONNECT_TIMEOUT_MS = 5_000;
/** Longest any one command may take; well under Discord's 3 s. */
const COMMAND_TIMEOUT_MS = 2_000;
/** Reconnection backs off up to this, forever: Redis coming back must bring the bot back by itself. */
const MAX_RECONNECT_DELAY_MS = 5_000;

/**
 * Opens an ioredis connection for coordination (locks, the store gate's shared state, pub/sub).
 * Commands never queue while Redis is away (`enableOfflineQueue: false`): an interaction is
 * told at once that storage is unavailable instead of hanging until its token expires.
 */
export async function connectRedis(target: RedisTarget, logger: Logger, role: string): Promise<Redis> {
  const client = new Redis(target.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // A Redis that accepts connections but stops answering must not stall an interaction either.
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, MAX_RECONNECT_DELAY_MS),
  });
  let down = false;
  // Without a listener ioredis' 'error' event would end the process; one line per outage is enough.
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ redis: target.display, role, err: { message: error.message } }, 'Redis connection lost; reconnecting');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info({ redis: target.display, role }, 'Redis connection back');
  });
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw unreachable(target, error);
  }
  return client;
}

export function unreachable(target: RedisTarget, error: unknown): RedisUnreachableError {
  const reason = (error as { code?: string }).code ?? (error as Error).message ?? String(error);
  return new RedisUnreachableError(`STORAGE_URL: cannot reach Redis at ${target.display} (${reason}). Start Redis there or correct STORAGE_URL.`);
}
