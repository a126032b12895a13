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

  const sqlite = new KeyvSqlite({ uri: `sqlite://${file}`, busyTimeout: 10_000 });
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
