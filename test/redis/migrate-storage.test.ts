import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { keyFingerprint, licenseId } from '../../src/security/license-id.js';
import { CartRepository, type StoredCart } from '../../src/storage/carts.js';
import { CheckoutTimes } from '../../src/storage/checkout-times.js';
import { GuildSettingsRepository } from '../../src/storage/guild-settings.js';
import { openStorage, type Storage } from '../../src/storage/keyv-store.js';
import { migrateStorage, MigrationError } from '../../src/storage/migrate.js';
import { NickRepository } from '../../src/storage/nicks.js';
import { dayOf } from '../../src/storage/payment-link-record.js';
import { LINK_RETENTION_DAYS, PaymentLinkRepository, type NewPaymentLink } from '../../src/storage/payment-links.js';
import { redisUrl, TEST_DB, testStorage } from '../support/redis.js';

/**
 * The migration, in-process: an installation written by the bot's own repositories on SQLite is
 * copied to Redis and read back through the same repositories there, as the bot would read it.
 */

const logger = createLogger('silent');
const DAY = 86_400_000;
const GUILD = '100000000000000001';
const OTHER_GUILD = '100000000000000002';
const BUYER = '200000000000000001';
/** A license fingerprint: remembered nicks are kept per shop. */
const SHOP = 'shop-fingerprint';
const LICENSE = licenseId('license-key-NEVER-LOG-ME-9f8e7d');
const GUILD_KEY = 'guild-own-license-key-SECRET-42';
const box = new SecretBox(Buffer.alloc(32, 7));

function repositories(storage: Storage) {
  return {
    carts: new CartRepository(storage.keyv, logger),
    nicks: new NickRepository(storage.keyv),
    settings: new GuildSettingsRepository(storage.keyv, logger, { secretBox: box }),
    // URLs sealed, as with ENCRYPTION_KEY set (issue 36): carried as stored, opened on the target with the same key.
    links: new PaymentLinkRepository(storage.keyv, logger, undefined, box),
    times: new CheckoutTimes(storage.keyv),
  };
}

const line = {
  variantId: 'variant-vip-30',
  quantity: 2,
  serverId: 'server-survival',
  categoryId: 'category-ranks',
  productId: 'product-vip',
  serverName: 'Survival',
  productName: 'VIP',
  variantName: '30 dni',
};

function link(index: number, createdAt: number, userId = BUYER): NewPaymentLink {
  return {
    guildId: GUILD,
    userId,
    nick: `Steve_${index}`,
    items: [{ variantId: line.variantId, quantity: 1, serverName: 'Survival', productName: 'VIP', variantName: '30 dni' }],
    url: `https://pay.example/order/${index}?sig=abc`,
    license: LICENSE,
    createdAt,
  };
}

