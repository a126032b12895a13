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
});
