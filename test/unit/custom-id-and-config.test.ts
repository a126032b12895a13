import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { decodeCustomId, encodeCustomId } from '../../src/discord/custom-id.js';
import { shortRef } from '../../src/services/short-ref.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';

describe('custom ids', () => {
  it('round-trips a route and fits Discord’s 100 characters at the deepest step', () => {
    const owner = '12345678901234567890';
    const refs = ['a', 'b', 'c', 'd'].map((id) => shortRef(`${id}-0f8e2c1a-5b7d-4e3f-9a1b-2c3d4e5f6a7b`));
    const id = encodeCustomId('shop', 'add', owner, ...refs, 99);
    expect(id.length).toBeLessThanOrEqual(100);
    expect(decodeCustomId(id)).toEqual({ scope: 'shop', action: 'add', owner, args: [...refs, '99'] });
    expect(decodeCustomId(encodeCustomId('panel', 'open', undefined))).toEqual({ scope: 'panel', action: 'open', owner: undefined, args: [] });
  });

  it('rejects anything that is not one of ours without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        const route = decodeCustomId(text);
        if (route) expect(text.startsWith('v1:')).toBe(true);
      }),
    );
    expect(decodeCustomId('v0:shop:add:1:a')).toBeUndefined();
    expect(decodeCustomId('v1:shop:add:not-a-user:a')).toBeUndefined();
    expect(decodeCustomId('v1:shop')).toBeUndefined();
  });
});

describe('configuration', () => {
  const valid = { DISCORD_TOKEN: 'token-value', SPACEIS_API_KEY: 'key-value' };

  it('applies the documented defaults', () => {
    expect(loadConfig(valid)).toEqual({
      ...valid,
      DISCORD_API_URL: 'https://discord.com/api',
      SPACEIS_API_URL: 'https://api.spaceis.pl',
      STORAGE_URL: 'sqlite://data/store.sqlite',
      LOG_LEVEL: 'info',
      CART_EXPIRY_DAYS: 30,
    });
    expect(loadConfig({ ...valid, CART_EXPIRY_DAYS: ' 7 ' }).CART_EXPIRY_DAYS).toBe(7);
  });

  it('explains a cart expiry that is not a whole number of days', () => {
    for (const value of ['0', 'soon', '2.5', '100000']) {
      expect(() => loadConfig({ ...valid, CART_EXPIRY_DAYS: value })).toThrow('CART_EXPIRY_DAYS must be a whole number of days from 1 to 3650');
    }
  });

  it('names every bad variable in one message and never echoes a secret', () => {
    let error: unknown;
    try {
      loadConfig({ DISCORD_TOKEN: '', SPACEIS_API_URL: 'ftp://x', LOG_LEVEL: 'loud', STORAGE_URL: 'redis://x', ENCRYPTION_KEY: 'short-secret' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('ENCRYPTION_KEY must be 32 random bytes');
    expect(message).not.toContain('short-secret');
    for (const name of ['DISCORD_TOKEN', 'SPACEIS_API_URL', 'LOG_LEVEL', 'STORAGE_URL']) expect(message).toContain(name);
  });
});

describe('catalogs', () => {
  it('have the same keys in English and Polish', () => {
    const keys = (value: object, prefix = ''): string[] =>
      Object.entries(value).flatMap(([key, inner]) =>
        inner && typeof inner === 'object' ? keys(inner as object, `${prefix}${key}.`) : [`${prefix}${key}`],
      );
    expect(keys(pl).sort()).toEqual(keys(en).sort());
  });
});
