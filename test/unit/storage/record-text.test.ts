import { defaultDeserialize, defaultSerialize } from '@keyv/serialize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deserializeRecord, serializeRecord } from '../../../src/storage/record-text.js';

/**
 * Records are stored as the same text Keyv's own serializer made in every earlier version, so a
 * store written before reads the same, and an earlier version (another process on one Redis, a
 * rollback) reads what this one writes.
 */
const colonStrings = fc.string().map((text) => `:${text}`);
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string(),
    colonStrings,
    fc.constantFrom(':', '::', ':base64:', '":', 'a":b', '[":]'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), colonStrings), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('the text of a stored record', () => {
  it('is the text Keyv’s serializer writes, for any record', () => {
    fc.assert(
      fc.property(values, fc.option(fc.integer({ min: 0 }), { nil: undefined }), (value, expires) => {
        const record = { value, expires };
        expect(serializeRecord(record)).toBe(defaultSerialize(record));
      }),
      { numRuns: 2_000 },
    );
  });

  it('reads back what Keyv’s serializer wrote, escapes undone, for any record', () => {
    fc.assert(
      fc.property(values, (value) => {
        const text = defaultSerialize({ value });
        expect(deserializeRecord(text)).toEqual(defaultDeserialize(text));
        expect(deserializeRecord<{ value: unknown }>(serializeRecord({ value })).value).toEqual(defaultDeserialize<{ value: unknown }>(text).value);
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps a member’s text that starts with a colon (a gift message ":) for you")', () => {
    const text = serializeRecord({ value: { message: ':) for you', lines: [':D'] } });
    expect(text).toBe('{"value":{"message":"::) for you","lines":["::D"]}}');
    expect(deserializeRecord(text)).toEqual({ value: { message: ':) for you', lines: [':D'] } });
  });

  it('refuses a Buffer instead of storing a shape that would not read back', () => {
    expect(() => serializeRecord({ value: { data: Buffer.from('x') } })).toThrow(/Buffer/);
  });
});
