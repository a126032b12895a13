import fc from 'fast-check';
import { pino } from 'pino';
import type * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { parseRecord, stringListSchema, stringPairListSchema, stringTripleListSchema } from '../../../src/storage/records.js';

const quiet = pino({ level: 'silent' });

/** What zod alone reads from `raw`: the schema's result, or the fallback. */
function byZod<T>(schema: z.ZodType<T>, raw: unknown, fallback: T): T {
  if (raw === undefined || raw === null) return fallback;
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : fallback;
}

/** Values near the lists' shape: lists of strings, of tuples of every width, with odd items among them. */
const nearLists = fc.oneof(
  fc.array(fc.string()),
  fc.array(fc.array(fc.string(), { maxLength: 4 })),
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }))),
  fc.jsonValue(),
);

describe('index lists read from storage', () => {
  for (const [name, schema] of [
    ['strings', stringListSchema()],
    ['pairs', stringPairListSchema()],
    ['triples', stringTripleListSchema()],
  ] as const) {
    it(`read the same as zod reads them, for any stored value (${name})`, () => {
      fc.assert(
        fc.property(nearLists, (raw) => {
          expect(parseRecord(schema as z.ZodType<unknown>, raw, () => 'fallback', quiet, 'key')).toEqual(byZod(schema as z.ZodType<unknown>, raw, 'fallback'));
        }),
        { numRuns: 3_000 },
      );
    });
  }
});
