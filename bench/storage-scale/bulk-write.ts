/**
 * Rows written in bulk: multi-row upserts in SQLite transactions, through the store's own connection,
 * with the keys and values Keyv itself would write.
 */
import type KeyvSqlite from '@keyv/sqlite';
import type { Storage } from '../../src/storage/keyv-store.js';

const ROWS_PER_STATEMENT = 400;
const ROWS_PER_TRANSACTION = 20_000;

/** Writes rows in transactions of multi-row upserts, through the store's own connection; `ttlMs` as Keyv would stamp it. */
export async function bulkWrite(storage: Storage, rows: AsyncIterable<[string, unknown]> | Iterable<[string, unknown]>, ttlMs?: number): Promise<number> {
  const keyv = storage.keyv;
  const store = keyv.store as KeyvSqlite;
  const table = (store.opts as { table?: string }).table ?? 'keyv';
  let written = 0;
  let pending: string[] = [];
  let inTransaction = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const placeholders = new Array(pending.length / 2).fill('(?, ?)').join(', ');
    await store.query(`INSERT INTO ${table} (key, value) VALUES ${placeholders} ON CONFLICT(key) DO UPDATE SET value = excluded.value`, ...pending);
    written += pending.length / 2;
    inTransaction += pending.length / 2;
    pending = [];
    if (inTransaction >= ROWS_PER_TRANSACTION) {
      await store.query('COMMIT');
      await store.query('BEGIN');
      inTransaction = 0;
    }
  };
  await store.query('BEGIN');
  for await (const [key, value] of rows) {
    const serialized = await keyv.serializeData(ttlMs === undefined ? { value } : { value, expires: Date.now() + ttlMs });
    pending.push(keyv._getKeyPrefix(key), serialized as string);
    if (pending.length >= ROWS_PER_STATEMENT * 2) await flush();
  }
  await flush();
  await store.query('COMMIT');
  return written;
}
