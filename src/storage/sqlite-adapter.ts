import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import sqlite3 from 'sqlite3';
import type { Logger } from '../logger.js';
import { isNotWritable, notWritableError } from './storage-access.js';
import { isBusy } from './storage-error.js';
import { Coalesced } from './coalesced.js';
import { PreparedStatements } from './sqlite-statements.js';

/**
 * Keyv's SQLite adapter as the bot opens it: WAL, one upsert statement for several records, an
 * index on each row's expiry, so records written with a time to live are deleted by a sweep
 * (`sweepExpired`) instead of staying in the file until someone reads them, a short wait on another
 * process's lock, and a file locked at start opened as soon as it is free.
 */

/**
 * How long a statement waits for another process's lock (a backup, an operator's sqlite3 shell)
 * before failing: the member is told "storage is busy, nothing was changed" within about a second
 * instead of seeing nothing happen for ten.
 */
export const BUSY_TIMEOUT_MS = 1_000;
/** While the file is locked at start: the pause between two attempts to open it. */
const REOPEN_EVERY_MS = 1_000;

/**
 * Keyv keeps a record's expiry inside its stored value (`{"value":…,"expires":…}`); this reads it,
 * and is the expression of the index (a row that is not JSON has none, rather than failing writes).
 */
const EXPIRES = "(CASE WHEN json_valid(value) THEN json_extract(value, '$.expires') END)";
const EXPIRES_INDEX = 'keyv_expires';
/** Rows deleted per statement: a sweep never holds the file for long, whatever it has to delete. */
const SWEEP_BATCH = 500;

export interface SqliteOpenOptions {
  logger?: Logger | undefined;
  /**
   * When another process holds the file locked: start anyway (every read and write fails as busy
   * meanwhile) and open it as soon as the lock is gone. Without it, opening fails.
   */
  openWhenUnlocked?: boolean | undefined;
}

