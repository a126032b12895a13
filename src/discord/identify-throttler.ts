import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { IIdentifyThrottler, WebSocketOptions } from 'discord.js';
import type { Redis } from 'ioredis';

/**
 * Paces gateway IDENTIFYs across every process of the bot, as Discord requires: shards fall into
 * `max_concurrency` buckets (`shard_id % max_concurrency`), and each bucket may identify once per 5 s
 * for the whole bot, not per process. discord.js's own SimpleIdentifyThrottler keeps that count in one
 * process's memory; when several processes start together they would identify at once.
 *
 * Taking a bucket is one Redis `SET <prefix>identify:<bucket> <token> NX PX 5500`: whoever sets the key
 * may identify, and the key is never released, only expires, so the next IDENTIFY of that bucket
 * anywhere comes at least 5 s later at Discord. The half second over Discord's 5 s covers the time
 * between taking the bucket and the IDENTIFY reaching Discord, which differs between processes (a
 * busy event loop, another machine's network): measured under a loaded test run, without it two
 * identifies arrived less than 5 s apart. A process that finds the key taken waits out its remaining
 * lifetime (PTTL) and tries again, until it wins or discord.js aborts the wait.
 */

/** Discord's identify window per bucket (5 s), with a margin for the send's own delay (see above). */
export const IDENTIFY_WINDOW_MS = 5_500;

export interface RedisIdentifyThrottlerOptions {
  /** How long a bucket stays taken after an IDENTIFY; IDENTIFY_WINDOW_MS unless a test shortens it. */
  windowMs?: number;
  /** How the throttler waits before asking again; rejects when the signal aborts. Tests may count the waits. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** The discord.js option `ws.buildIdentifyThrottler` takes this. */
export type BuildIdentifyThrottler = NonNullable<WebSocketOptions['buildIdentifyThrottler']>;

const waitFor = (ms: number, signal: AbortSignal): Promise<void> => delay(ms, undefined, { signal });

export class RedisIdentifyThrottler implements IIdentifyThrottler {
  readonly #redis: Redis;
  readonly #keyPrefix: string;
  readonly #maxConcurrency: number;
  readonly #windowMs: number;
  readonly #wait: (ms: number, signal: AbortSignal) => Promise<void>;

  constructor(redis: Redis, keyPrefix: string, maxConcurrency: number, options: RedisIdentifyThrottlerOptions = {}) {
    if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1) throw new RangeError(`max_concurrency must be a whole number of at least 1, got ${maxConcurrency}`);
    this.#redis = redis;
    this.#keyPrefix = keyPrefix;
    this.#maxConcurrency = maxConcurrency;
    this.#windowMs = options.windowMs ?? IDENTIFY_WINDOW_MS;
    this.#wait = options.wait ?? waitFor;
  }

  /** The Redis key of the bucket a shard identifies in. */
  bucketKey(shardId: number): string {
    return `${this.#keyPrefix}identify:${shardId % this.#maxConcurrency}`;
  }

  async waitForIdentify(shardId: number, signal: AbortSignal): Promise<void> {
    const key = this.bucketKey(shardId);
    // Who took the bucket, for whoever reads Redis while debugging; nothing secret.
    const token = `shard ${shardId} ${randomBytes(6).toString('hex')}`;
    for (;;) {
      signal.throwIfAborted();
      if ((await this.#redis.set(key, token, 'PX', this.#windowMs, 'NX')) === 'OK') return;
      const remainingMs = await this.#redis.pttl(key);
      // -2: it expired between the two calls, so try again at once; -1 (no expiry) is never set by
      // this throttler, so someone else's key: wait a window rather than spin.
      if (remainingMs === -2) continue;
      await this.#wait(remainingMs > 0 ? Math.min(remainingMs, this.#windowMs) : this.#windowMs, signal);
    }
  }
}

/**
 * `ws.buildIdentifyThrottler` for the discord.js Client: a RedisIdentifyThrottler over this connection
 * and key prefix, with Discord's `max_concurrency` from `GET /gateway/bot` (as discord.js's own default
 * builder reads it).
 */
export function redisIdentifyThrottlerFactory(redis: Redis, keyPrefix: string, options: RedisIdentifyThrottlerOptions = {}): BuildIdentifyThrottler {
  return async (manager) => {
    const info = await manager.fetchGatewayInformation();
    return new RedisIdentifyThrottler(redis, keyPrefix, info.session_start_limit.max_concurrency, options);
  };
}
