import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../../src/logger.js';
import { WebsiteBuyerStore } from '../../../../src/storage/website-buyers.js';
import { NickRepository } from '../../../../src/storage/nicks.js';
import { decideMatch, LATE_AFTER_MS, type OwnedLink, type SeenTransaction } from '../../../../src/services/payment-watch/matcher.js';
import { foreignUnpaidLinks } from '../../../../src/services/rewards/copycat-signs.js';
import { offerDigest } from '../../../../src/cart/price-changes.js';
import type { CartLine } from '../../../../src/cart/rules.js';

/**
 * Issue 36, "a copycat gets nothing": the pure rules behind the flows in test/flows/copycat.test.ts,
 * at their edges (exactly 2 hours, exactly 90 days, the purchase itself taken for a website one).
 */

const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);
const MINUTE = 60_000;
const DAY = 86_400_000;
const VIP = 'variant-vip-30';
const link: OwnedLink = { guildId: 'g1', linkId: 'A', userId: 'u1', nick: 'Steve_123', createdAt: T0, items: [{ variantId: VIP, quantity: 1 }] };
const purchaseAt = (madeAt: number): SeenTransaction => ({ id: 'tx', nick: 'steve_123', items: [{ variantId: VIP, quantity: 1 }], madeAt });

describe('one member’s link, thin evidence', () => {
  it('settles a purchase up to 2 hours after the link; later goes to staff', () => {
    expect(decideMatch(purchaseAt(T0 + 5 * MINUTE), [link])).toEqual({ kind: 'sole', link });
    expect(decideMatch(purchaseAt(T0 + LATE_AFTER_MS), [link])).toEqual({ kind: 'sole', link });
    expect(decideMatch(purchaseAt(T0 + LATE_AFTER_MS + 1), [link])).toEqual({ kind: 'ambiguous', candidates: [link], reason: 'late' });
  });

  it('sends a website buyer’s nick to staff when seen in the 90 days before the purchase, not the purchase itself nor older', () => {
    const at = T0 + 5 * MINUTE;
    expect(decideMatch(purchaseAt(at), [link], undefined, { websiteBuyerAt: at - 30 * DAY })).toEqual({ kind: 'ambiguous', candidates: [link], reason: 'website-buyer' });
    expect(decideMatch(purchaseAt(at), [link], undefined, { websiteBuyerAt: at })).toEqual({ kind: 'sole', link });
    expect(decideMatch(purchaseAt(at), [link], undefined, { websiteBuyerAt: at - 91 * DAY })).toEqual({ kind: 'sole', link });
    expect(decideMatch(purchaseAt(at), [link], undefined, {})).toEqual({ kind: 'sole', link });
  });

  it('keeps "several members" as the reason when two members’ links match, whatever else is known', () => {
    const other = { ...link, linkId: 'B', userId: 'u2' };
    const decision = decideMatch(purchaseAt(T0 + 3 * 60 * MINUTE), [link, other], undefined, { websiteBuyerAt: T0 - DAY });
    expect(decision).toMatchObject({ kind: 'ambiguous', reason: 'members' });
  });
});

describe('links for many nicks', () => {
  const paid = { id: 'P', nick: 'Own_Nick', createdAt: T0 };
  const other = (id: string, nick: string, createdAt = T0 - MINUTE, status?: 'paid' | 'pending') => ({ id, nick, createdAt, ...(status ? { payment: { status, transactionId: 't', matchedAt: 0 } } : {}) }) as Parameters<typeof foreignUnpaidLinks>[1][number];

  it('counts unpaid links with other nicks in the 24 hours before, never the member’s own nick (any case) or a paid one', () => {
    const recent = [paid, other('1', 'own_nick'), other('2', 'OWN_NICK'), other('3', 'Friend'), other('4', 'Victim', T0 - MINUTE, 'paid'), other('5', 'Old', T0 - DAY - 1), other('6', 'Pending', T0 - MINUTE, 'pending')];
    expect(foreignUnpaidLinks(paid, recent)).toBe(2);
  });
});

describe('the offer shown with "Continue with the new prices"', () => {
  const line = (variantId: string, quantity: number): CartLine => ({ variantId, quantity }) as CartLine;
  const priced = (entries: [string, number][]) => new Map(entries.map(([id, amount]) => [id, { id, prices: [{ method: 'p24', amountGrosze: amount, sms: false }] }] as const)) as never;

  it('is the same for the same lines and prices in any order, and differs on a price, a quantity or a line added', () => {
    const base = offerDigest([line('a', 1), line('b', 2)], priced([['a', 1000], ['b', 500]]));
    expect(offerDigest([line('b', 2), line('a', 1)], priced([['a', 1000], ['b', 500]]))).toBe(base);
    expect(base).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(offerDigest([line('a', 1), line('b', 2)], priced([['a', 1100], ['b', 500]]))).not.toBe(base);
    expect(offerDigest([line('a', 1), line('b', 3)], priced([['a', 1000], ['b', 500]]))).not.toBe(base);
    expect(offerDigest([line('a', 1), line('b', 2), line('c', 1)], priced([['a', 1000], ['b', 500], ['c', 100]]))).not.toBe(base);
  });
});

describe('what is remembered about nicks, per shop', () => {
  it('a website buyer’s nick is one shop’s (compared as Minecraft compares nicks)', async () => {
    const store = new WebsiteBuyerStore(new Keyv(), createLogger('silent'));
    await store.note('shop-a', 'Web_Buyer', T0, DAY);
    expect(await store.lastSeen('shop-a', 'WEB_BUYER')).toBe(T0);
    expect(await store.lastSeen('shop-b', 'Web_Buyer')).toBeUndefined();
  });

  it('a member’s remembered nick is one shop’s', async () => {
    const nicks = new NickRepository(new Keyv());
    await nicks.set('shop-a', 'u1', 'Own_Nick');
    expect(await nicks.get('shop-a', 'u1')).toBe('Own_Nick');
    expect(await nicks.get('shop-b', 'u1')).toBeUndefined();
  });
});
