import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import type { Redis } from 'ioredis';
import { connectRedis } from '../coordination/redis-connection.js';
import { isRedisUrl, parseRedisUrl, type RedisTarget } from '../coordination/redis-url.js';
import { createLogger } from '../logger.js';
import { openStorage } from './keyv-store.js';
import { StorageUnreachableError } from './storage-error.js';
import { storageUrlProblem } from './storage-url.js';

/**
 * Copies every record of one installation's storage (STORAGE_URL) into another: what
 * `npm run migrate-storage -- --from sqlite://… --to redis://…` runs (src/migrate-storage.ts).
 *
 * Records are copied as stored: the string Keyv serialized (value and absolute expiry), under the
 * key layout openStorage uses (keyv-store.ts): `shopbot:<key>` in SQLite's `keyv` table,
 * `<prefix>::<key>` on Redis. Copying the stored string rather than re-encoding the value keeps
 * every record byte for byte, so a record already copied is recognised as identical, and a second
 * run changes nothing. A record that expires (checkout times, demo orders) keeps its expiry: Redis
 * gets the remaining time as the key's TTL; one already expired is skipped.
 *
 * Nothing is ever deleted from either side, and the source is only read.
 */

/** The kinds of records the bot keeps, for the counts an operator sees at the end. */
export const RECORD_KINDS = ['carts', 'nicks', 'guildSettings', 'linkRecords', 'linkIndexes', 'checkoutTimes', 'other'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** Key prefixes as the repositories in src/storage write them. */
export function kindOf(key: string): RecordKind {
  if (key.startsWith('cart:')) return 'carts';
  if (key.startsWith('nick:')) return 'nicks';
  if (key.startsWith('guild:')) return 'guildSettings';
  if (key.startsWith('link:')) return 'linkRecords';
  // payment-link-record.ts and link-day-index.ts: by URL, by member, the guild's recent, by day.
  if (/^(link-url|links-of|links-recent|link-day|link-day-buckets):/.test(key) || key === 'link-days') return 'linkIndexes';
  if (key.startsWith('checkout-times:')) return 'checkoutTimes';
  return 'other';
}

export interface MigrationCounts {
  /** Records copied (or found already copied), by kind. */
  byKind: Record<RecordKind, number>;
  /** Guild settings that hold a guild's own (sealed) license. */
  guildLicenses: number;
  /** All records copied. */
  total: number;
  /** Records of the source already expired: not copied. */
  expired: number;
  /** Records the target did not have. */
  created: number;
  /** Records the target had with another value, now the source's. */
  replaced: number;
  /** Records the target already had exactly as the source (an earlier run copied them). */
  identical: number;
}

/** A sentence for the operator: the migration stopped, nothing more to show. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/** What is wrong with a storage URL given as `flag`, by the rules of STORAGE_URL; undefined when nothing. Never echoes the URL. */
export function storageUrlProblemOf(value: string | undefined, flag: string): string | undefined {
  if (value === undefined || value.trim() === '') return `${flag} is required (a STORAGE_URL: sqlite://<file> or redis://host:port/db)`;
  const problem = storageUrlProblem(value);
  return problem && `${flag} ${problem}`;
}

/** One record as stored: the bot's key (without namespace or prefix), the serialized string, and the time it has left. */
interface StoredRecord {
  key: string;
  raw: string;
  /** Milliseconds left; undefined for a record that never expires. */
  ttl: number | undefined;
}

/** A storage seen record by record, as the migration needs it. */
interface RecordStore {
  /** Where it is, for the operator: a file, or Redis' host/db and prefix; never a password. */
  readonly description: string;
  /** How many records it holds (expired ones included on SQLite, whose rows stay until read). */
  count(): Promise<number>;
  /** Every record, a page at a time, expired ones left out; `expired` counts those. */
  pages(pageSize: number, expired: () => void): AsyncIterable<StoredRecord[]>;
  /** The stored strings of those of `keys` it holds. */
  lookup(keys: string[]): Promise<Map<string, string>>;
  write(records: StoredRecord[]): Promise<void>;
  close(): Promise<void>;
}

const PAGE_SIZE = 500;

/** Opens `url` (given as `flag`) for the migration; a problem is thrown as one MigrationError sentence naming the flag. */
export async function openRecordStore(url: string, flag: string, role: 'source' | 'target'): Promise<RecordStore> {
  const problem = storageUrlProblemOf(url, flag);
  if (problem) throw new MigrationError(problem);
  if (isRedisUrl(url)) {
    const target = parseRedisUrl(url) as RedisTarget;
    try {
      // Opened first as the bot opens it, so what the bot would refuse (Redis unreachable, a database
      // it cannot select) is refused here with the bot's own sentence, before anything is read or written.
      await (await openStorage(url)).close();
      // A silent logger: the connection's own warnings are for the bot's log, not this command's output.
      return new RedisRecords(await connectRedis(target, createLogger('silent'), 'migrate-storage'), target);
    } catch (error) {
      // The same sentence the bot gives for an unreachable STORAGE_URL, naming the flag the operator typed instead.
      if (error instanceof StorageUnreachableError) throw new MigrationError(error.message.replaceAll('STORAGE_URL', flag));
      throw error;
    }
  }
  const file = url.replace(/^sqlite:\/\//, '');
  // A mistyped source path must not be answered with "0 records" from a fresh empty file.
  if (role === 'source' && file !== ':memory:' && !existsSync(file)) throw new MigrationError(`${flag}: there is no file ${file}`);
  if (role === 'target' && file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
  const sqlite = new KeyvSqlite({ uri: `sqlite://${file}`, busyTimeout: 10_000 });
  try {
    // As openStorage does: the bot later opens the file in the same mode.
    if (role === 'target') await sqlite.query('PRAGMA journal_mode = WAL');
    await sqlite.query('SELECT 1');
  } catch (error) {
    throw new MigrationError(`${flag}: cannot open ${file} as SQLite (${(error as { code?: string }).code ?? (error as Error).message})`);
  }
  return new SqliteRecords(sqlite, file);
}

/**
 * Copies every record of `from` into `to`. Before writing into a target that already holds
 * records, it checks that none of them differs from the source's: they would be the bot's own
 * newer writes on the target (it ran there since an earlier copy), which a copy would overwrite
 * with older ones. Then nothing is written unless `replace` is set. Records of the target that
 * the source does not have are never touched.
 */
export async function migrateStorage(options: {
  from: string;
  to: string;
  replace?: boolean;
  /** Told before the copy starts: what is copied where, and what the target holds. */
  onStart?: (plan: { source: string; target: string; sourceRecords: number; targetRecords: number }) => void;
  onProgress?: (copied: number, total: number) => void;
}): Promise<MigrationCounts> {
  if (options.from.trim() === options.to.trim() && options.from.trim() !== '') {
    throw new MigrationError('--from and --to name the same storage: nothing to copy');
  }
  const source = await openRecordStore(options.from, '--from', 'source');
  let target: RecordStore | undefined;
  try {
    target = await openRecordStore(options.to, '--to', 'target');
    const sourceRecords = await source.count();
    if (sourceRecords === 0) throw new MigrationError(`--from holds no shop bot records (${source.description}): is it the STORAGE_URL the bot used?`);
    const targetRecords = await target.count();
    options.onStart?.({ source: source.description, target: target.description, sourceRecords, targetRecords });

    if (targetRecords > 0 && !options.replace) {
      const check = await copy(source, target, { write: false });
      if (check.replaced > 0) {
        throw new MigrationError(
          `The target already holds ${group(check.replaced)} records that differ from the source's (the bot may have run on it since an earlier copy): ` +
            'nothing was written. Run again with --replace to overwrite those with the source\'s values (nothing else in the target is touched).',
        );
      }
    }
    return await copy(source, target, { write: true, onProgress: (copied) => options.onProgress?.(copied, sourceRecords) });
  } finally {
    await Promise.allSettled([source.close(), target?.close()]);
  }
}

async function copy(source: RecordStore, target: RecordStore, options: { write: boolean; onProgress?: (copied: number) => void }): Promise<MigrationCounts> {
  const counts: MigrationCounts = {
    byKind: Object.fromEntries(RECORD_KINDS.map((kind) => [kind, 0])) as Record<RecordKind, number>,
    guildLicenses: 0,
    total: 0,
    expired: 0,
    created: 0,
    replaced: 0,
    identical: 0,
  };
  for await (const page of source.pages(PAGE_SIZE, () => (counts.expired += 1))) {
    const existing = await target.lookup(page.map((record) => record.key));
    const changes: StoredRecord[] = [];
    for (const record of page) {
      const kind = kindOf(record.key);
      counts.byKind[kind] += 1;
      counts.total += 1;
      if (kind === 'guildSettings' && holdsLicense(record.raw)) counts.guildLicenses += 1;
      const before = existing.get(record.key);
      if (before === record.raw) {
        counts.identical += 1;
        continue;
      }
      if (before === undefined) counts.created += 1;
      else counts.replaced += 1;
      changes.push(record);
    }
    if (options.write && changes.length > 0) await target.write(changes);
    options.onProgress?.(counts.total + counts.expired);
  }
  return counts;
}

/** Whether a stored guild settings record holds the guild's own license (its presence only: the sealed value is never read). */
function holdsLicense(raw: string): boolean {
  try {
    const stored = JSON.parse(raw) as { value?: { license?: unknown } };
    return typeof stored.value?.license === 'object' && stored.value.license !== null;
  } catch {
    return false;
  }
}

/** The absolute expiry Keyv keeps beside every value (`{"value":…,"expires":…}`), if any. */
function expiresOf(raw: string): number | undefined {
  try {
    const expires = (JSON.parse(raw) as { expires?: unknown }).expires;
    return typeof expires === 'number' ? expires : undefined;
  } catch {
    return undefined;
  }
}

/** 20431 → "20 431": counts an operator reads at a glance. */
export function group(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** SQLite's `keyv` table, keys `shopbot:<key>` (the namespace openStorage gives Keyv). */
const NAMESPACE = 'shopbot:';
/** Every key of the namespace sorts between these two (';' follows ':'), so the primary key's index serves the range. */
const FIRST = NAMESPACE;
const AFTER_LAST = 'shopbot;';

class SqliteRecords implements RecordStore {
  readonly description: string;

  constructor(
    private readonly sqlite: KeyvSqlite,
    file: string,
  ) {
    this.description = `SQLite file ${file}`;
  }

  async count(): Promise<number> {
    const rows = (await this.sqlite.query('SELECT count(*) AS n FROM keyv WHERE key > ? AND key < ?', FIRST, AFTER_LAST)) as { n: number }[];
    return rows[0]?.n ?? 0;
  }

  async *pages(pageSize: number, expired: () => void): AsyncIterable<StoredRecord[]> {
    // Keyset paging: each page starts after the last key of the one before, so no page re-reads
    // the rows before it and memory holds one page whatever the installation's size.
    let after = FIRST;
    for (;;) {
      const rows = (await this.sqlite.query('SELECT key, value FROM keyv WHERE key > ? AND key < ? ORDER BY key LIMIT ?', after, AFTER_LAST, pageSize)) as {
        key: string;
        value: string;
      }[];
      if (rows.length === 0) return;
      after = rows.at(-1)!.key;
      const now = Date.now();
      const page: StoredRecord[] = [];
      for (const row of rows) {
        const expires = expiresOf(row.value);
        if (expires !== undefined && expires <= now) {
          expired();
          continue;
        }
        page.push({ key: row.key.slice(NAMESPACE.length), raw: row.value, ttl: expires === undefined ? undefined : expires - now });
      }
      yield page;
    }
  }

  async lookup(keys: string[]): Promise<Map<string, string>> {
    if (keys.length === 0) return new Map();
    const rows = (await this.sqlite.query(`SELECT key, value FROM keyv WHERE key IN (${keys.map(() => '?').join(', ')})`, ...keys.map((key) => NAMESPACE + key))) as {
      key: string;
      value: string;
    }[];
    return new Map(rows.map((row) => [row.key.slice(NAMESPACE.length), row.value]));
  }

  async write(records: StoredRecord[]): Promise<void> {
    // One statement per page: atomic, one WAL append. The expiry travels inside the stored string, as Keyv wrote it.
    await this.sqlite.query(
      `INSERT INTO keyv (key, value) VALUES ${records.map(() => '(?, ?)').join(', ')} ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      ...records.flatMap((record) => [NAMESPACE + record.key, record.raw]),
    );
  }

  async close(): Promise<void> {
    await this.sqlite.disconnect();
  }
}

/** Redis, keys `<prefix>::<key>` as Keyv's Redis adapter writes them (the prefix ends in ':', the adapter adds another). */
class RedisRecords implements RecordStore {
  readonly description: string;
  readonly #keyPrefix: string;

  constructor(
    private readonly client: Redis,
    target: RedisTarget,
  ) {
    this.#keyPrefix = `${target.prefix}:`;
    this.description = `Redis ${target.display}, prefix ${target.prefix.slice(0, -1)}`;
  }

  async count(): Promise<number> {
    let count = 0;
    for await (const keys of this.#scan(1000)) count += keys.length;
    return count;
  }

  async *pages(pageSize: number, expired: () => void): AsyncIterable<StoredRecord[]> {
    for await (const keys of this.#scan(pageSize)) {
      const pipeline = this.client.pipeline();
      for (const key of keys) pipeline.get(key).pttl(key);
      const replies = (await pipeline.exec()) ?? [];
      const page: StoredRecord[] = [];
      keys.forEach((key, index) => {
        const [getError, raw] = replies[index * 2] ?? [];
        const [ttlError, ttl] = replies[index * 2 + 1] ?? [];
        if (getError || ttlError) throw getError ?? ttlError;
        // Gone between SCAN and GET: it expired meanwhile.
        if (typeof raw !== 'string' || ttl === -2) return expired();
        page.push({ key: key.slice(this.#keyPrefix.length), raw, ttl: typeof ttl === 'number' && ttl > 0 ? ttl : undefined });
      });
      yield page;
    }
  }

  /** Unique keys of the prefix, about `pageSize` at a time (SCAN may return a key twice; it is counted once). */
  async *#scan(pageSize: number): AsyncIterable<string[]> {
    const seen = new Set<string>();
    let cursor = '0';
    do {
      const [next, found] = await this.client.scan(cursor, 'MATCH', `${this.#keyPrefix}*`, 'COUNT', pageSize);
      cursor = next;
      const fresh = found.filter((key) => !seen.has(key));
      for (const key of fresh) seen.add(key);
      if (fresh.length > 0) yield fresh;
    } while (cursor !== '0');
  }

  async lookup(keys: string[]): Promise<Map<string, string>> {
    if (keys.length === 0) return new Map();
    const values = await this.client.mget(keys.map((key) => this.#keyPrefix + key));
    const found = new Map<string, string>();
    keys.forEach((key, index) => {
      const value = values[index];
      if (typeof value === 'string') found.set(key, value);
    });
    return found;
  }

  async write(records: StoredRecord[]): Promise<void> {
    // A pipeline per page: one round trip for hundreds of records.
    const pipeline = this.client.pipeline();
    for (const record of records) {
      if (record.ttl === undefined) pipeline.set(this.#keyPrefix + record.key, record.raw);
      else pipeline.set(this.#keyPrefix + record.key, record.raw, 'PX', Math.max(1, Math.round(record.ttl)));
    }
    const replies = (await pipeline.exec()) ?? [];
    const failed = replies.find(([error]) => error);
    if (failed) throw failed[0];
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
