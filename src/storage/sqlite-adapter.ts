import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';

/**
 * Keyv's SQLite adapter as the bot opens it: WAL, one upsert statement for several records, and
 * an index on each row's expiry, so records written with a time to live are deleted by a sweep
 * (`sweepExpired`) instead of staying in the file until someone reads them.
 */

/**
 * Keyv keeps a record's expiry inside its stored value (`{"value":…,"expires":…}`); this reads it,
 * and is the expression of the index (a row that is not JSON has none, rather than failing writes).
 */
const EXPIRES = "(CASE WHEN json_valid(value) THEN json_extract(value, '$.expires') END)";
const EXPIRES_INDEX = 'keyv_expires';
/** Rows deleted per statement: a sweep never holds the file for long, whatever it has to delete. */
const SWEEP_BATCH = 500;

export async function openSqliteAdapter(storageUrl: string): Promise<SqliteAdapter> {
  const file = storageUrl.replace(/^sqlite:\/\//, '');
  if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
  const sqlite = new SqliteAdapter({ uri: `sqlite://${file}`, busyTimeout: 10_000 });
  // WAL keeps reads from waiting on writes and makes each write one append: carts change on
  // every click. A committed write survives a killed process in either journal mode.
  await sqlite.query('PRAGMA journal_mode = WAL');
  await sqlite.query('PRAGMA synchronous = NORMAL');
  // Built once, on the first start after an upgrade; read first, so a start needs no write when it exists.
  const indexes = (await sqlite.query('SELECT name FROM sqlite_master WHERE type = ? AND name = ?', 'index', EXPIRES_INDEX)) as unknown[];
  if (indexes.length === 0) await sqlite.query(`CREATE INDEX IF NOT EXISTS ${EXPIRES_INDEX} ON ${sqlite.opts.table} ${EXPIRES}`);
  return sqlite;
}

/**
 * @keyv/sqlite writes keyv.setMany() one statement at a time. A payment link and its indexes are
 * written together on every checkout, when checkouts crowd in: here they are one upsert statement,
 * so one write (atomic, one WAL append) instead of one per key, and the callbacks behind it wait less.
 */
export class SqliteAdapter extends KeyvSqlite {
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
