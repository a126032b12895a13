import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { maskCode, withoutCode } from '../../../src/services/vouchers.js';
import { VoucherAttempts } from '../../../src/storage/voucher-attempts.js';

describe('maskCode', () => {
  it('shows at most the last two characters, and none of a short code', () => {
    expect(maskCode('WIOSNA-7QK2MZ')).toBe('•••MZ');
    expect(maskCode('  abcdefg  ')).toBe('•••fg');
    expect(maskCode('abcdef')).toBe('•••');
    expect(maskCode('abc')).toBe('•••');
    expect(maskCode('')).toBe('•••');
  });

  it('masks a code the store echoes in its message', () => {
    expect(withoutCode('Voucher WIOSNA-7QK2MZ has already been used', 'WIOSNA-7QK2MZ')).toBe('Voucher •••MZ has already been used');
    expect(withoutCode(undefined, 'X')).toBeUndefined();
    // Whatever the case the store echoes it in.
    expect(withoutCode('VOUCHER WIOSNA-7QK2MZ USED; wiosna-7qk2mz', 'Wiosna-7qk2MZ')).toBe('VOUCHER •••MZ USED; •••MZ');
    expect(withoutCode('code a+b?c.d! used', 'a+b?c.d!')).toBe('code •••d! used');
  });
});

describe('VoucherAttempts', () => {
  const windows = (user: string) => [
    { key: `member:g:${user}`, limit: 2, spanMs: 60_000 },
    { key: 'guild:g', limit: 3, spanMs: 10_000 },
  ];
  const admitted = { kind: 'admitted', id: expect.any(String) };

  it('counts an attempt in every window, or in none when one is full, and frees a place as the oldest ages out', async () => {
    let now = 0;
    const attempts = new VoucherAttempts(new Keyv(), undefined, () => now);
    const at = (time: number, user: string) => {
      now = time;
      return attempts.admit(windows(user));
    };
    expect(await at(0, 'a')).toEqual(admitted);
    expect(await at(1_000, 'a')).toEqual(admitted);
    expect(await at(2_000, 'a')).toEqual({ kind: 'full', window: 'member:g:a', retryAfterSeconds: 58 });
    expect(await at(2_000, 'b')).toEqual(admitted);
    // The guild holds 3: a's two and b's one. c is refused by the guild, and nothing is counted for c.
    expect(await at(3_000, 'c')).toEqual({ kind: 'full', window: 'guild:g', retryAfterSeconds: 7 });
    expect(await at(10_000, 'c')).toEqual(admitted);
    expect(await at(10_500, 'c')).toEqual({ kind: 'full', window: 'guild:g', retryAfterSeconds: 1 });
  });

  it('gives each of many simultaneous attempts its own place: never more than the limit; a refunded one frees its place', async () => {
    const attempts = new VoucherAttempts(new Keyv(), undefined, () => 1_000);
    const guild = [{ key: 'guild:g', limit: 4, spanMs: 60_000 }];
    const results = await Promise.all(Array.from({ length: 10 }, () => attempts.admit(guild)));
    const taken = results.filter((result) => result.kind === 'admitted');
    expect(taken).toHaveLength(4);
    await attempts.refund(guild, taken[0]!.id);
    expect(await attempts.admit(guild)).toEqual(admitted);
    expect((await attempts.admit(guild)).kind).toBe('full');
  });

  it('counts a weight of several tries at once (codes generated), all or none', async () => {
    const attempts = new VoucherAttempts(new Keyv(), undefined, () => 0);
    const day = [{ key: 'generate:g', limit: 50, spanMs: 86_400_000 }];
    expect(await attempts.admit(day, 45)).toEqual(admitted);
    expect(await attempts.admit(day, 10)).toEqual({ kind: 'full', window: 'generate:g', retryAfterSeconds: 86_400 });
    expect(await attempts.admit(day, 5)).toEqual(admitted);
  });
});
