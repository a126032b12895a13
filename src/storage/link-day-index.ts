import { z } from 'zod';
import type Keyv from 'keyv';
import type { Logger } from '../logger.js';
import type { Locks } from '../coordination/coordination.js';
import { parseRecord } from './records.js';

/**
 * Which links were created on each UTC day, across guilds: the one index that spans guilds, read
 * only when pruning, so pruning reads what it deletes. A day's entries live in buckets of at most
 * BUCKET_SIZE, so a checkout rewrites one bounded bucket whatever the day's traffic (a single list
 * per day made the bytes written grow with the square of the day's links).
 *
 * Keys: `link-day:<day>` (bucket 0: also the whole list as it was written before buckets),
 * `link-day:<day>:<n>` for n ≥ 1, `link-day-buckets:<day>` (how many numbered buckets), and
 * `link-days` (the days that have entries, oldest first).
 */
export type DayEntry = [guildId: string, linkId: string];

const BUCKET_SIZE = 100;
const entriesSchema = z.array(z.tuple([z.string(), z.string()]));
const countSchema = z.number().int().nonnegative();
const daysSchema = z.array(z.string());
const DAYS_KEY = 'link-days';

export class LinkDayIndex {
  constructor(
    private readonly keyv: Keyv,
    private readonly locks: Locks,
    private readonly logger: Logger,
  ) {}

  /** The lock to hold while preparing an addition (see `addition`). */
  lockKey(day: string): string {
    return countKey(day);
  }

  /**
   * The writes that add `entry` to its day, to be written together with the link (under `lockKey`):
   * the last bucket with the entry, and the bucket count when a bucket is started.
   */
  async addition(day: string, entry: DayEntry): Promise<{ key: string; value: unknown }[]> {
    const count = await this.count(day);
    const current = count === 0 ? [] : await this.bucket(day, count);
    const writes: { key: string; value: unknown }[] = [];
    if (count === 0 || current.length >= BUCKET_SIZE) {
      writes.push({ key: countKey(day), value: count + 1 }, { key: bucketKey(day, count + 1), value: [entry] });
    } else {
      writes.push({ key: bucketKey(day, count), value: [...current, entry] });
    }
    return writes;
  }

  /** Records that `day` has entries (once per day). */
  async noteDay(day: string): Promise<void> {
    await this.locks.run(DAYS_KEY, async () => {
      const days = await this.days();
      if (!days.includes(day)) await this.keyv.set(DAYS_KEY, [...days, day].sort());
    });
  }

  /** Days that have entries, oldest first. */
  async days(): Promise<string[]> {
    return parseRecord(daysSchema, await this.keyv.get(DAYS_KEY), () => [], this.logger, DAYS_KEY);
  }

  /**
   * Runs `sift` over every entry of `day` (under the day's lock) and keeps those it returns; a day
   * left empty is forgotten. Returns what `sift` returned besides the entries to keep.
   */
  async rewriteDay<T>(day: string, sift: (entries: DayEntry[]) => Promise<{ keep: DayEntry[]; result: T }>): Promise<T> {
    const { result, emptied } = await this.locks.run(countKey(day), async () => {
      const count = await this.count(day);
      const buckets = [bucketKey(day, 0), ...Array.from({ length: count }, (_unused, index) => bucketKey(day, index + 1))];
      const entries = (await Promise.all(buckets.map((key) => this.read(key)))).flat();
      const { keep, result } = await sift(entries);
      await this.keyv.delete([...buckets, countKey(day)]);
      const chunks = Array.from({ length: Math.ceil(keep.length / BUCKET_SIZE) }, (_unused, index) => keep.slice(index * BUCKET_SIZE, (index + 1) * BUCKET_SIZE));
      if (chunks.length > 0) {
        await this.keyv.setMany([{ key: countKey(day), value: chunks.length }, ...chunks.map((chunk, index) => ({ key: bucketKey(day, index + 1), value: chunk }))]);
      }
      return { result, emptied: keep.length === 0 };
    });
    if (emptied) {
      await this.locks.run(DAYS_KEY, async () => {
        const days = await this.days();
        if (days.includes(day)) await this.keyv.set(DAYS_KEY, days.filter((other) => other !== day));
      });
    }
    return result;
  }

  private async count(day: string): Promise<number> {
    return parseRecord(countSchema, await this.keyv.get(countKey(day)), () => 0, this.logger, countKey(day));
  }

  private async bucket(day: string, index: number): Promise<DayEntry[]> {
    return this.read(bucketKey(day, index));
  }

  private async read(key: string): Promise<DayEntry[]> {
    return parseRecord(entriesSchema, await this.keyv.get(key), () => [], this.logger, key);
  }
}

function countKey(day: string): string {
  return `link-day-buckets:${day}`;
}
function bucketKey(day: string, index: number): string {
  return index === 0 ? `link-day:${day}` : `link-day:${day}:${index}`;
}
