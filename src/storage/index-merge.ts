import * as z from 'zod';
import { recordKey } from './payment-link-record.js';
import { RECENT_LIMIT } from './payment-links.js';

/**
 * The records that are index lists (payment-links.ts, link-day-index.ts), and how the migration's
 * `--replace` merges them instead of overwriting them. Both sides may have added to an index since
 * a first copy (the bot issued links on the target, or ran on the source again): replacing the
 * target's list with the source's would drop the target's new links from their member's and their
 * guild's lists, and their day from the day index, so they would never be pruned. The merge is the
 * union of both lists; nothing is taken out of an index (an id whose record is gone is skipped by
 * the readers and dropped by the next prune).
 */
export type IndexRule =
  /** A member's links (`links-of:`), the guild's recent links (`links-recent:`): newest first by their records' creation, at most `limit`. */
  | { order: 'newest-first'; guildId: string; limit?: number }
  /** The days that have links (`link-days`): oldest first, as the pruning walks them. */
  | { order: 'sorted' }
  /** A day's guilds (`link-day-guilds:`), a bucket of a day's [guild, id] entries (`link-day:`): in the order added, which nobody reads by. */
  | { order: 'added' }
  /** How many buckets a guild's day has (`link-day-buckets:`): the larger, so every bucket of either side is still read. */
  | { order: 'count' };

/** The rule of `key` when its record is an index list; undefined for every other record (replaced whole, as before). */
export function indexRuleOf(key: string): IndexRule | undefined {
  const member = /^links-of:([^:]+):/.exec(key);
  if (member) return { order: 'newest-first', guildId: member[1]! };
  const recent = /^links-recent:([^:]+)$/.exec(key);
  if (recent) return { order: 'newest-first', guildId: recent[1]!, limit: RECENT_LIMIT };
  if (key === 'link-days') return { order: 'sorted' };
  if (key.startsWith('link-day-buckets:')) return { order: 'count' };
  if (key.startsWith('link-day-guilds:') || key.startsWith('link-day:')) return { order: 'added' };
  return undefined;
}

type IndexValue = string[] | [string, string][] | number;

const valueSchemas = {
  'newest-first': z.array(z.string()),
  sorted: z.array(z.string()),
  added: z.union([z.array(z.string()), z.array(z.tuple([z.string(), z.string()]))]),
  count: z.number().int().nonnegative(),
} satisfies Record<IndexRule['order'], z.ZodType<IndexValue>>;

/** Both sides' values of one index list, read from the strings Keyv stored. */
export interface IndexPair {
  rule: IndexRule;
  target: IndexValue;
  source: IndexValue;
  /** The target's stored string, whose other fields (the expiry) the merged value keeps. */
  targetRaw: string;
}

/** The pair when `key` is an index list and both stored strings hold one as the bot writes it; undefined otherwise (the record is replaced). */
export function indexPair(key: string, targetRaw: string, sourceRaw: string): IndexPair | undefined {
  const rule = indexRuleOf(key);
  if (!rule) return undefined;
  const target = valueSchemas[rule.order].safeParse(storedValue(targetRaw));
  const source = valueSchemas[rule.order].safeParse(storedValue(sourceRaw));
  if (!target.success || !source.success) return undefined;
  return { rule, target: target.data, source: source.data, targetRaw };
}

/** Whether the source holds anything the target's index lacks (else the target is left as it is). */
export function sourceAdds(pair: IndexPair): boolean {
  if (typeof pair.target === 'number' || typeof pair.source === 'number') return Number(pair.source) > Number(pair.target);
  const held = new Set(pair.target.map(itemKey));
  return pair.source.some((item) => !held.has(itemKey(item)));
}

/** The record keys whose creation times order the merged list (none for lists not ordered by them). */
export function recordKeysToOrder(pair: IndexPair): string[] {
  const { rule } = pair;
  if (rule.order !== 'newest-first') return [];
  return union(pair).map((id) => recordKey(rule.guildId, id as string));
}

/**
 * The stored string of the merged index: the target's items, then the source's it lacks, in the
 * order the readers expect. `createdAt` gives a link record's creation time by its key; ids
 * without a record go last, where the readers skip them.
 */
export function mergedRaw(pair: IndexPair, createdAt: (recordKey: string) => number | undefined): string {
  const { rule } = pair;
  let value: IndexValue;
  if (typeof pair.target === 'number' || typeof pair.source === 'number') {
    value = Math.max(Number(pair.target), Number(pair.source));
  } else if (rule.order === 'newest-first') {
    const time = (id: string) => createdAt(recordKey(rule.guildId, id)) ?? -Infinity;
    // Array.prototype.sort is stable: links created at the same time keep the target's order.
    const ordered = (union(pair) as string[]).sort((a, b) => time(b) - time(a));
    value = rule.limit === undefined ? ordered : ordered.slice(0, rule.limit);
  } else if (rule.order === 'sorted') {
    value = (union(pair) as string[]).sort();
  } else {
    value = union(pair) as IndexValue;
  }
  const stored = JSON.parse(pair.targetRaw) as Record<string, unknown>;
  return JSON.stringify({ ...stored, value });
}

/** A link record's creation time, from the string Keyv stored; undefined when it is not one. */
export function createdAtOf(raw: string | undefined): number | undefined {
  const createdAt = raw === undefined ? undefined : (storedValue(raw) as { createdAt?: unknown } | undefined)?.createdAt;
  return typeof createdAt === 'number' ? createdAt : undefined;
}

function union(pair: IndexPair): (string | [string, string])[] {
  const target = pair.target as (string | [string, string])[];
  const held = new Set(target.map(itemKey));
  return [...target, ...(pair.source as (string | [string, string])[]).filter((item) => !held.has(itemKey(item)))];
}

function itemKey(item: string | [string, string]): string {
  return typeof item === 'string' ? item : JSON.stringify(item);
}

/**
 * The value inside Keyv's stored string (`{"value":…,"expires":…}`). The ids, days and guild ids of
 * an index never start with ':', the one case where Keyv's serializer differs from plain JSON.
 */
function storedValue(raw: string): unknown {
  try {
    return (JSON.parse(raw) as { value?: unknown }).value;
  } catch {
    return undefined;
  }
}
