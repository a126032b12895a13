import { existsSync, renameSync, rmSync } from 'node:fs';
import sqlite3 from 'sqlite3';

/**
 * A consistent copy of the bot's SQLite file, taken while the bot runs, and putting one back.
 *
 * A file copy (`cp`) of a live database in WAL mode is not a backup: the newest writes sit in the
 * `-wal` file beside it, and a copy made between the two files' writes can hold half of a write.
 * SQLite's online backup API copies every page in one step, inside one read transaction: the copy is
 * the whole database at one moment, the `-wal`'s writes included. The bot keeps its file in WAL mode,
 * where a reader never holds up a writer, so the bot's writes go on meanwhile. (Copying in several
 * steps would let the bot's writes in between restart the copy, for ever on a busy bot.)
 *
 * A restore goes the same way the other round, into the bot's file while no bot runs: the old file's
 * `-wal` and `-shm` are replaced with it, which a plain file copy over them would not do.
 */

/** sqlite3_backup_step's "every page that is left": the whole copy in one step (see above). */
const ALL_PAGES = -1;

export interface BackupOutcome {
  /** The database's pages copied (4 KiB each by default). */
  pages: number;
  ms: number;
}

export class SqliteBackupError extends Error {}

/** node-sqlite3's Backup (sqlite3_backup_*), which its type declarations leave out. */
interface SqliteBackup {
  readonly completed: boolean;
  readonly failed: boolean;
  readonly pageCount: number;
  step(pages: number, callback: (error: Error | null) => void): void;
  finish(callback: () => void): void;
}
type BackupStart = (filename: string, destName: string, sourceName: string, filenameIsDest: boolean, callback: (error: Error | null) => void) => SqliteBackup;

function open(file: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, mode, (error) => (error ? reject(new SqliteBackupError(`could not open ${file}: ${error.message}`)) : resolve(db)));
  });
}

function close(db: sqlite3.Database): Promise<void> {
  return new Promise((resolve) => db.close(() => resolve()));
}

/** Copies `from`'s main database into the file `to` (made or replaced), through SQLite's backup API. */
async function copyDatabase(from: string, to: string): Promise<BackupOutcome> {
  const started = performance.now();
  const source = await open(from, sqlite3.OPEN_READONLY);
  try {
    const pages = await new Promise<number>((resolve, reject) => {
      // filenameIsDest: `to` is written, `source` read.
      const start = (source as unknown as { backup: BackupStart }).backup.bind(source);
      const backup: SqliteBackup = start(to, 'main', 'main', true, (error) => {
        if (error) return reject(new SqliteBackupError(`could not start the copy into ${to}: ${error.message}`));
        backup.step(ALL_PAGES, (stepError) => {
          const total = backup.pageCount;
          if (stepError || !backup.completed) backup.finish(() => reject(new SqliteBackupError(`the copy into ${to} failed${stepError ? `: ${stepError.message}` : ''}`)));
          else backup.finish(() => resolve(total));
        });
      });
    });
    return { pages, ms: Math.round(performance.now() - started) };
  } finally {
    await close(source);
  }
}

/** Asks SQLite whether the file is a whole, readable database (PRAGMA integrity_check). */
export async function checkDatabase(file: string): Promise<void> {
  if (!existsSync(file)) throw new SqliteBackupError(`${file} does not exist`);
  const db = await open(file, sqlite3.OPEN_READONLY);
  try {
    const row = await new Promise<{ integrity_check?: string } | undefined>((resolve, reject) =>
      db.get('PRAGMA integrity_check', (error: Error | null, found: { integrity_check?: string } | undefined) => (error ? reject(new SqliteBackupError(`${file} is not a SQLite database the bot can read: ${error.message}`)) : resolve(found))),
    );
    if (row?.integrity_check !== 'ok') throw new SqliteBackupError(`${file} is damaged (SQLite's integrity check: ${row?.integrity_check ?? 'no answer'})`);
  } finally {
    await close(db);
  }
}

/**
 * Backs up the live database `from` into `to`: written beside it first and moved into place once
 * whole and checked, so an interrupted backup never leaves a half file under the backup's name.
 */
export async function backupSqlite(from: string, to: string): Promise<BackupOutcome> {
  if (!existsSync(from)) throw new SqliteBackupError(`${from} does not exist: is STORAGE_URL the bot's file?`);
  const partial = `${to}.partial`;
  rmSync(partial, { force: true });
  try {
    const outcome = await copyDatabase(from, partial);
    await checkDatabase(partial);
    renameSync(partial, to);
    return outcome;
  } finally {
    rmSync(partial, { force: true });
  }
}

/** Puts the backup `from` back as the bot's file `to` (no bot may run on it): checked first, then copied over it. */
export async function restoreSqlite(from: string, to: string): Promise<BackupOutcome> {
  await checkDatabase(from);
  return copyDatabase(from, to);
}