export async function openSqliteAdapter(storageUrl: string, options: SqliteOpenOptions = {}): Promise<SqliteAdapter> {
  const file = storageUrl.replace(/^sqlite:\/\//, '');
  try {
    if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
  } catch (error) {
    throw isNotWritable(error) ? notWritableError(file, error) : error;
  }
  const sqlite = new SqliteAdapter(file, options.logger);
  try {
    await sqlite.connection();
  } catch (error) {
    if (!options.openWhenUnlocked || !isBusy(error)) {
      await sqlite.disconnect();
      throw isNotWritable(error) ? notWritableError(file, error) : error;
    }
    options.logger?.warn({ storage: 'sqlite' }, 'storage is locked by another process: members are told it is busy; it opens as soon as the lock is gone');
    sqlite.openWhenUnlocked();
  }
  return sqlite;
}

/** One connection to the file, opened (WAL, the table, the expiry index) or not at all. */
interface Connection {
  all(sql: string, params: unknown[]): Promise<unknown[]>;
  close(): Promise<void>;
  /** Statements prepared since it opened: one per distinct SQL while they stay kept (PreparedStatements). */
  readonly statementsPrepared: number;
  /** Statements run since it opened. */
  readonly statementsRun: number;
}

/**
 * @keyv/sqlite opens its connection in its constructor and keeps it, opened or failed, for good. It
 * is given memory here, where opening never fails, and every statement goes through `query`,
 * replaced by a connection to the file that is opened on first use and opened again while opening
 * fails (the file was locked). Keyv's own methods (get, set, delete, …) run unchanged on it.
 *
 * @keyv/sqlite also writes keyv.setMany() one statement at a time. A payment link and its indexes
 * are written together on every checkout, when checkouts crowd in: here they are one upsert
 * statement, so one write (atomic, one WAL append) instead of one per key.
 */
export class SqliteAdapter extends KeyvSqlite {
  readonly #file: string;
  readonly #logger: Logger | undefined;
  #connecting: Promise<Connection> | undefined;
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(file: string, logger?: Logger) {
    super({ uri: 'sqlite://:memory:' });
    this.#file = file;
    this.#logger = logger;
    const closeMemory = this.close;
    this.query = async (sql: string, ...params: unknown[]) => (await this.connection()).all(sql, params);
    this.close = async () => {
      this.#closed = true;
      clearTimeout(this.#retry);
      await closeMemory();
      const open = await this.#connecting?.catch(() => undefined);
      await open?.close();
    };
  }

  /** The file's connection, opened now if it is not (one attempt at a time); rejects while it cannot be. */
  connection(): Promise<Connection> {
    if (this.#closed) return Promise.reject(new Error('storage is closed'));
    this.#connecting ??= connect(this.#file, this.opts.table ?? 'keyv', Number(this.opts.keySize ?? 255)).catch((error: unknown) => {
      this.#connecting = undefined;
      throw error;
    });
    return this.#connecting;
  }

  /** Statements prepared and run on the file's connection so far: what the tests read. */
  async statements(): Promise<{ prepared: number; run: number }> {
    const connection = await this.connection();
    return { prepared: connection.statementsPrepared, run: connection.statementsRun };
  }

  /**
   * @keyv/sqlite reads a record before deleting it (two statements): here one, which says whether it
   * was there; deletes asked while one is on its way go together (every checkout empties a cart).
   * A key deleted twice in one batch is said to have been there both times.
   */
  override delete(key: string): Promise<boolean> {
    return this.#deletes.ask(key);
  }

  override async deleteMany(keys: string[]): Promise<boolean> {
    if (keys.length === 0) return false;
    const rows = (await this.query(`DELETE FROM ${this.opts.table} WHERE key IN (SELECT value FROM json_each(?)) RETURNING key`, JSON.stringify(keys))) as unknown[];
    return rows.length > 0;
  }

  /** Tries to open the file every REOPEN_EVERY_MS until it opens (members' statements try too), and says so once. */
  openWhenUnlocked(): void {
    const attempt = () => {
      this.connection().then(
        () => this.#logger?.info({ storage: 'sqlite' }, 'storage opened'),
        (error: unknown) => {
          if (this.#closed) return;
          if (!isBusy(error)) this.#logger?.debug({ err: error }, 'storage still cannot be opened');
          this.#retry = setTimeout(attempt, REOPEN_EVERY_MS).unref();
        },
      );
    };
    this.#retry = setTimeout(attempt, REOPEN_EVERY_MS).unref();
  }

  /**
   * Reads and writes of one key asked while one of their kind is on its way, sent together as one
   * statement when it is back (coalesced.ts). One at a time each: the connection runs one
   * statement at a time anyway. Counted in the checkout crowd (one run each): 18 statements a checkout
   * before, 9.4 with reads and writes gathered, 3.6 with the guild's lists written together
   * (group-commit.ts), fewer with checks and deletes gathered too.
   */
  readonly #reads = new Coalesced<string, unknown>((keys) => this.getMany(keys), 1);
  readonly #writes = new Coalesced<{ key: string; value: unknown }, undefined>(async (entries) => {
    await this.setMany(entries);
    return entries.map(() => undefined);
  }, 1);

  readonly #deletes = new Coalesced<string, boolean>(async (keys) => {
    const rows = (await this.query(`DELETE FROM ${this.opts.table} WHERE key IN (SELECT value FROM json_each(?)) RETURNING key`, JSON.stringify(keys))) as { key: string }[];
    const deleted = new Set(rows.map((row) => row.key));
    return keys.map((key) => deleted.has(key));
  }, 1);

  override get<Value>(key: string): Promise<Value | undefined> {
    return this.#reads.ask(key) as Promise<Value | undefined>;
  }

  /** Whether a row is there (expired or not, as @keyv/sqlite's `has`), asked with the reads: a link's fresh id is checked on every checkout. */
  override async has(key: string): Promise<boolean> {
    return (await this.#reads.ask(key)) !== undefined;
  }

  /** Keyv keeps a record's expiry in its value: there is no time to live to pass on here. */
  override async set(key: string, value: unknown): Promise<void> {
    await this.#writes.ask({ key, value });
  }

  /** @keyv/sqlite finds each asked key among the rows by a scan of them all: here, one lookup each. */
  override async getMany<Value>(keys: string[]): Promise<(Value | undefined)[]> {
    if (keys.length === 0) return [];
    const rows = (await this.query(`SELECT key, value FROM ${this.opts.table} WHERE key IN (SELECT value FROM json_each(?))`, JSON.stringify(keys))) as { key: string; value: Value }[];
    const values = new Map(rows.map((row) => [row.key, row.value]));
    return keys.map((key) => values.get(key));
  }

  /**
   * One upsert for all the entries, in their order (a key given twice keeps its last value); the rows
   * go as one JSON parameter, so the statement is the same for any number of them and stays prepared.
   */
  async setMany(entries: { key: string; value: unknown }[]): Promise<void> {
    if (entries.length === 0) return;
    await this.query(
      // `WHERE true`: SQLite's grammar needs it between a SELECT and ON CONFLICT.
      `INSERT INTO ${this.opts.table} (key, value) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?) WHERE true ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      JSON.stringify(entries.map((entry) => [entry.key, entry.value])),
    );
  }

  /**
   * Deletes every row whose expiry is before `now`; returns how many. @keyv/sqlite deletes an
   * expired row only when it is read: a cart nobody opens again would stay forever. The index finds
   * the expired rows without reading the others (100 000 live carts cost nothing), and each
   * statement deletes at most SWEEP_BATCH of them.
   */
  async sweepExpired(now: number): Promise<number> {
    let deleted = 0;
    for (;;) {
      const rows = (await this.query(
        `DELETE FROM ${this.opts.table} WHERE key IN (SELECT key FROM ${this.opts.table} WHERE ${EXPIRES} < ? LIMIT ${SWEEP_BATCH}) RETURNING key`,
        now,
      )) as unknown[];
      deleted += rows.length;
      if (rows.length < SWEEP_BATCH) return deleted;
    }
  }
}

async function connect(file: string, table: string, keySize: number): Promise<Connection> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(file, (error) => (error ? reject(error) : resolve(opened)));
  });
  db.configure('busyTimeout', BUSY_TIMEOUT_MS);
  const statements = new PreparedStatements(db);
  // Opening's own statements run once: prepared, run and finalized, not kept.
  const once = (sql: string, params: unknown[] = []) => new Promise<unknown[]>((resolve, reject) => db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows))));
  const all = (sql: string, params: unknown[]) => statements.all(sql, params);
  const close = async () => {
    await statements.finalizeAll();
    await new Promise<void>((resolve, reject) => db.close((error) => (error ? reject(error) : resolve())));
  };
  try {
    // WAL keeps reads from waiting on writes and makes each write one append: carts change on
    // every click. A committed write survives a killed process in either journal mode.
    await once('PRAGMA journal_mode = WAL');
    await once('PRAGMA synchronous = NORMAL');
    await once(`CREATE TABLE IF NOT EXISTS ${table}(key VARCHAR(${keySize}) PRIMARY KEY, value TEXT )`);
    // Built once, on the first start after an upgrade; looked up first, so a start needs no write lock when it exists.
    const indexes = await once('SELECT name FROM sqlite_master WHERE type = ? AND name = ?', ['index', EXPIRES_INDEX]);
    if (indexes.length === 0) await once(`CREATE INDEX IF NOT EXISTS ${EXPIRES_INDEX} ON ${table} ${EXPIRES}`);
    return {
      all,
      close,
      get statementsPrepared() {
        return statements.prepared;
      },
      get statementsRun() {
        return statements.run;
      },
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
