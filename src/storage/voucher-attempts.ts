import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type Keyv from 'keyv';
import type { SharedRedis } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';

/**
 * The limits against guessing voucher codes (src/services/vouchers.ts): sliding windows of recent
 * tries, several checked and counted together in ONE atomic step with the clock read inside it,
 * so a crowd pressing at once can never get more tries past a limit than it allows.
 *
 * - On Redis (several processes): one Lua script per step (sorted sets, a member per try), atomic
 *   in Redis whichever process runs it, on the Redis server's clock.
 * - Otherwise (SQLite or memory: one process by design): the step runs alone in this process
 *   (one queue for all windows) and the windows are kept in storage, so they hold across restarts.
 *
 * rate-limiter-flexible was weighed: its limiters read time from Date.now() or
 * Redis's own TTLs, never the bot's injected clock, so neither the bot's clock-driven tests nor its
 * "retry in N s" could be exact; this is one short script instead.
 *
 * A try the store never received is given back (`refund`): it does not count against anyone.
 */
const timesSchema = z.array(z.object({ id: z.string(), at: z.number() }));

export interface Window {
  /** The record's name, e.g. `user:<user>`. */
  key: string;
  limit: number;
  spanMs: number;
}

/** Admitted (counted in every window, `id` to refund it), or the seconds until the first full window has room. */
export type Admission = { kind: 'admitted'; id: string } | { kind: 'full'; window: string; retryAfterSeconds: number };

/**
 * Checks every window and counts `weight` tries in all of them, or in none when one is full. The
 * time is the Redis server's (TIME, read inside the script): processes whose clocks disagree share
 * one timeline, and none can widen a window by running ahead. ARGV[1] is unused.
 */
const TAKE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local id = ARGV[2]
local weight = tonumber(ARGV[3])
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[2 + 2 * i])
  local span = tonumber(ARGV[3 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - span)
  local count = redis.call('ZCARD', key)
  if count + weight > limit then
    local first = redis.call('ZRANGE', key, math.max(0, count + weight - limit - 1), math.max(0, count + weight - limit - 1), 'WITHSCORES')
    local at = tonumber(first[2] or now)
    return {i, at + span - now}
  end
end
for i, key in ipairs(KEYS) do
  local span = tonumber(ARGV[3 + 2 * i])
  for n = 1, weight do redis.call('ZADD', key, now, id .. ':' .. n) end
  redis.call('PEXPIRE', key, span)
end
return {0, 0}
`;

const REFUND_SCRIPT = `
local weight = tonumber(ARGV[2])
for _, key in ipairs(KEYS) do
  for n = 1, weight do redis.call('ZREM', key, ARGV[1] .. ':' .. n) end
end
return 0
`;

export class VoucherAttempts {
  /** One step at a time in this process (SQLite or memory). */
  readonly #alone = new KeyLock();

  constructor(
    private readonly keyv: Keyv,
    /** The shared Redis when processes share this bot's state; undefined in one process. */
    private readonly redis: SharedRedis | undefined,
    private readonly now: () => number,
  ) {}

  /**
   * Counts `weight` tries in every window, or none when one of them is full (the first full one is
   * named). The clock is read inside the step.
   */
  async admit(windows: readonly Window[], weight = 1): Promise<Admission> {
    const id = randomUUID();
    if (this.redis) {
      const { client, key } = this.redis;
      const args = windows.flatMap((window) => [window.limit, window.spanMs]);
      const answer = (await client.eval(TAKE_SCRIPT, windows.length, ...windows.map((window) => key(recordKey(window.key))), 0, id, weight, ...args)) as [number, number];
      const [full, leftMs] = answer;
      if (full === 0) return { kind: 'admitted', id: `${id}/${weight}` };
      return { kind: 'full', window: windows[full - 1]!.key, retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)) };
    }
    return this.#alone.run('voucher-attempts', async () => {
      const now = this.now();
      const recent = await Promise.all(windows.map((window) => this.#recent(window, now)));
      for (const [index, window] of windows.entries()) {
        const times = recent[index]!;
        if (times.length + weight > window.limit) {
          const first = times[Math.max(0, times.length + weight - window.limit - 1)]?.at ?? now;
          return { kind: 'full', window: window.key, retryAfterSeconds: Math.max(1, Math.ceil((first + window.spanMs - now) / 1000)) };
        }
      }
      const added = Array.from({ length: weight }, (_, n) => ({ id: `${id}:${n + 1}`, at: now }));
      await Promise.all(windows.map((window, index) => this.keyv.set(recordKey(window.key), [...recent[index]!, ...added], window.spanMs)));
      return { kind: 'admitted', id: `${id}/${weight}` };
    });
  }

  /** Gives an admitted try back (it never reached the store). */
  async refund(windows: readonly Window[], admitted: string): Promise<void> {
    const [id = '', weightText = '1'] = admitted.split('/');
    const weight = Number(weightText);
    if (this.redis) {
      const { client, key } = this.redis;
      await client.eval(REFUND_SCRIPT, windows.length, ...windows.map((window) => key(recordKey(window.key))), id, weight);
      return;
    }
    await this.#alone.run('voucher-attempts', async () => {
      const now = this.now();
      for (const window of windows) {
        const kept = (await this.#recent(window, now)).filter((entry) => !entry.id.startsWith(`${id}:`));
        await this.keyv.set(recordKey(window.key), kept, window.spanMs);
      }
    });
  }

  async #recent(window: Window, now: number): Promise<{ id: string; at: number }[]> {
    const parsed = timesSchema.safeParse(await this.keyv.get(recordKey(window.key)));
    return parsed.success ? parsed.data.filter((entry) => entry.at <= now && now - entry.at < window.spanMs).sort((a, b) => a.at - b.at) : [];
  }
}

function recordKey(name: string): string {
  return `voucher-attempts:${name}`;
}