describe('migrating storage from SQLite to Redis', () => {
  let dir: string;
  let sqliteUrl: string;
  let redis: ReturnType<typeof testStorage>;
  let opened: Storage[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shopbot-migrate-'));
    sqliteUrl = `sqlite://${join(dir, 'store.sqlite')}`;
    redis = testStorage('migrate');
  });

  afterEach(async () => {
    await Promise.all(opened.map((storage) => storage.close()));
    opened = [];
    await redis.cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(url: string): Promise<Storage> {
    const storage = await openStorage(url);
    opened.push(storage);
    return storage;
  }

  /** An installation as the bot leaves it: a cart, a nick, a guild with its own sealed license, links old and new, checkout times. */
  async function installation(now: number) {
    const sqlite = await open(sqliteUrl);
    const repos = repositories(sqlite);
    const cart: StoredCart = { license: LICENSE, lines: [line] };
    await repos.carts.write(GUILD, BUYER, cart);
    await repos.carts.write(OTHER_GUILD, BUYER, { license: LICENSE, lines: [{ ...line, quantity: 5 }] });
    await repos.nicks.set(SHOP, BUYER, 'Steve_123');
    await repos.settings.set(GUILD, {
      license: { sealed: box.seal(GUILD_KEY, GUILD), fingerprint: keyFingerprint(GUILD_KEY), setBy: BUYER, setAt: now },
      linkLifetimeHours: 48,
    });
    await repos.settings.set(OTHER_GUILD, { multiServerCart: true });
    // One link past retention (pruning must still find it on Redis, through the day index), and recent ones.
    const old = await repos.links.create(link(0, now - (LINK_RETENTION_DAYS + 5) * DAY));
    const recent = [];
    for (let index = 1; index <= 3; index += 1) recent.push(await repos.links.create(link(index, now - index * 60_000)));
    await repos.times.record(GUILD, BUYER, now - 10 * 60_000);
    await sqlite.close();
    opened = opened.filter((storage) => storage !== sqlite);
    return { old, recent };
  }

  it('copies carts, nicks, settings with their license, links with their indexes and checkout times; the bot reads them on Redis as on SQLite', async () => {
    const now = Date.now();
    const { old, recent } = await installation(now);

    const progress: [number, number][] = [];
    const counts = await migrateStorage({ from: sqliteUrl, to: redis.url, onProgress: (copied, total) => progress.push([copied, total]) });
    expect(counts.byKind).toEqual({
      carts: 2,
      nicks: 1,
      guildSettings: 2,
      linkRecords: 4,
      // Per link its URL entry; the member's list; the guild's recent list; two days' bucket counts,
      // buckets and lists of guilds (each day's index is the guild's own); the list of days.
      linkIndexes: 4 + 1 + 1 + 2 + 2 + 2 + 1,
      checkoutTimes: 1,
      licenseShops: 0,
      other: 0,
    });
    expect(counts.guildLicenses).toBe(1);
    expect(counts).toMatchObject({ total: 23, created: 23, replaced: 0, identical: 0, expired: 0 });
    expect(progress.at(-1)).toEqual([23, 23]);

    const onRedis = repositories(await open(redis.url));
    const onSqlite = repositories(await open(sqliteUrl));
    expect(await onRedis.carts.read(GUILD, BUYER)).toEqual(await onSqlite.carts.read(GUILD, BUYER));
    expect((await onRedis.carts.read(GUILD, BUYER)).lines).toEqual([line]);
    expect((await onRedis.carts.read(OTHER_GUILD, BUYER)).lines[0]!.quantity).toBe(5);
    expect(await onRedis.nicks.get(SHOP, BUYER)).toBe('Steve_123');

    const settings = await onRedis.settings.get(GUILD);
    expect(settings).toEqual(await onSqlite.settings.get(GUILD));
    expect(settings.linkLifetimeHours).toBe(48);
    // The sealed license still opens, bound to its guild: the copy is byte for byte.
    expect(box.open(settings.license!.sealed, GUILD)).toBe(GUILD_KEY);
    expect((await onRedis.settings.get(OTHER_GUILD)).multiServerCart).toBe(true);

    const page = await onRedis.links.listForMember(GUILD, BUYER, 0, 10);
    expect(page.total).toBe(4);
    expect(page.links.map((each) => each.id)).toEqual([...recent.map((each) => each.id)].reverse().concat(old.id));
    expect((await onRedis.links.findByUrl(GUILD, recent[1]!.url))?.id).toBe(recent[1]!.id);
    expect((await onRedis.links.listRecent(GUILD)).map((each) => each.id)).toEqual((await onSqlite.links.listRecent(GUILD)).map((each) => each.id));

    // The checkout cooldown carries over, and the record keeps its expiry (an hour from when it was written).
    expect(await onRedis.times.recent(GUILD, BUYER, now)).toEqual([now - 10 * 60_000]);
    const client = new Redis(`${redisUrl()}/${TEST_DB}`);
    try {
      const ttl = await client.pttl(`${redis.prefix}:checkout-times:${GUILD}:${BUYER}`);
      expect(ttl).toBeGreaterThan(59 * 60_000 - 30_000);
      expect(ttl).toBeLessThanOrEqual(60 * 60_000);
      expect(await client.pttl(`${redis.prefix}:cart:${GUILD}:${BUYER}`)).toBe(-1);
    } finally {
      client.disconnect();
    }

    // Pruning on Redis finds the old link through the copied day index, and removes it from the member's list.
    expect(await onRedis.links.prune(now)).toBe(1);
    expect(await onRedis.links.get(GUILD, old.id)).toBeUndefined();
    expect((await onRedis.links.listForMember(GUILD, BUYER, 0, 10)).total).toBe(3);
  });

  it('carries payment links with sealed URLs byte for byte: no URL in the clear on the target, and each still opens there', async () => {
    const now = Date.now();
    const { recent } = await installation(now);
    await migrateStorage({ from: sqliteUrl, to: redis.url });
    const sqlite = await open(sqliteUrl);
    const client = new Redis(`${redisUrl()}/${TEST_DB}`);
    try {
      for (const each of recent) {
        const onTarget = await client.get(`${redis.prefix}:link:${GUILD}:${each.id}`);
        expect(onTarget).toBe(await sqlite.keyv.opts.store.get(`${sqlite.keyv.opts.namespace}:link:${GUILD}:${each.id}`));
        expect(onTarget).toContain('sealedUrl');
        expect(onTarget).not.toContain(each.url);
        expect(onTarget).not.toContain('/order/');
      }
    } finally {
      client.disconnect();
    }
    const onRedis = repositories(await open(redis.url));
    for (const each of recent) expect((await onRedis.links.get(GUILD, each.id))?.url).toBe(each.url);
    expect((await onRedis.links.findByUrl(GUILD, recent[0]!.url))?.id).toBe(recent[0]!.id);
  });

  it('run twice, gives the same target and the same counts; the second run writes nothing', async () => {
    const now = Date.now();
    await installation(now);
    const first = await migrateStorage({ from: sqliteUrl, to: redis.url });
    const client = new Redis(`${redisUrl()}/${TEST_DB}`);
    try {
      const snapshot = async () => {
        const keys = (await client.keys(`${redis.prefix}*`)).sort();
        return { keys, values: keys.length > 0 ? await client.mget(keys) : [] };
      };
      const before = await snapshot();
      const second = await migrateStorage({ from: sqliteUrl, to: redis.url });
      expect(second.byKind).toEqual(first.byKind);
      expect(second).toMatchObject({ total: first.total, created: 0, replaced: 0, identical: first.total });
      expect(await snapshot()).toEqual(before);
    } finally {
      client.disconnect();
    }
  });

  it('refuses to overwrite records the bot changed on the target since the copy, unless told to replace them; never deletes the target\'s own', async () => {
    await installation(Date.now());
    await migrateStorage({ from: sqliteUrl, to: redis.url });
    const onRedis = repositories(await open(redis.url));
    // The bot ran on Redis meanwhile: a new nick, and a member the source never had.
    await onRedis.nicks.set(SHOP, BUYER, 'Alex_Newer');
    await onRedis.nicks.set(SHOP, '200000000000000099', 'Only_On_Redis');

    await expect(migrateStorage({ from: sqliteUrl, to: redis.url })).rejects.toThrow(
      "The target already holds 1 records that differ from the source's (the bot may have run on it since an earlier copy): nothing was written. Run again with --replace",
    );
    expect(await onRedis.nicks.get(SHOP, BUYER)).toBe('Alex_Newer');

    const replaced = await migrateStorage({ from: sqliteUrl, to: redis.url, replace: true });
    expect(replaced).toMatchObject({ replaced: 1, created: 0 });
    expect(await onRedis.nicks.get(SHOP, BUYER)).toBe('Steve_123');
    expect(await onRedis.nicks.get(SHOP, '200000000000000099')).toBe('Only_On_Redis');
  });

  it('with --replace, merges index lists: links issued on either side after the first copy stay listed, newest first, and are still pruned', async () => {
    // Noon UTC, so the links minutes apart share a day whatever the hour of the run.
    const now = Date.parse(dayOf(Date.now())) + 12 * 3_600_000;
    const { old, recent } = await installation(now);
    await migrateStorage({ from: sqliteUrl, to: redis.url });

    // The bot ran on Redis since the copy: a link now (the day the source's recent links have) and one
    // 40 days ago, a day the source's day index does not have.
    const onRedis = repositories(await open(redis.url));
    const issuedOnRedis = await onRedis.links.create(link(10, now));
    const dayOnlyOnRedis = await onRedis.links.create(link(11, now - 40 * DAY));
    // ...and on the SQLite file too (the operator went back to it for a while): one more link there.
    const sqlite = await open(sqliteUrl);
    const issuedOnSqlite = await repositories(sqlite).links.create(link(12, now - 30_000));
    await sqlite.close();
    opened = opened.filter((storage) => storage !== sqlite);

    await expect(migrateStorage({ from: sqliteUrl, to: redis.url })).rejects.toThrow(MigrationError);
    const merged = await migrateStorage({ from: sqliteUrl, to: redis.url, replace: true });

    // Newest first, as the repository keeps them, whichever side issued them.
    const newestFirst = [issuedOnRedis, issuedOnSqlite, recent[0]!, recent[1]!, recent[2]!, dayOnlyOnRedis, old].map((each) => each.id);
    expect(newestFirst.length).toBe(7);
    const page = await onRedis.links.listForMember(GUILD, BUYER, 0, 10);
    expect(page.links.map((each) => each.id)).toEqual(newestFirst);
    expect(page.total).toBe(7);
    expect((await onRedis.links.listRecent(GUILD)).map((each) => each.id)).toEqual(newestFirst);
    expect((await onRedis.links.listForMemberSince(GUILD, BUYER, now - 60_000, 10)).map((each) => each.id)).toEqual(newestFirst.slice(0, 3));
    // Merged, not replaced: the member's list, the guild's recent list, today's bucket of the guild's day
    // index. The list of days differs too, but holds every day of the source's: left as it is.
    expect(merged).toMatchObject({ merged: 3, replaced: 0 });

    // Run again: the target already lists every id of the source's, so nothing differs and nothing is written.
    expect(await migrateStorage({ from: sqliteUrl, to: redis.url })).toMatchObject({ merged: 0, replaced: 0, created: 0 });

    // The day only Redis had is still in the day index: pruning after its retention deletes that link (and the old one).
    expect(await onRedis.links.prune(dayOnlyOnRedis.createdAt + (LINK_RETENTION_DAYS + 1) * DAY)).toBe(2);
    expect(await onRedis.links.get(GUILD, dayOnlyOnRedis.id)).toBeUndefined();
    // Today's bucket holds the links of both sides: pruning far ahead deletes every one of them.
    expect(await onRedis.links.prune(now + (LINK_RETENTION_DAYS + 1) * DAY)).toBe(5);
    expect((await onRedis.links.listForMember(GUILD, BUYER, 0, 10)).total).toBe(0);
    expect(await onRedis.links.listRecent(GUILD)).toEqual([]);
  });

  it('names the flag and never the password when a URL is wrong or Redis cannot be reached, before reading anything', async () => {
    await installation(Date.now());
    const refused = (to: string, from = sqliteUrl) => migrateStorage({ from, to }).then(
      () => expect.fail('the migration should have refused'),
      (error: unknown) => {
        expect(error).toBeInstanceOf(MigrationError);
        return (error as Error).message;
      },
    );
    const unreachable = await refused('redis://admin:hunter2-SECRET@127.0.0.1:1/3');
    expect(unreachable).toMatch(/^--to: cannot reach Redis at 127\.0\.0\.1:1\/3 \(.*ECONNREFUSED.*\)\. Start Redis there or correct --to\.$/);
    expect(await refused('redis://admin:hunter2-SECRET@127.0.0.1:6379/x')).toBe('--to must end in a database number, e.g. redis://127.0.0.1:6379/0');
    expect(await refused('postgres://admin:hunter2-SECRET@db/shop')).toBe(
      '--to must be sqlite://<file> (e.g. sqlite://data/store.sqlite) or redis://host:port/db (e.g. redis://127.0.0.1:6379/0)',
    );
    expect(await refused(redis.url, `sqlite://${join(dir, 'missing.sqlite')}`)).toBe(`--from: there is no file ${join(dir, 'missing.sqlite')}`);
    expect(await refused(redis.url, `sqlite://${join(dir, 'store.sqlite')}?prefix=x`)).toMatch(/^--from: there is no file/);
  });
});
