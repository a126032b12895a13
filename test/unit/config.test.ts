import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

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
      DEMO_PORT: 8787,
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
      loadConfig({ DISCORD_TOKEN: '', SPACEIS_API_URL: 'ftp://x', LOG_LEVEL: 'loud', STORAGE_URL: 'mysql://x', ENCRYPTION_KEY: 'short-secret' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('ENCRYPTION_KEY must be 32 random bytes');
    expect(message).not.toContain('short-secret');
    for (const name of ['DISCORD_TOKEN', 'SPACEIS_API_URL', 'LOG_LEVEL', 'STORAGE_URL']) expect(message).toContain(name);
  });

  it('takes a redis:// storage URL with a database and a key prefix, and explains a bad one without echoing it', () => {
    expect(loadConfig({ ...valid, STORAGE_URL: 'redis://127.0.0.1:6379/2' }).STORAGE_URL).toBe('redis://127.0.0.1:6379/2');
    expect(loadConfig({ ...valid, STORAGE_URL: 'redis://:pw@redis.internal:6380/0?prefix=shop-eu' }).STORAGE_URL).toContain('prefix=shop-eu');
    for (const bad of ['redis://:hunter2@127.0.0.1:6379/not-a-db', 'redis://:hunter2@127.0.0.1:6379/0?prefix=a b', 'mysql://hunter2@db/x']) {
      let message = '';
      try {
        loadConfig({ ...valid, STORAGE_URL: bad });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^Invalid configuration:\n  - STORAGE_URL /);
      expect(message).not.toContain('hunter2');
    }
  });
});
