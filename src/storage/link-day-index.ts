import * as z from 'zod';
import type Keyv from 'keyv';
import type { Logger } from '../logger.js';
import type { Locks } from '../coordination/coordination.js';
import { parseRecord, stringListSchema, stringPairListSchema } from './records.js';

/**
 * Which links were created on each UTC day, read only when pruning, so pruning reads what it
 * deletes. Each guild has its own index of the day: a checkout rewrites only its own guild's
 * (several bot processes on one Redis would otherwise all queue on one key per day), and entries
 * live in buckets of at most BUCKET_SIZE, so a checkout rewrites one bounded bucket whatever the
 * day's traffic (a single list per day made the bytes written grow with the square of the day's links).
 *
 * Keys of a guild's day: `link-day:<day>:g<guild>:<n>` (n ≥ 1), `link-day-buckets:<day>:g<guild>`
 * (how many buckets). Which guilds have entries on a day: `link-day-guilds:<day>`; which days have
 * entries: `link-days`. Both are written once per guild and day (and once per day), not per checkout.
 * Days written before guilds had their own index (one index for all guilds, `link-day:<day>`,
 * `link-day:<day>:<n>`, `link-day-buckets:<day>`) are read and pruned as the scope '' and never added to.
 */
export type DayEntry = [guildId: string, linkId: string];

const BUCKET_SIZE = 100;
/** Notes kept by `addOnce` before it starts over: a day's guilds at most, in practice. */
const MAX_NOTED = 10_000;
const entriesSchema = stringPairListSchema();
const countSchema = z.number().int().nonnegative();
const daysSchema = stringListSchema();
const DAYS_KEY = 'link-days';
const guildsSchema = stringListSchema();
/** The index of every guild at once, as written before each guild had its own. */
const SHARED_SCOPE = '';

export class LinkDayIndex {
  /**
   * Lists this process has seen holding an item (`<key> <item>`): the next checkout of the day in that
   * guild reads neither list again (two reads saved on every checkout). Only pruning takes an item
   * out, and only of a day past the retention period, never of a day links are still created on;
   * this process forgets its own note when it does (`remove`).
   */
  readonly #noted = new Set<string>();

  constructor(
    private readonly keyv: Keyv,
    private readonly locks: Locks,
    private readonly logger: Logger,
  ) {}

  /** The lock to hold while preparing an addition (see `addition`): the guild's own, for the day. */
  lockKey(day: string, guildId: string): string {
    return countKey(day, guildId);
  }

  /**
   * The writes that add `entries` (one guild's, in order) to their guild's day, to be written
   * together with the links (under `lockKey`): the last bucket with the entries, the buckets they
   * start when it fills, and the bucket count when a bucket is started.
   */
  async addition(day: string, entries: readonly DayEntry[]): Promise<{ key: string; value: unknown }[]> {
    const scope = entries[0]?.[0];
    if (scope === undefined) return [];
    const before = await this.count(day, scope);
    let count = before;
    // A copy: an in-memory store hands out the array it holds.
    let bucket: DayEntry[] = count === 0 ? [] : [...(await this.read(bucketKey(day, scope, count)))];
    const buckets = new Map<number, DayEntry[]>();
    for (const entry of entries) {
      if (count === 0 || bucket.length >= BUCKET_SIZE) {
        count += 1;
        bucket = [];
      }
      bucket.push(entry);
      buckets.set(count, bucket);
    }
    const writes = [...buckets].map(([index, value]) => ({ key: bucketKey(day, scope, index), value }));
    return count === before ? writes : [{ key: countKey(day, scope), value: count }, ...writes];
  }

  /**
   * Records that `day` has entries, of `guildId` if given. Read first without a lock: the lists
   * change once per day and guild, and every checkout taking their lock would make them the one
   * key every checkout of every guild waits on.
   */
  async noteDay(day: string, guildId?: string): Promise<void> {
    await this.addOnce(DAYS_KEY, day, true);
    if (guildId !== undefined) await this.addOnce(guildsKey(day), guildId, false);
  }

  /** Days that have entries, oldest first. */
  async days(): Promise<string[]> {
    return parseRecord(daysSchema, await this.keyv.get(DAYS_KEY), () => [], this.logger, DAYS_KEY);
  }

