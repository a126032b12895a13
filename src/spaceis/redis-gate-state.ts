import { TimeoutError } from 'redis-semaphore';
import { PrefixedSemaphore } from '../coordination/prefixed-locks.js';
import type { Redis } from 'ioredis';
import type { SharedRedis } from '../coordination/coordination.js';
import type { Logger } from '../logger.js';
import { opensBreaker } from './gate-rules.js';
import type { SharedGateState, SharedGateView } from './shared-gate-state.js';

export interface RedisGateStateOptions {
  /** Requests in flight at once for the license, across every process. */
  slots?: number;
  /**
   * How long a slot (and a half-open trial) outlives a process that died holding it. Above the
   * store's request timeout (8 s): a live holder is refreshed anyway, a killed one's slot comes back.
   */
  slotTimeoutMs?: number;
  /** How long a request waits for a shared slot before it is refused ("temporarily unavailable"). */
  acquireTimeoutMs?: number;
  /** How often a waiting request asks Redis again for a slot (redis-semaphore polls). */
  retryIntervalMs?: number;
  logger?: Pick<Logger, 'warn'>;
}

export const DEFAULT_SLOT_TIMEOUT_MS = 12_000;
/** A slot frees within one request timeout (8 s) or, if its holder died, within the slot timeout. */
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 15_000;

/**
 * The license's gate state in Redis, under `<prefix>gate:<license id>:…` (the id is the sha256 of
 * the key, never the key). Every value is a key with an expiry, so nothing outlives its meaning
 * if a process dies mid-way:
 * - `paused`: exists while the store asked to wait (SET PX); its PTTL is the wait left;
 * - `failures`: outages in a row (INCR), forgotten after a few breaker periods of quiet;
 * - `open`: exists while the breaker is open (SET PX openMs); once it expired with `failures`
 *   still at the threshold, the breaker is half-open and `trial` (SET NX PX) picks the one caller;
 * - `slots`: redis-semaphore's Semaphore (a sorted set of holders with expiry and auto-refresh).
 * Times are Redis's own expiries, so processes on machines with different clocks agree on them
 * (the semaphore alone stamps holders with the caller's clock; its timeout absorbs a small skew).
 */
export function redisGateState(redis: SharedRedis, license: string, options: RedisGateStateOptions = {}): SharedGateState {
  const { client } = redis;
  const key = (name: string): string => redis.key(`gate:${license}:${name}`);
  const slots = options.slots ?? 4;
  const slotTimeoutMs = options.slotTimeoutMs ?? DEFAULT_SLOT_TIMEOUT_MS;
  const acquireTimeoutMs = options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS;
  const retryIntervalMs = options.retryIntervalMs ?? 20;

  return {
    async read(): Promise<SharedGateView> {
      const results = await client.pipeline().pttl(key('paused')).pttl(key('open')).get(key('failures')).exec();
      const [paused, open, failures] = (results ?? []).map(([error, value]) => {
        if (error) throw error;
        return value;
      });
      return { pausedMs: remaining(paused), openMs: remaining(open), failures: Number(failures ?? 0) || 0 };
    },
    async claimTrial() {
      return (await client.set(key('trial'), '1', 'PX', slotTimeoutMs, 'NX')) === 'OK';
    },
    async slot() {
      const semaphore = new PrefixedSemaphore(client, key('slots'), slots, {
        lockTimeout: slotTimeoutMs,
        acquireTimeout: acquireTimeoutMs,
        retryInterval: retryIntervalMs,
        // A slot lost while its request runs (Redis away too long) only means the license may briefly
        // see a fifth request; the request itself goes on and its member gets the store's answer.
        onLockLost: (error) => options.logger?.warn({ err: { message: error.message } }, "lost a store slot of the license's shared gate while its request ran"),
      });
      try {
        await semaphore.acquire();
      } catch (error) {
        if (error instanceof TimeoutError) return undefined;
        throw error;
      }
      return () => semaphore.release();
    },
    async pause(ms) {
      // Never shortens a longer pause another process set: only a later end replaces it.
      const left = remaining(await client.pttl(key('paused')));
      if (left >= ms) return;
      await client.set(key('paused'), '1', 'PX', Math.max(1, Math.round(ms)));
    },
    async failed({ threshold, openMs, trial }) {
      const [[incrError, count] = [null, 0]] =
        (await client
          .multi()
          .incr(key('failures'))
          // Outages "in a row" are forgotten after a quiet spell well past the breaker's period.
          .pexpire(key('failures'), Math.max(openMs * 4, 60_000))
          .exec()) ?? [];
      if (incrError) throw incrError;
      const pipeline = client.pipeline();
      if (opensBreaker(Number(count), threshold, trial)) pipeline.set(key('open'), '1', 'PX', openMs);
      if (trial) pipeline.del(key('trial'));
      if (pipeline.length > 0) await pipeline.exec();
    },
    async succeeded() {
      await client.del(key('failures'), key('open'), key('trial'));
    },
    async giveUpTrial() {
      await client.del(key('trial'));
    },
  };
}

/** PTTL's answer as a wait: -2 (no key) and -1 (no expiry, never written so) mean none. */
function remaining(pttl: unknown): number {
  const ms = Number(pttl);
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}
