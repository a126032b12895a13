import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import sqlite3 from 'sqlite3';
import type { Logger } from '../logger.js';
import { isNotWritable, notWritableError } from './storage-access.js';
import { isBusy } from './storage-error.js';

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

  /** @keyv/sqlite reads a record before deleting it (two statements): here one, which says whether it was there. */
  override async delete(key: string): Promise<boolean> {
    const rows = (await this.query(`DELETE FROM ${this.opts.table} WHERE key = ? RETURNING key`, key)) as unknown[];
    return rows.length > 0;
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

  /** @keyv/sqlite finds each asked key among the rows by a scan of them all: here, one lookup each. */
  override async getMany<Value>(keys: string[]): Promise<(Value | undefined)[]> {
    if (keys.length === 0) return [];
    const rows = (await this.query(`SELECT key, value FROM ${this.opts.table} WHERE key IN (SELECT value FROM json_each(?))`, JSON.stringify(keys))) as { key: string; value: Value }[];
    const values = new Map(rows.map((row) => [row.key, row.value]));
    return keys.map((key) => values.get(key));
  }

  async setMany(entries: { key: string; value: unknown }[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map(() => '(?, ?)').join(', ');
    await this.query(
      `INSERT INTO ${this.opts.table} (key, value) VALUES ${rows} ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      ...entries.flatMap((entry) => [entry.key, entry.value]),
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

/** Distinct statements kept prepared: Keyv's few, and the upserts of so many sizes of `setMany`. */
const MAX_PREPARED = 64;
/**
 * Copies of one statement prepared at most. sqlite3 runs a statement once at a time, each run a trip
 * to its thread pool and back through the event loop: with one copy, 200 members' reads of their carts
 * (one SQL) ran one after another, each waiting for the busy event loop's next turn. As many copies
 * as the pool has threads (libuv's default, 4) run side by side, as separate statements did.
 */
const COPIES_PER_STATEMENT = 4;

interface PreparedCopy {
  ready: Promise<sqlite3.Statement>;
  /** Runs started on it and not yet answered. */
  runs: number;
}

/**
 * Each statement prepared once and run again with new parameters. sqlite3's `Database.all` prepares,
 * runs and finalizes a statement per call: two trips to the thread pool and back, and the SQL parsed
 * again, for every read and write. When checkouts crowd in, those trips (each a thread woken, and the
 * event loop woken back) were the largest cost of storage to the bot (issue 39; docs/performance.md).
 *
 * sqlite3 resets a statement before each run, so one that finished holds no lock between runs. A copy
 * whose run failed is finalized and another prepared next time (a failed run may stop mid-way); one
 * whose preparing failed (the file locked, say) fails the runs waiting on it, and the next run
 * prepares the statement again.
 */
class PreparedStatements {
  readonly #bySql = new Map<string, PreparedCopy[]>();
  /** Statements prepared, and runs, since the connection opened (read by the tests). */
  prepared = 0;
  run = 0;

  constructor(private readonly db: sqlite3.Database) {}

  async all(sql: string, params: unknown[]): Promise<unknown[]> {
    const copy = this.#copyFor(sql);
    copy.runs += 1;
    try {
      const statement = await copy.ready;
      this.run += 1;
      return await new Promise<unknown[]>((resolve, reject) => {
        statement.all(params, (error: Error | null, rows: unknown[]) => {
          if (!error) return resolve(rows);
          this.#drop(sql, copy);
          void finalized(statement);
          reject(error);
        });
      });
    } finally {
      copy.runs -= 1;
    }
  }

  async finalizeAll(): Promise<void> {
    const copies = [...this.#bySql.values()].flat();
    this.#bySql.clear();
    await Promise.all(copies.map((copy) => copy.ready.then(finalized, () => undefined)));
  }

  /** An idle copy; else a new one while under COPIES_PER_STATEMENT; else the least busy. */
  #copyFor(sql: string): PreparedCopy {
    let copies = this.#bySql.get(sql);
    if (!copies) {
      if (this.#bySql.size >= MAX_PREPARED) this.#evictOldest();
      copies = [];
      this.#bySql.set(sql, copies);
    }
    let leastBusy: PreparedCopy | undefined;
    for (const copy of copies) {
      if (copy.runs === 0) return copy;
      if (!leastBusy || copy.runs < leastBusy.runs) leastBusy = copy;
    }
    if (leastBusy && copies.length >= COPIES_PER_STATEMENT) return leastBusy;
    const copy = this.#prepare(sql);
    copies.push(copy);
    return copy;
  }

  #prepare(sql: string): PreparedCopy {
    const copy: PreparedCopy = {
      runs: 0,
      ready: new Promise<sqlite3.Statement>((resolve, reject) => {
        const statement = this.db.prepare(sql, (error: Error | null) => {
          if (!error) return resolve(statement);
          // sqlite3 has finalized it; the next run prepares the statement again.
          this.#drop(sql, copy);
          reject(error);
        });
      }),
    };
    this.prepared += 1;
    return copy;
  }

  #drop(sql: string, copy: PreparedCopy): void {
    const copies = this.#bySql.get(sql);
    const at = copies?.indexOf(copy) ?? -1;
    if (at >= 0) copies!.splice(at, 1);
  }

  /** The statement kept longest goes; sqlite3 finalizes each copy after any run still queued on it. */
  #evictOldest(): void {
    const [sql, copies] = this.#bySql.entries().next().value as [string, PreparedCopy[]];
    this.#bySql.delete(sql);
    for (const copy of copies) copy.ready.then(finalized, () => undefined);
  }
}

const finalized = (statement: sqlite3.Statement) => new Promise<void>((resolve) => statement.finalize(() => resolve()));
