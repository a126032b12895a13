import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadDotEnv } from './env-file.js';
import { isRedisUrl } from './coordination/redis-url.js';
import { backupSqlite, restoreSqlite, SqliteBackupError } from './storage/sqlite-backup.js';
import { StorageHeldError, takeSqliteLease } from './storage/sqlite-lease.js';

/**
 * Backs up the bot's SQLite file while the bot runs, and puts a backup back (docs/running/backup.md):
 *
 *   npm run backup -- backups/store-2026-12-07.sqlite     (the bot may run)
 *   npm run restore -- backups/store-2026-12-07.sqlite    (stop the bot first)
 *
 * The file is STORAGE_URL's, read as the bot reads it (the environment, else .env in this folder).
 * A restore refuses while a bot holds the file (the bot's lease, storage/sqlite-lease.ts), and first keeps the file it replaces beside it (`<file>.before-restore`), so nothing is lost
 * by restoring the wrong backup. Redis is backed up with Redis' own tools (the same page says how).
 */

const USAGE = `Usage:
  npm run backup -- <backup file>     copies the bot's SQLite file (STORAGE_URL) into <backup file>; the bot may keep running
  npm run restore -- <backup file>    puts <backup file> back as the bot's file; stop the bot first
See docs/running/backup.md.`;

const out = (line: string) => process.stdout.write(`${line}\n`);
const fail = (line: string): never => {
  process.stderr.write(`${line}\n`);
  process.exit(1);
};

loadDotEnv();
const [verb, target, ...rest] = process.argv.slice(2);
if ((verb !== 'backup' && verb !== 'restore') || !target || rest.length > 0) fail(USAGE);
const storageUrl = process.env.STORAGE_URL || 'sqlite://data/store.sqlite';
if (isRedisUrl(storageUrl)) fail('STORAGE_URL is Redis: back it up with Redis itself (redis-cli --rdb <file>), as docs/running/backup.md says. This command copies the SQLite file.');
if (!storageUrl.startsWith('sqlite://')) fail('STORAGE_URL must be sqlite://<file> for this command (see docs/running/settings.md).');
const database = resolve(storageUrl.slice('sqlite://'.length));
const backupFile = resolve(target!);

try {
  if (verb === 'backup') {
    const { pages, ms } = await backupSqlite(database, backupFile);
    out(`Backed up ${database} into ${backupFile}: ${pages} pages in ${ms} ms, checked whole.`);
    out('Keep ENCRYPTION_KEY safe as long as this backup, in another place: without it the license keys in it cannot be read.');
  } else {
    if (!existsSync(backupFile)) fail(`${backupFile} does not exist.`);
    // The bot's own lease on its file: a running bot would mix its writes into the restored file, so
    // the restore holds the lease itself (no bot starts meanwhile) and refuses while a bot holds it.
    let lease: ReturnType<typeof takeSqliteLease>;
    try {
      lease = takeSqliteLease(`sqlite://${database}`);
    } catch (error) {
      if (error instanceof StorageHeldError) fail(`Nothing was changed: a bot is running on this file. Stop it first, then restore.\n${error.message}`);
      throw error;
    }
    try {
      const kept = `${database}.before-restore`;
      if (existsSync(database)) {
        await backupSqlite(database, kept);
        out(`The file it replaces is kept as ${kept}.`);
      }
      const { pages, ms } = await restoreSqlite(backupFile, database);
      out(`Restored ${backupFile} into ${database}: ${pages} pages in ${ms} ms. Start the bot with the same ENCRYPTION_KEY as when the backup was made.`);
    } finally {
      lease?.release();
    }
  }
} catch (error) {
  fail(error instanceof SqliteBackupError ? `Nothing was changed: ${error.message}.` : `The ${verb} stopped: ${(error as Error).message}.`);
}
