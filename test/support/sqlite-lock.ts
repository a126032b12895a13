import sqlite3 from 'sqlite3';

/** A second connection to a SQLite file, as another process (a backup, an operator's sqlite3 shell) would hold it. */
export interface SqliteLock {
  /** Ends the transaction and closes the connection: the file is free again. */
  release(): Promise<void>;
}

/**
 * Opens `file` and begins an exclusive transaction on it: no one else can write (and, on a file not
 * in WAL mode, not even read) until `release()`. Resolves once the lock is held.
 */
export async function holdSqliteLock(file: string): Promise<SqliteLock> {
  const db = new sqlite3.Database(file);
  const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (error) => (error ? reject(error) : resolve())));
  await exec('BEGIN EXCLUSIVE');
  let released: Promise<void> | undefined;
  return {
    release() {
      released ??= exec('COMMIT').then(() => new Promise<void>((resolve, reject) => db.close((error) => (error ? reject(error) : resolve()))));
      return released;
    },
  };
}
