import type { z } from 'zod';
import type { Logger } from '../logger.js';

/**
 * Reads a stored record through its schema. A record that no longer fits (written by an older
 * version, or damaged) is replaced by the safe default with a warning instead of crashing a handler.
 */
export function parseRecord<T>(schema: z.ZodType<T>, raw: unknown, fallback: () => T, logger: Logger, key: string): T {
  if (raw === undefined || raw === null) return fallback();
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  logger.warn({ key, issues: parsed.error.issues.slice(0, 3).map((issue) => issue.message) }, 'stored record did not validate; using defaults');
  return fallback();
}
