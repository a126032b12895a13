import { defaultDeserialize, defaultSerialize } from '@keyv/serialize';

/**
 * How a record is turned into the text storage keeps, and back: the same text as Keyv's own
 * serializer (@keyv/serialize), which every record written so far used, made without its cost.
 *
 * Keyv's serializer builds the text by concatenating strings one value at a time, and reads it with
 * `JSON.parse` and a reviver called for every value (to undo its two escapes: a string starting with
 * ':' is stored with one more ':', a Buffer as ':base64:…'). In a crowd of checkouts that was the
 * largest share of the bot's own JavaScript time and of what it allocated
 * (docs/performance.md). Plain `JSON.stringify` and `JSON.parse` give the same text and the same
 * values for every record without such a string; so:
 *
 * - writing: `JSON.stringify`, and only when its text holds a string starting with ':' (found by
 *   the pattern below) the record is written again by Keyv's serializer, escapes included;
 * - reading: `JSON.parse`, and only when the text may hold an escaped string, Keyv's reviver.
 *
 * A string starting with ':' shows in JSON text as `":` right after `{`, `[`, `:` or `,` (or at
 * the very start); inside a string a quote is escaped (`\"`), so the pattern cannot be met there.
 * A key starting with ':' matches too (Keyv does not escape keys): the slow path then gives the
 * same result, only slower. The bot stores no Buffers (records are JSON, checked by their
 * schemas); `JSON.stringify` would write one as `{"type":"Buffer",…}`, so a Buffer is refused
 * rather than stored in a shape Keyv's reader would not give back.
 */
const MAY_HOLD_ESCAPED_STRING = /(?:^|[{[:,])":/;

export function serializeRecord(data: unknown): string {
  const text = JSON.stringify(data ?? null);
  if (text === undefined) return 'null';
  if (MAY_HOLD_ESCAPED_STRING.test(text)) return defaultSerialize(data);
  if (text.includes('"type":"Buffer"') && containsBuffer(data)) throw new TypeError('storage records are JSON: a Buffer cannot be stored');
  return text;
}

export function deserializeRecord<Value>(text: string): Value {
  return (MAY_HOLD_ESCAPED_STRING.test(text) ? defaultDeserialize(text) : JSON.parse(text)) as Value;
}

function containsBuffer(value: unknown): boolean {
  if (Buffer.isBuffer(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(containsBuffer);
}
