import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import type { Redis } from 'ioredis';
import { connectRedis } from '../coordination/redis-connection.js';
import { scanKeys } from '../coordination/redis-keys.js';
import { isRedisUrl, parseRedisUrl, type RedisTarget } from '../coordination/redis-url.js';
import { createLogger } from '../logger.js';
import { openStorage } from './keyv-store.js';
import { isUnreachableStorage } from './storage-error.js';
import { storageUrlProblem } from './storage-url.js';

/**
 * The two sides of a migration (migrate.ts), record by record: SQLite's `keyv` table and a Redis
 * prefix, each read a page at a time and written in batches, records kept as Keyv stored them.
 */
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
export interface StoredRecord {
  key: string;
  raw: string;
  /** Milliseconds left; undefined for a record that never expires. */
  ttl: number | undefined;
}

/** A storage seen record by record, as the migration needs it. */
export interface RecordStore {
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

export const PAGE_SIZE = 500;

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
      if (isUnreachableStorage(error)) throw new MigrationError(error.message.replaceAll('STORAGE_URL', flag));
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

/** The absolute expiry Keyv keeps beside every value (`{"value":…,"expires":…}`), if any. */
function expiresOf(raw: string): number | undefined {
  try {
    const expires = (JSON.parse(raw) as { expires?: unknown }).expires;
    return typeof expires === 'number' ? expires : undefined;
  } catch {
    return undefined;
  }
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
    for await (const found of scanKeys(this.client, `${this.#keyPrefix}*`, pageSize)) {
      const fresh = found.filter((key) => !seen.has(key));
      for (const key of fresh) seen.add(key);
      if (fresh.length > 0) yield fresh;
    }
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
