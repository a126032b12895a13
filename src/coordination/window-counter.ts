import type { SharedRedis } from './coordination.js';

/**
 * How many times something happened in the current fixed window (e.g. one member's link checks this
 * minute): one atomic increment per event, nothing else kept. In one process a map in memory (a
 * restart forgets the counts: harmless for a limit of a minute); on Redis one INCR per event, shared
 * by every process. A fixed window, not a sliding one: a member can at worst do twice the limit across
 * the turn of a window, which is enough against a script and costs one key per member and window.
 */
export interface WindowCounter {
  /** Counts one event under `name` in the window `now` falls in; resolves the window's count including it. */
  hit(name: string, windowMs: number, now: number): Promise<number>;
}

export class InProcessWindowCounter implements WindowCounter {
  readonly #counts = new Map<string, { window: number; count: number }>();

  hit(name: string, windowMs: number, now: number): Promise<number> {
    const window = Math.floor(now / windowMs);
    const current = this.#counts.get(name);
    const count = current?.window === window ? current.count + 1 : 1;
    this.#counts.set(name, { window, count });
    // Entries of past windows are dropped whenever the map grows past a few thousand members.
    if (this.#counts.size > 5_000) for (const [key, entry] of this.#counts) if (entry.window !== window) this.#counts.delete(key);
    return Promise.resolve(count);
  }
}

export class RedisWindowCounter implements WindowCounter {
  constructor(private readonly redis: SharedRedis) {}

  async hit(name: string, windowMs: number, now: number): Promise<number> {
    const window = Math.floor(now / windowMs);
    const key = this.redis.key(`window:${name}:${window}`);
    // One round trip: the increment and the key's lifetime (two windows) together.
    const replies = await this.redis.client.multi().incr(key).pexpire(key, windowMs * 2).exec();
    const count = replies?.[0]?.[1];
    if (typeof count !== 'number') throw new Error('redis: INCR did not answer a number');
    return count;
  }
}
