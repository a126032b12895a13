import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { inProcessCoordination } from '../../../src/coordination/in-process.js';
import { maskCode, withoutCode } from '../../../src/services/vouchers.js';
import { VoucherAttempts } from '../../../src/storage/voucher-attempts.js';

describe('maskCode', () => {
  it('keeps the last three characters only', () => {
    expect(maskCode('WIOSNA-7QK2MZ')).toBe('•••2MZ');
    expect(maskCode('  abcd  ')).toBe('•••bcd');
    expect(maskCode('abc')).toBe('•••');
    expect(maskCode('')).toBe('•••');
  });

  it('masks a code the store echoes in its message', () => {
    expect(withoutCode('Voucher WIOSNA-7QK2MZ has already been used', 'WIOSNA-7QK2MZ')).toBe('Voucher •••2MZ has already been used');
    expect(withoutCode(undefined, 'X')).toBeUndefined();
  });
});

describe('VoucherAttempts', () => {
  const windows = (user: string) => [
    { key: `member:g:${user}`, limit: 2, spanMs: 60_000 },
    { key: 'guild:g', limit: 3, spanMs: 10_000 },
  ];

  it('counts an attempt in every window, or in none when one is full, and frees a place as the oldest ages out', async () => {
    const attempts = new VoucherAttempts(new Keyv(), inProcessCoordination().locks);
    expect(await attempts.admit(windows('a'), 0)).toEqual({ kind: 'admitted' });
    expect(await attempts.admit(windows('a'), 1_000)).toEqual({ kind: 'admitted' });
    expect(await attempts.admit(windows('a'), 2_000)).toEqual({ kind: 'full', window: 'member:g:a', retryAfterSeconds: 58 });
    expect(await attempts.admit(windows('b'), 2_000)).toEqual({ kind: 'admitted' });
    // The guild holds 3: a's two and b's one. c is refused by the guild, and nothing is counted for c.
    expect(await attempts.admit(windows('c'), 3_000)).toEqual({ kind: 'full', window: 'guild:g', retryAfterSeconds: 7 });
    expect(await attempts.admit(windows('c'), 10_000)).toEqual({ kind: 'admitted' });
    expect(await attempts.admit(windows('c'), 10_500)).toEqual({ kind: 'full', window: 'guild:g', retryAfterSeconds: 1 });
  });

  it('gives each of many simultaneous attempts its own place: never more than the limit', async () => {
    const attempts = new VoucherAttempts(new Keyv(), inProcessCoordination().locks);
    const results = await Promise.all(Array.from({ length: 10 }, (_, index) => attempts.admit([{ key: 'guild:g', limit: 4, spanMs: 60_000 }], index)));
    expect(results.filter((result) => result.kind === 'admitted')).toHaveLength(4);
  });
});
