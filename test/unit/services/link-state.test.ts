import { describe, expect, it } from 'vitest';
import { linkExpiresAt, linkState } from '../../../src/services/link-state.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('linkState', () => {
  it('is pending for less than the lifetime, then expired', () => {
    const link = { createdAt: T0 };
    expect(linkState(link, 24, T0)).toBe('pending');
    expect(linkState(link, 24, T0 + 24 * HOUR - 1)).toBe('pending');
    expect(linkState(link, 24, T0 + 24 * HOUR)).toBe('expired');
    expect(linkExpiresAt(link, 24)).toBe(T0 + 24 * HOUR);
  });

  it('follows the guild’s current lifetime: nothing about expiry is stored', () => {
    const link = { createdAt: T0 };
    expect(linkState(link, 24, T0 + 30 * HOUR)).toBe('expired');
    expect(linkState(link, 48, T0 + 30 * HOUR)).toBe('pending');
  });

  it('is revoked once withdrawn, whatever the time', () => {
    const link = { createdAt: T0, revoked: { by: '1', at: T0 + HOUR } };
    expect(linkState(link, 24, T0 + 2 * HOUR)).toBe('revoked');
    expect(linkState(link, 24, T0 + 90 * DAY)).toBe('revoked');
  });

  it('is what the store reported once a payment was matched: paid, failed or expired, whatever the lifetime', () => {
    const matched = (status: 'pending' | 'paid' | 'failed' | 'expired') => ({ createdAt: T0, payment: { status, transactionId: 'tx', matchedAt: T0 + HOUR } });
    expect(linkState(matched('paid'), 24, T0 + 2 * HOUR)).toBe('paid');
    expect(linkState(matched('paid'), 24, T0 + 60 * DAY)).toBe('paid');
    expect(linkState(matched('failed'), 24, T0 + 2 * HOUR)).toBe('failed');
    expect(linkState(matched('expired'), 24, T0 + 2 * HOUR)).toBe('expired');
    // A payment under way at the shop: still pending, and expired after the lifetime like any other.
    expect(linkState(matched('pending'), 24, T0 + 2 * HOUR)).toBe('pending');
    expect(linkState(matched('pending'), 24, T0 + 25 * HOUR)).toBe('expired');
  });

  it('shows a paid link as paid even when withdrawn (the money was taken); otherwise withdrawn wins', () => {
    const revoked = { by: '1', at: T0 + HOUR };
    expect(linkState({ createdAt: T0, revoked, payment: { status: 'paid' as const, transactionId: 'tx', matchedAt: T0 } }, 24, T0 + 2 * HOUR)).toBe('paid');
    expect(linkState({ createdAt: T0, revoked, payment: { status: 'failed' as const, transactionId: 'tx', matchedAt: T0 } }, 24, T0 + 2 * HOUR)).toBe('revoked');
  });
});