  /**
   * Runs `sift` over the entries of `day`, one guild's index at a time (under its lock), and keeps
   * those it returns; an index left empty is forgotten, and so is a day left empty. Returns what
   * each `sift` returned besides the entries to keep.
   */
  async rewriteDay<T>(day: string, sift: (entries: DayEntry[]) => Promise<{ keep: DayEntry[]; result: T }>): Promise<T[]> {
    const results: T[] = [];
    let left = 0;
    // Pruning may take items out of the lists: what this process noted is read again afterwards.
    this.#noted.clear();
    for (const scope of [SHARED_SCOPE, ...(await this.guildsOf(day))]) {
      const { result, kept } = await this.rewriteScope(day, scope, sift);
      results.push(result);
      left += kept;
      if (kept === 0 && scope !== SHARED_SCOPE) await this.remove(guildsKey(day), scope);
    }
    if (left === 0) {
      await this.remove(DAYS_KEY, day);
      await this.keyv.delete(guildsKey(day));
    }
    return results;
  }

  private async rewriteScope<T>(
    day: string,
    scope: string,
    sift: (entries: DayEntry[]) => Promise<{ keep: DayEntry[]; result: T }>,
  ): Promise<{ result: T; kept: number }> {
    return this.locks.run(countKey(day, scope), async () => {
      const count = await this.count(day, scope);
      const buckets = [...(scope === SHARED_SCOPE ? [bucketKey(day, scope, 0)] : []), ...Array.from({ length: count }, (_unused, index) => bucketKey(day, scope, index + 1))];
      const entries = (await Promise.all(buckets.map((key) => this.read(key)))).flat();
      const { keep, result } = await sift(entries);
      await this.keyv.delete([...buckets, countKey(day, scope)]);
      const chunks = Array.from({ length: Math.ceil(keep.length / BUCKET_SIZE) }, (_unused, index) => keep.slice(index * BUCKET_SIZE, (index + 1) * BUCKET_SIZE));
      if (chunks.length > 0) {
        await this.keyv.setMany([
          { key: countKey(day, scope), value: chunks.length },
          ...chunks.map((chunk, index) => ({ key: bucketKey(day, scope, index + 1), value: chunk })),
        ]);
      }
      return { result, kept: keep.length };
    });
  }

  private async guildsOf(day: string): Promise<string[]> {
    return parseRecord(guildsSchema, await this.keyv.get(guildsKey(day)), () => [], this.logger, guildsKey(day));
  }

  /** Adds `item` to the list at `key` unless it is there (checked before and under the list's lock). */
  private async addOnce(key: string, item: string, sorted: boolean): Promise<void> {
    const note = `${key} ${item}`;
    if (this.#noted.has(note)) return;
    const read = async () => parseRecord(guildsSchema, await this.keyv.get(key), () => [], this.logger, key);
    if (!(await read()).includes(item)) {
      await this.locks.run(key, async () => {
        const items = await read();
        if (items.includes(item)) return;
        const next = [...items, item];
        await this.keyv.set(key, sorted ? next.sort() : next);
      });
    }
    // Bounded: a process running for months starts over now and then (a read, not a write).
    if (this.#noted.size >= MAX_NOTED) this.#noted.clear();
    this.#noted.add(note);
  }

  private async remove(key: string, item: string): Promise<void> {
    this.#noted.delete(`${key} ${item}`);
    await this.locks.run(key, async () => {
      const items = parseRecord(guildsSchema, await this.keyv.get(key), () => [], this.logger, key);
      if (!items.includes(item)) return;
      const next = items.filter((other) => other !== item);
      if (next.length > 0) await this.keyv.set(key, next);
      else await this.keyv.delete(key);
    });
  }

  private async count(day: string, scope: string): Promise<number> {
    return parseRecord(countSchema, await this.keyv.get(countKey(day, scope)), () => 0, this.logger, countKey(day, scope));
  }

  private async read(key: string): Promise<DayEntry[]> {
    return parseRecord(entriesSchema, await this.keyv.get(key), () => [], this.logger, key);
  }
}

function countKey(day: string, scope: string): string {
  return scope === SHARED_SCOPE ? `link-day-buckets:${day}` : `link-day-buckets:${day}:g${scope}`;
}
function bucketKey(day: string, scope: string, index: number): string {
  if (scope !== SHARED_SCOPE) return `link-day:${day}:g${scope}:${index}`;
  return index === 0 ? `link-day:${day}` : `link-day:${day}:${index}`;
}
function guildsKey(day: string): string {
  return `link-day-guilds:${day}`;
}
