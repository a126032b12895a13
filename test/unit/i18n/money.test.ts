import { describe, expect, it } from 'vitest';
import { formatPln } from '../../../src/i18n/money.js';

const NBSP = '\u00a0';

describe('formatPln', () => {
  it('joins a Polish amount with non-breaking spaces, so Discord never wraps inside it', () => {
    expect(formatPln(123_450, 'pl')).toBe(`1${NBSP}234,50${NBSP}zł`);
    expect(formatPln(123_456_789, 'pl')).toBe(`1${NBSP}234${NBSP}567,89${NBSP}zł`);
    expect(formatPln(1_499, 'pl')).toBe(`14,99${NBSP}zł`);
    expect(formatPln(-5, 'pl')).toBe(`-0,05${NBSP}zł`);
    expect(formatPln(123_450, 'pl')).not.toMatch(/ /);
  });

  it('keeps English as it was', () => {
    expect(formatPln(123_450, 'en')).toBe('PLN 1,234.50');
  });
});
