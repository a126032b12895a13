import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  const valid = { DISCORD_TOKEN: 'token-value', SPACEIS_API_KEY: 'key-value' };
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadConfig({ ...valid, ...env });
    } catch (error) {
      return (error as ConfigError).problems;
    }
    return [];
  };

  it('applies the documented defaults', () => {
    expect(loadConfig(valid)).toEqual({
      ...valid,
      DISCORD_API_URL: 'https://discord.com/api',
      SPACEIS_API_URL: 'https://api.spaceis.pl',
      STORAGE_URL: 'sqlite://data/store.sqlite',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      CART_EXPIRY_DAYS: 30,
      DEMO_PORT: 8787,
      DEMO_HOST: '127.0.0.1',
      SHARDS: 'auto',
      DISCORD_GLOBAL_RPS: 50,
      PAYMENT_POLL_SECONDS: 30,
      VOUCHER_CODES_PER_DAY: 50,
      STORE_WEBHOOK_INTENT: true,
      INSIGHTS: true,
    });
    expect(loadConfig({ ...valid, CART_EXPIRY_DAYS: ' 7 ' }).CART_EXPIRY_DAYS).toBe(7);
  });

  it('takes STORE_WEBHOOK_INTENT on or off (any case), on by default, and explains any other value', () => {
    expect(loadConfig({ ...valid, STORE_WEBHOOK_INTENT: ' OFF ' }).STORE_WEBHOOK_INTENT).toBe(false);
    expect(loadConfig({ ...valid, STORE_WEBHOOK_INTENT: 'on' }).STORE_WEBHOOK_INTENT).toBe(true);
    for (const value of ['yes', 'false', '0']) {
      expect(problemsOf({ STORE_WEBHOOK_INTENT: value }), value).toEqual([
        'STORE_WEBHOOK_INTENT must be on or off: on lets admins connect the store webhook (the bot then receives every message of its servers), off turns that off',
      ]);
    }
  });

  it('polls for payments every PAYMENT_POLL_SECONDS, 15 at the least: every poll draws on the shop’s rate limit', () => {
    expect(loadConfig({ ...valid, PAYMENT_POLL_SECONDS: '15' }).PAYMENT_POLL_SECONDS).toBe(15);
    expect(loadConfig({ ...valid, PAYMENT_POLL_SECONDS: ' 120 ' }).PAYMENT_POLL_SECONDS).toBe(120);
    for (const value of ['14', '0', '5.5', 'often', '3601']) {
      expect(problemsOf({ PAYMENT_POLL_SECONDS: value }), value).toEqual(['PAYMENT_POLL_SECONDS must be a whole number of seconds from 15 to 3600']);
    }
  });

  it('refuses a SPACEIS_API_URL ending in /v4, saying the bot adds /v4 itself', () => {
    for (const value of ['https://api.spaceis.pl/v4', 'https://api.spaceis.pl/v4/', 'http://127.0.0.1:8080/V4']) {
      expect(problemsOf({ SPACEIS_API_URL: value }), value).toEqual([
        'SPACEIS_API_URL must not end in /v4: the bot adds /v4 to every request itself, so write the address without it, e.g. https://api.spaceis.pl',
      ]);
    }
    expect(loadConfig({ ...valid, SPACEIS_API_URL: 'https://proxy.example.com/v4shop' }).SPACEIS_API_URL).toBe('https://proxy.example.com/v4shop');
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

  it('takes plain http:// API URLs only to this machine: the requests carry the bot token and the license key', () => {
    for (const name of ['SPACEIS_API_URL', 'DISCORD_API_URL']) {
      for (const local of ['http://127.0.0.1:8080', 'http://127.0.0.1:40123/api', 'http://localhost', 'http://LOCALHOST:3000/', 'http://[::1]:9000']) {
        expect(problemsOf({ [name]: local }), `${name}=${local}`).toEqual([]);
      }
      for (const secure of ['https://api.spaceis.pl', 'https://example.com:8443/base', 'https://10.0.0.5']) {
        expect(problemsOf({ [name]: secure }), `${name}=${secure}`).toEqual([]);
      }
      for (const clear of ['http://example.com', 'http://api.spaceis.pl/', 'http://10.0.0.5:8080', 'http://localhost.example.com', 'http://127.0.0.1.nip.io']) {
        const problems = problemsOf({ [name]: clear });
        expect(problems, `${name}=${clear}`).toHaveLength(1);
        expect(problems[0]).toMatch(new RegExp(`^${name} must use https://`));
        expect(problems[0]).toContain('http:// only for this machine (localhost, 127.0.0.1, [::1])');
      }
    }
    expect(loadConfig({ ...valid, SPACEIS_API_URL: 'http://localhost:8080/' }).SPACEIS_API_URL).toBe('http://localhost:8080');
  });

  it('takes DEMO_HOST, where the demo pay page listens (127.0.0.1 by default), and DEMO_PUBLIC_URL, the base of its links', () => {
    expect(loadConfig(valid)).toMatchObject({ DEMO_HOST: '127.0.0.1' });
    expect(loadConfig(valid).DEMO_PUBLIC_URL).toBeUndefined();
    const server = loadConfig({ ...valid, DEMO_HOST: ' 0.0.0.0 ', DEMO_PUBLIC_URL: 'https://shop.example.com/demo-page/' });
    expect(server).toMatchObject({ DEMO_HOST: '0.0.0.0', DEMO_PUBLIC_URL: 'https://shop.example.com/demo-page' });
    for (const host of ['::', '::1', 'localhost', '192.168.1.20', 'bot.internal']) expect(problemsOf({ DEMO_HOST: host }), host).toEqual([]);
    // Nothing secret goes to the page: http:// to any host is fine.
    expect(loadConfig({ ...valid, DEMO_PUBLIC_URL: 'http://203.0.113.7:8787' }).DEMO_PUBLIC_URL).toBe('http://203.0.113.7:8787');
  });

  it('refuses a DEMO_PUBLIC_URL that is not an absolute http(s) URL, and a DEMO_HOST that is not an address', () => {
    for (const bad of ['shop.example.com:8787', '/demo', 'ftp://shop.example.com', 'https://shop.example.com/?x=1', 'https://shop.example.com/#top', 'javascript:alert(1)']) {
      expect(problemsOf({ DEMO_PUBLIC_URL: bad }), bad).toEqual([
        'DEMO_PUBLIC_URL must be an absolute http(s) URL that members\' browsers open, e.g. https://shop.example.com or http://203.0.113.7:8787 (no ?query or #fragment)',
      ]);
    }
    for (const bad of ['http://0.0.0.0', '0.0.0.0:8787', 'my host']) {
      expect(problemsOf({ DEMO_HOST: bad }), bad).toEqual([
        'DEMO_HOST must be an address to listen on: 127.0.0.1 (this machine only, the default), 0.0.0.0 (every network interface) or one of this machine\'s addresses',
      ]);
    }
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


  describe('sharding', () => {
    it('runs every shard in this process by default, or the listed ones of SHARD_COUNT', () => {
      expect(loadConfig(valid)).toMatchObject({ SHARDS: 'auto' });
      expect(loadConfig(valid).SHARD_COUNT).toBeUndefined();
      expect(loadConfig({ ...valid, SHARDS: 'AUTO', SHARD_COUNT: '4' })).toMatchObject({ SHARDS: 'auto', SHARD_COUNT: 4 });
      expect(loadConfig({ ...valid, SHARDS: ' 2, 3 ', SHARD_COUNT: '4' })).toMatchObject({ SHARDS: [2, 3], SHARD_COUNT: 4 });
      expect(loadConfig({ ...valid, SHARDS: '0', SHARD_COUNT: '1' })).toMatchObject({ SHARDS: [0], SHARD_COUNT: 1 });
    });

    it('explains a shard list that is not one', () => {
      for (const value of ['all', '0;1', '0,,1', '-1', '1.5', '0,x']) {
        expect(problemsOf({ SHARDS: value, SHARD_COUNT: '4' }), value).toEqual([
          'SHARDS must be auto or a comma-separated list of shard ids (whole numbers), e.g. 0,1',
        ]);
      }
      expect(problemsOf({ SHARDS: '0,1,0', SHARD_COUNT: '4' })).toEqual(['SHARDS lists shard 0 more than once']);
    });

    it('needs SHARD_COUNT for a list, and every listed id below it', () => {
      expect(problemsOf({ SHARDS: '0,1' })).toEqual([
        'SHARD_COUNT is required when SHARDS lists shard ids: the number of shards across all processes, e.g. SHARDS=0,1 with SHARD_COUNT=4',
      ]);
      expect(problemsOf({ SHARDS: '1,2,3', SHARD_COUNT: '2' })).toEqual([
        'SHARDS lists shard 2, 3, but shard ids run from 0 to SHARD_COUNT - 1 (1)',
      ]);
      for (const value of ['0', 'two', '1.5', '-2']) {
        expect(problemsOf({ SHARD_COUNT: value }), value).toEqual(['SHARD_COUNT must be a whole number of shards, at least 1']);
      }
      // A bad count is reported once, not again as a mismatch with the list.
      expect(problemsOf({ SHARDS: '0,5', SHARD_COUNT: 'x' })).toEqual(['SHARD_COUNT must be a whole number of shards, at least 1']);
    });

    it('reports shard problems together with every other problem', () => {
      expect(problemsOf({ SHARDS: '3', SHARD_COUNT: '2', LOG_LEVEL: 'loud' }).map((problem) => problem.split(' ')[0])).toEqual([
        'LOG_LEVEL',
        'SHARDS',
      ]);
    });

    it('takes a share of Discord\'s 50 requests a second: DISCORD_GLOBAL_RPS from 1 to 10000', () => {
      expect(loadConfig({ ...valid, DISCORD_GLOBAL_RPS: '25' }).DISCORD_GLOBAL_RPS).toBe(25);
      for (const value of ['0', '10001', '12.5', 'fast']) {
        expect(problemsOf({ DISCORD_GLOBAL_RPS: value }), value).toEqual([
          'DISCORD_GLOBAL_RPS must be a whole number of requests per second from 1 to 10000 (Discord allows 50 per bot: with N processes, 50/N each)',
        ]);
      }
    });
  });

  describe('DEFAULT_LICENSE_GUILDS', () => {
    it('is unset by default: every Discord server may sell from the default license', () => {
      expect(loadConfig(valid).DEFAULT_LICENSE_GUILDS).toBeUndefined();
    });

    it('takes a comma-separated list of server ids (snowflakes), spaces allowed', () => {
      expect(loadConfig({ ...valid, DEFAULT_LICENSE_GUILDS: ' 123456789012345678, 987654321098765432 ,' }).DEFAULT_LICENSE_GUILDS).toEqual([
        '123456789012345678',
        '987654321098765432',
      ]);
    });

    it('names the variable and the entry that is not a server id', () => {
      for (const [value, entry] of [['123456789012345678,my-server', 'my-server'], ['12345', '12345'], ['123456789012345678;987654321098765432', '123456789012345678;987654321098765432']]) {
        expect(problemsOf({ DEFAULT_LICENSE_GUILDS: value! }), value).toEqual([
          `DEFAULT_LICENSE_GUILDS must be a comma-separated list of Discord server ids (17 to 20 digits: Developer Mode → right-click the server → Copy Server ID); "${entry}" is not one`,
        ]);
      }
      expect(problemsOf({ DEFAULT_LICENSE_GUILDS: ' , ' })).toEqual([
        'DEFAULT_LICENSE_GUILDS must be a comma-separated list of Discord server ids (17 to 20 digits: Developer Mode → right-click the server → Copy Server ID); it lists none',
      ]);
    });
  });
});
