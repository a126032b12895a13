import { describe, expect, it } from 'vitest';
import { parsePurchaseDate } from '../../../src/spaceis/purchase-date.js';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('the date of a purchase', () => {
  it('reads ISO 8601 with an offset or Z exactly', () => {
    expect(iso(parsePurchaseDate('2026-11-22T12:00:00Z'))).toBe('2026-11-22T12:00:00.000Z');
    expect(iso(parsePurchaseDate('2026-11-22T13:00:00+01:00'))).toBe('2026-11-22T12:00:00.000Z');
    expect(iso(parsePurchaseDate('2026-11-22T13:00:00.123456+0100'))).toBe('2026-11-22T12:00:00.123Z');
    expect(iso(parsePurchaseDate('2026-07-01T08:30-04:00'))).toBe('2026-07-01T12:30:00.000Z');
  });

  it('reads a date without an offset as Warsaw time, winter (+1) and summer (+2)', () => {
    expect(iso(parsePurchaseDate('2026-11-22 13:00:00'))).toBe('2026-11-22T12:00:00.000Z');
    expect(iso(parsePurchaseDate('2026-07-01 14:00:00'))).toBe('2026-07-01T12:00:00.000Z');
    expect(iso(parsePurchaseDate('2026-07-01T14:00:00'))).toBe('2026-07-01T12:00:00.000Z');
    expect(iso(parsePurchaseDate('2026-07-01 14:00'))).toBe('2026-07-01T12:00:00.000Z');
  });

  it('settles the hours around the DST changes', () => {
    // 29 March 2026: 02:00 → 03:00. 01:59 is still +1, 03:00 is +2.
    expect(iso(parsePurchaseDate('2026-03-29 01:59:00'))).toBe('2026-03-29T00:59:00.000Z');
    expect(iso(parsePurchaseDate('2026-03-29 03:00:00'))).toBe('2026-03-29T01:00:00.000Z');
    // 25 October 2026: 03:00 → 02:00; the repeated hour reads as the earlier of its two instants
    // (issue 28: before, it read as the later one, 01:30Z).
    expect(iso(parsePurchaseDate('2026-10-25 02:30:00'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(parsePurchaseDate('2026-10-25 02:00:00'))).toBe('2026-10-25T00:00:00.000Z');
    expect(iso(parsePurchaseDate('2026-10-25 01:59:00'))).toBe('2026-10-24T23:59:00.000Z');
    expect(iso(parsePurchaseDate('2026-10-25 04:00:00'))).toBe('2026-10-25T03:00:00.000Z');
  });

  it('reads Unix seconds and milliseconds, as numbers or digits', () => {
    expect(iso(parsePurchaseDate(1_795_000_000))).toBe(new Date(1_795_000_000_000).toISOString());
    expect(iso(parsePurchaseDate('1795000000'))).toBe(new Date(1_795_000_000_000).toISOString());
    expect(iso(parsePurchaseDate(1_795_000_000_123))).toBe(new Date(1_795_000_000_123).toISOString());
  });

  it('gives up on anything else, rather than guessing', () => {
    for (const value of ['yesterday', '', '22.11.2026 13:00', '2026-02-31 10:00:00', '2026-13-01 10:00:00', '2026-11-22 25:00:00', null, undefined, {}, -5, Number.NaN, true]) {
      expect(parsePurchaseDate(value), JSON.stringify(value)).toBeUndefined();
    }
  });
});
