import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_MS, matchTransaction, sameItems, type SeenTransaction, type WatchedLink } from '../../../../src/services/payment-watch/matcher.js';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const MINUTE = 60_000;
const VIP = 'variant-vip-30';
const COINS = 'rng-370/coins+x%20?k=370';

function link(linkId: string, overrides: Partial<WatchedLink> = {}): WatchedLink {
  return { guildId: 'g1', linkId, nick: 'Steve_123', createdAt: T0, items: [{ variantId: VIP, quantity: 2 }, { variantId: COINS, quantity: 1 }], ...overrides };
}

function transaction(overrides: Partial<SeenTransaction> = {}): SeenTransaction {
  return { id: 'tx-1', nick: 'steve_123', items: [{ variantId: COINS, quantity: 1 }, { variantId: VIP, quantity: 2 }], madeAt: T0 + 5 * MINUTE, ...overrides };
}

describe('matching a transaction to a link', () => {
  it('matches the same nick in any case and the same items in any order, made after the link', () => {
    expect(matchTransaction(transaction(), [link('A')])?.linkId).toBe('A');
    expect(matchTransaction(transaction({ nick: 'STEVE_123' }), [link('A')])?.linkId).toBe('A');
  });

  it('matches nothing for another nick with the same items', () => {
    expect(matchTransaction(transaction({ nick: 'Alex_9' }), [link('A')])).toBeUndefined();
    expect(matchTransaction(transaction({ nick: 'Steve_1234' }), [link('A')])).toBeUndefined();
  });

  it('matches nothing for the same nick with other items, another quantity, an item more or fewer', () => {
    expect(matchTransaction(transaction({ items: [{ variantId: VIP, quantity: 2 }] }), [link('A')])).toBeUndefined();
    expect(matchTransaction(transaction({ items: [{ variantId: VIP, quantity: 3 }, { variantId: COINS, quantity: 1 }] }), [link('A')])).toBeUndefined();
    expect(
      matchTransaction(transaction({ items: [{ variantId: VIP, quantity: 2 }, { variantId: COINS, quantity: 1 }, { variantId: 'other', quantity: 1 }] }), [link('A')]),
    ).toBeUndefined();
    // Variant ids are opaque: compared byte for byte.
    expect(matchTransaction(transaction({ items: [{ variantId: VIP.toUpperCase(), quantity: 2 }, { variantId: COINS, quantity: 1 }] }), [link('A')])).toBeUndefined();
  });

  it('matches nothing whose nick or items the store did not say', () => {
    expect(matchTransaction(transaction({ nick: undefined }), [link('A')])).toBeUndefined();
    expect(matchTransaction(transaction({ items: undefined }), [link('A')])).toBeUndefined();
    expect(matchTransaction(transaction({ items: [] }), [link('A', { items: [] })])).toBeUndefined();
  });

  it('matches nothing made before the link, beyond a minute of clock skew', () => {
    expect(matchTransaction(transaction({ madeAt: T0 - 2 * MINUTE }), [link('A')])).toBeUndefined();
    expect(matchTransaction(transaction({ madeAt: T0 - CLOCK_SKEW_MS - 1 }), [link('A')])).toBeUndefined();
    expect(matchTransaction(transaction({ madeAt: T0 - CLOCK_SKEW_MS }), [link('A')])?.linkId).toBe('A');
    expect(matchTransaction(transaction({ madeAt: T0 - 30_000 }), [link('A')])?.linkId).toBe('A');
  });

  it('takes the newest identical link issued before the transaction', () => {
    const links = [link('OLD', { createdAt: T0 - 10 * MINUTE }), link('NEW', { createdAt: T0 }), link('LATER', { createdAt: T0 + 30 * MINUTE })];
    expect(matchTransaction(transaction(), links)?.linkId).toBe('NEW');
    expect(matchTransaction(transaction({ madeAt: T0 + 40 * MINUTE }), links)?.linkId).toBe('LATER');
  });

  it('counts a variant listed twice with both quantities', () => {
    expect(sameItems([{ variantId: VIP, quantity: 1 }, { variantId: VIP, quantity: 1 }], [{ variantId: VIP, quantity: 2 }])).toBe(true);
  });
});
