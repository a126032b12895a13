import { describe, expect, it } from 'vitest';
import { normalizeNick } from '../../../src/cart/nick.js';
import { estimateCart, lowestPrice, type PricedVariant } from '../../../src/cart/pricing.js';
import { formatPln } from '../../../src/i18n/index.js';

describe('Minecraft nick rule', () => {
  it.each(['Steve', 'abc', 'A_b_1234567890cd', '.BedrockGuy', '___'])('accepts %s', (nick) => {
    expect(normalizeNick(nick)).toBe(nick);
  });
  it.each(['ab', 'A_b_1234567890cde', 'Ste ve', 'Stéve', 'a.bc', '..abc', 'abc!', '', 'ab;c'])('refuses %j', (nick) => {
    expect(normalizeNick(nick)).toBeUndefined();
  });
  it('drops the spaces a phone keyboard adds', () => {
    expect(normalizeNick('  Steve ')).toBe('Steve');
  });
});

const variant = (id: string, prices: [string, number, boolean?][]): PricedVariant => ({
  id,
  prices: prices.map(([method, amountGrosze, sms]) => ({ method, name: method.toUpperCase(), amountGrosze, sms: sms ?? false })),
});

describe('prices', () => {
  it('takes the lowest non-SMS price', () => {
    expect(lowestPrice(variant('a', [['p24', 1050], ['sms', 500, true], ['paypal', 1100]]))).toBe(1050);
    expect(lowestPrice(variant('b', [['sms', 500, true]]))).toBeUndefined();
    expect(lowestPrice(variant('c', []))).toBeUndefined();
  });

  it('totals only the methods every line offers, SMS excluded, cheapest first', () => {
    const variants = new Map([
      ['a', variant('a', [['p24', 1050], ['paypal', 1100], ['sms', 100, true]])],
      ['b', variant('b', [['p24', 2000], ['blik', 1900]])],
    ]);
    expect(
      estimateCart(
        [
          { variantId: 'a', quantity: 2 },
          { variantId: 'b', quantity: 1 },
        ],
        variants,
      ),
    ).toEqual({ kind: 'totals', totals: [{ method: 'p24', name: 'P24', totalGrosze: 4100 }] });
    expect(estimateCart([{ variantId: 'a', quantity: 1 }, { variantId: 'b', quantity: 1 }], new Map([['a', variants.get('a')!], ['b', variant('b', [['blik', 1]])]]))).toEqual({
      kind: 'no-common-method',
    });
    expect(estimateCart([{ variantId: 'zzz', quantity: 1 }], variants)).toEqual({ kind: 'prices-unavailable' });
  });

  it('formats PLN the way each language writes it', () => {
    // Non-breaking spaces: Discord never wraps inside a Polish amount.
    expect(formatPln(1050, 'pl')).toBe('10,50\u00a0zł');
    expect(formatPln(1050, 'en')).toBe('PLN 10.50');
    expect(formatPln(123456789, 'pl')).toBe('1\u00a0234\u00a0567,89\u00a0zł');
    expect(formatPln(123456789, 'en')).toBe('PLN 1,234,567.89');
    expect(formatPln(5, 'en')).toBe('PLN 0.05');
  });
});
