import type Keyv from 'keyv';
import type { SharedRedis } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import { StorageError } from './storage-error.js';

/**
 * The shop's insights as stored: numbers per record, never a member. A record is a flat map of
 * counter name → number (a guild's day, a guild's searches of a day). Counts reach storage in
 * batches (src/services/insights/counter.ts), never one write per interaction:
 *
 * - `adds`: plain increments.
 * - `guarded`: increments applied only when their guard is new: a member's daily mark not yet in
 *   the day's set (distinct members), or an id not yet claimed (a paid order counted once however
 *   often its payment step runs again).
 *
 * On Redis (several processes) one batch is one Lua script: hashes incremented with HINCRBY, marks
 * added with SADD, claims made with SET NX, all in one atomic step, so processes add up and never
 * overwrite each other. On SQLite (one process by design) a batch is one read of every record it
 * touches and one write of them all (keyv's getMany and setMany: one statement each), in turn.
 */

export interface Increment {
  key: string;
  field: string;
  by: number;
  /** How long the record lives from now (refreshed with every batch that touches it). */
  ttlMs: number;
}

export type Guard = { kind: 'mark'; key: string; member: string; ttlMs: number } | { kind: 'once'; key: string; ttlMs: number };

export interface InsightsBatch {
  adds: Increment[];
  guarded: { guard: Guard; adds: Increment[] }[];
}

export type Counters = Record<string, number>;

export interface InsightsStore {
  apply(batch: InsightsBatch): Promise<void>;
  /** The records under these keys, in order ({} for none). */
  read(keys: readonly string[]): Promise<Counters[]>;
  /** The value under `key`, written first as `candidate` when there is none (one value for every process). */
  keepFirst(key: string, candidate: string, ttlMs: number): Promise<string>;
}

/** SQLite or memory: one process, batches one after another, each one read and one write. */
export class KeyvInsightsStore implements InsightsStore {
  readonly #alone = new KeyLock();

  constructor(private readonly keyv: Keyv) {}

  apply(batch: InsightsBatch): Promise<void> {
    return this.#alone.run('insights', async () => {
      const keys = new Set<string>();
      const guards = batch.guarded.map((entry) => entry.guard);
      for (const add of [...batch.adds, ...batch.guarded.flatMap((entry) => entry.adds)]) keys.add(add.key);
      for (const guard of guards) keys.add(guard.key);
      const list = [...keys];
      const values = await this.keyv.getMany<unknown>(list);
      const records = new Map<string, { value: Counters | string[] | boolean; ttlMs: number }>();
      list.forEach((key, index) => {
        const value = values[index];
        records.set(key, { value: (value ?? undefined) as Counters | string[] | boolean, ttlMs: 0 });
      });
      const add = (increment: Increment) => {
        const record = records.get(increment.key)!;
        const counters = (record.value && typeof record.value === 'object' && !Array.isArray(record.value) ? record.value : {}) as Counters;
        counters[increment.field] = (counters[increment.field] ?? 0) + increment.by;
        record.value = counters;
        record.ttlMs = Math.max(record.ttlMs, increment.ttlMs);
      };
      batch.adds.forEach(add);
      for (const { guard, adds } of batch.guarded) {
        const record = records.get(guard.key)!;
        if (guard.kind === 'once') {
          if (record.value) continue;
          record.value = true;
        } else {
          const members = Array.isArray(record.value) ? record.value : [];
          if (members.includes(guard.member)) continue;
          members.push(guard.member);
          record.value = members;
        }
        record.ttlMs = Math.max(record.ttlMs, guard.ttlMs);
        adds.forEach(add);
      }
      const writes = [...records].filter(([, record]) => record.ttlMs > 0).map(([key, record]) => ({ key, value: record.value, ttl: record.ttlMs }));
      if (writes.length > 0) await this.keyv.setMany(writes);
    });
  }

  async read(keys: readonly string[]): Promise<Counters[]> {
    if (keys.length === 0) return [];
    const values = await this.keyv.getMany<unknown>([...keys]);
    return values.map((value) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Counters) : {}));
  }

  keepFirst(key: string, candidate: string, ttlMs: number): Promise<string> {
    return this.#alone.run(`first:${key}`, async () => {
      const stored: unknown = await this.keyv.get(key);
      if (typeof stored === 'string') return stored;
      await this.keyv.set(key, candidate, ttlMs);
      return candidate;
    });
  }
}

/**
 * One batch in one script. ARGV[1] is the batch as JSON with every key already under the bot's
 * prefix; keys are not declared in KEYS (the bot runs on one Redis, not a cluster).
 */
const APPLY_SCRIPT = `
local batch = cjson.decode(ARGV[1])
local function add(entry)
  redis.call('HINCRBY', entry[1], entry[2], entry[3])
  redis.call('PEXPIRE', entry[1], entry[4])
end
for _, entry in ipairs(batch[1]) do add(entry) end
for _, guarded in ipairs(batch[2]) do
  local guard = guarded[1]
  local fresh
  if guard[1] == 'mark' then
    fresh = redis.call('SADD', guard[2], guard[3]) == 1
    redis.call('PEXPIRE', guard[2], guard[4])
  else
    fresh = redis.call('SET', guard[2], '1', 'NX', 'PX', guard[4])
  end
  if fresh then
    for _, entry in ipairs(guarded[2]) do add(entry) end
  end
end
return 0
`;

/** Several processes on one Redis: increments add up atomically, whichever process sends them. */
export class RedisInsightsStore implements InsightsStore {
  constructor(private readonly redis: SharedRedis) {}

  async apply(batch: InsightsBatch): Promise<void> {
    const { key } = this.redis;
    const entry = (add: Increment) => [key(add.key), add.field, add.by, Math.max(1, Math.round(add.ttlMs))];
    const encoded = [
      batch.adds.map(entry),
      batch.guarded.map(({ guard, adds }) => [
        guard.kind === 'mark' ? ['mark', key(guard.key), guard.member, Math.round(guard.ttlMs)] : ['once', key(guard.key), '', Math.round(guard.ttlMs)],
        adds.map(entry),
      ]),
    ];
    // cjson reads an empty array as an empty object; the script iterates both alike.
    await this.redis.client.eval(APPLY_SCRIPT, 0, JSON.stringify(encoded)).catch((error: unknown) => {
      throw new StorageError('write', 'insights', error);
    });
  }

  async read(keys: readonly string[]): Promise<Counters[]> {
    if (keys.length === 0) return [];
    const pipeline = this.redis.client.pipeline();
    for (const name of keys) pipeline.hgetall(this.redis.key(name));
    const answers = await pipeline.exec().catch((error: unknown) => {
      throw new StorageError('read', 'insights', error);
    });
    return (answers ?? []).map(([error, value]) => {
      if (error) throw new StorageError('read', 'insights', error);
      const counters: Counters = {};
      for (const [field, count] of Object.entries((value ?? {}) as Record<string, string>)) counters[field] = Number(count);
      return counters;
    });
  }

  async keepFirst(name: string, candidate: string, ttlMs: number): Promise<string> {
    const key = this.redis.key(name);
    await this.redis.client.set(key, candidate, 'PX', Math.round(ttlMs), 'NX');
    return (await this.redis.client.get(key)) ?? candidate;
  }
}
