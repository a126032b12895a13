import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';
import type { Logger } from '../logger.js';

export interface Storage {
  readonly keyv: Keyv;
  /** What the admin status page shows: the adapter, never a credential. */
  readonly backend: string;
  close(): Promise<void>;
}

/**
 * Opens the Keyv store named by STORAGE_URL. Only SQLite is bundled: it needs nothing
 * installed beside the bot. The folder is created if missing, so a fresh checkout just runs.
 */
export async function openStorage(storageUrl: string, logger: Logger): Promise<Storage> {
  const file = storageUrl.replace(/^sqlite:\/\//, '');
  if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });

  const sqlite = new BatchingSqlite({ uri: `sqlite://${file}`, busyTimeout: 10_000 });
  // WAL keeps reads from waiting on writes and makes each write one append: carts change on
  // every click. A committed write survives a killed process in either journal mode.
  await sqlite.query('PRAGMA journal_mode = WAL');
  await sqlite.query('PRAGMA synchronous = NORMAL');

  const keyv = new Keyv({ store: sqlite, namespace: 'shopbot' });
  keyv.on('error', (error: unknown) => logger.error({ err: error }, 'storage error'));

  return {
    keyv,
    backend: 'sqlite',
    close: async () => {
      await keyv.disconnect();
    },
  };
}

/**
 * @keyv/sqlite writes keyv.setMany() one statement at a time. A payment link and its indexes are
 * written together on every checkout, when checkouts crowd in: here they are one upsert statement,
 * so one write (atomic, one WAL append) instead of one per key, and the callbacks behind it wait less.
 */
class BatchingSqlite extends KeyvSqlite {
  async setMany(entries: { key: string; value: unknown }[]): Promise<boolean[]> {
    if (entries.length === 0) return [];
    const rows = entries.map(() => '(?, ?)').join(', ');
    await this.query(
      `INSERT INTO ${this.opts.table} (key, value) VALUES ${rows} ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      ...entries.flatMap((entry) => [entry.key, entry.value]),
    );
    return entries.map(() => true);
  }
}

