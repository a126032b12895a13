import * as z from 'zod';
import type { Logger } from '../logger.js';

/**
 * Reads a stored record through its schema. A record that no longer fits (written by an older
 * version, or damaged) is replaced by the safe default with a warning instead of crashing a handler.
 */
export function parseRecord<T>(schema: z.ZodType<T>, raw: unknown, fallback: () => T, logger: Logger, key: string): T {
  if (raw === undefined || raw === null) return fallback();
  // The index lists read on every checkout: checked by hand, with zod's answer for anything else (below).
  if (plainChecks.get(schema)?.(raw)) return raw as T;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  logger.warn({ key, issues: parsed.error.issues.slice(0, 3).map((issue) => issue.message) }, 'stored record did not validate; using defaults');
  return fallback();
}

/**
 * Schemas whose valid records are plain lists of strings (or of string tuples) that the schema gives
 * back unchanged: a record that passes the hand check is the schema's result as it is read. zod
 * parsing of these lists was a tenth of what a crowd of checkouts allocated (every checkout reads the
 * guild's open links and its day's bucket, up to a few hundred entries). Anything the
 * hand check does not accept goes through zod as before, warnings included.
 */
const plainChecks = new WeakMap<z.ZodType, (raw: unknown) => boolean>();

/** A list of strings, read without zod when it is one. */
export function stringListSchema(): z.ZodArray<z.ZodString> {
  const schema = z.array(z.string());
  plainChecks.set(schema, isStringList);
  return schema;
}

/** A list of [string, string] entries (e.g. [guild, link]), read without zod when it is one. */
export function stringPairListSchema(): z.ZodType<[string, string][]> {
  const schema = z.array(z.tuple([z.string(), z.string()]));
  plainChecks.set(schema, (raw) => isTupleList(raw, 2));
  return schema;
}

/** A list of [string, string, string] entries (e.g. [guild, member, role]), read without zod when it is one. */
export function stringTripleListSchema(): z.ZodType<[string, string, string][]> {
  const schema = z.array(z.tuple([z.string(), z.string(), z.string()]));
  plainChecks.set(schema, (raw) => isTupleList(raw, 3));
  return schema;
}

function isTupleList(raw: unknown, width: number): boolean {
  if (!Array.isArray(raw)) return false;
  for (const entry of raw) if (!Array.isArray(entry) || entry.length !== width || !isStringList(entry)) return false;
  return true;
}

function isStringList(raw: unknown): boolean {
  if (!Array.isArray(raw)) return false;
  for (const item of raw) if (typeof item !== 'string') return false;
  return true;
}
