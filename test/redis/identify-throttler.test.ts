import { setTimeout as delay } from 'node:timers/promises';
import { Client, GatewayIntentBits } from 'discord.js';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisIdentifyThrottler, redisIdentifyThrottlerFactory } from '../../src/discord/identify-throttler.js';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { connectTestRedis, deleteKeys, testKeyPrefix } from '../support/redis.js';

/** A short window instead of Discord's 5 s: the second identify of a bucket waits for Redis to expire the first's key. */
const WINDOW_MS = 300;

describe('the Redis identify throttler', () => {
  // Two connections, as two processes of the bot would have.
  let first: Redis;
  let second: Redis;
  const prefix = testKeyPrefix('identify');

  beforeAll(async () => {
    first = connectTestRedis();
    second = connectTestRedis();
    await Promise.all([first.connect(), second.connect()]);
  });

  afterAll(async () => {
    await deleteKeys(first, prefix);
    await Promise.all([first.quit(), second.quit()]);
  });

  /** A throttler whose waits are real but recorded. */
  function throttler(redis: Redis, maxConcurrency: number, keyPrefix: string) {
    const waits: number[] = [];
    const instance = new RedisIdentifyThrottler(redis, keyPrefix, maxConcurrency, {
      windowMs: WINDOW_MS,
      wait: (ms, signal) => {
        waits.push(ms);
        return delay(ms, undefined, { signal });
      },
    });
    return { instance, waits };
  }

  it('lets the second identify of a bucket through only once the first one\'s window has passed, across connections', async () => {
    const keyPrefix = `${prefix}same:`;
    const a = throttler(first, 1, keyPrefix);
    const b = throttler(second, 1, keyPrefix);
    await a.instance.waitForIdentify(0, new AbortController().signal);
    const firstAt = performance.now();
    await b.instance.waitForIdentify(1, new AbortController().signal);
    const gap = performance.now() - firstAt;

    expect(a.waits).toEqual([]);
    expect(b.waits.length).toBeGreaterThanOrEqual(1);
    expect(b.waits.every((ms) => ms > 0 && ms <= WINDOW_MS)).toBe(true);
    // Redis measured the window; a few ms of round trip either side are not the throttler's.
    expect(gap).toBeGreaterThanOrEqual(WINDOW_MS - 30);
    expect(await first.pttl(a.instance.bucketKey(0))).toBeGreaterThan(0); // the bucket is taken again, by the second
  });

  it('does not hold up shards of different buckets', async () => {
    const keyPrefix = `${prefix}buckets:`;
    const a = throttler(first, 2, keyPrefix);
    const b = throttler(second, 2, keyPrefix);
    await Promise.all([a.instance.waitForIdentify(0, new AbortController().signal), b.instance.waitForIdentify(1, new AbortController().signal)]);
    expect([a.waits, b.waits]).toEqual([[], []]);
    expect([a.instance.bucketKey(0), a.instance.bucketKey(1), a.instance.bucketKey(3)]).toEqual([
      `${keyPrefix}identify:0`,
      `${keyPrefix}identify:1`,
      `${keyPrefix}identify:1`,
    ]);
  });

  it('stops waiting when discord.js aborts (the shard is being destroyed)', async () => {
    const keyPrefix = `${prefix}abort:`;
    const holder = new RedisIdentifyThrottler(first, keyPrefix, 1, { windowMs: 60_000 });
    await holder.waitForIdentify(0, new AbortController().signal);
    const controller = new AbortController();
    const waiting = new RedisIdentifyThrottler(second, keyPrefix, 1, {
      wait: (ms, signal) => {
        controller.abort();
        return delay(ms, undefined, { signal });
      },
    }).waitForIdentify(0, controller.signal);
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('paces two processes\' shards against Discord: each bucket identifies once per window', async () => {
    // Discord recommends two shards with max_concurrency 1: shard 0 and shard 1 share one bucket.
    const discord = await FakeDiscord.start({ shards: 2, maxConcurrency: 1 });
    const keyPrefix = `${prefix}bot:`;
    const processes = [first, second].map(
      (redis, shard) =>
        new Client({
          intents: [GatewayIntentBits.Guilds],
          rest: { api: discord.apiUrl },
          shards: [shard],
          shardCount: 2,
          ws: { buildIdentifyThrottler: redisIdentifyThrottlerFactory(redis, keyPrefix, { windowMs: WINDOW_MS }) },
        }),
    );
    try {
      await Promise.all(processes.map((client) => client.login('test-token')));
      await discord.shardsReady([0, 1]);
      expect(discord.identifies.map((record) => record.shard).sort()).toEqual([
        [0, 2],
        [1, 2],
      ]);
      // Paced by the shortened window (as they would be by 5 s), with the fake's clock: Date.now.
      expect(discord.identifyPacingViolations(WINDOW_MS - 30)).toEqual([]);
      expect(discord.identifyPacingViolations()).toHaveLength(1); // and not by Discord's 5 s, which this test does not wait for
    } finally {
      await Promise.all(processes.map((client) => client.destroy()));
      await discord.close();
    }
  });
});
