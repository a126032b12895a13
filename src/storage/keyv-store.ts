import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import Keyv, { type KeyvStoreAdapter } from 'keyv';
import { isRedisUrl, parseRedisUrl } from '../coordination/redis-url.js';
import { guardAdapter } from './guarded-adapter.js';
import type { Logger } from '../logger.js';

export interface Storage {
  readonly keyv: Keyv;
  /** What the admin status page shows: the adapter, never a credential. */
  readonly backend: string;
  /**
   * Writes and reads back a probe record of this handle's own: false when storage cannot do either
   * right now. Calls while one is under way share it, so a probe never meets another's value.
   */
  probe(): Promise<boolean>;
  close(): Promise<void>;
}

/** Wraps the real store adapter; tests and benchmarks use it to fail or count storage calls. */
export type AdapterWrapper = (adapter: KeyvStoreAdapter) => KeyvStoreAdapter;

/**
 * A probe record outlives its process by this much at most on Redis (a killed process cannot delete
 * it); a handle deletes its own when it closes.
 */
const PROBE_TTL_MS = 10 * 60_000;

/**
 * Opens the Keyv store named by STORAGE_URL: SQLite (the default: nothing to install beside the
 * bot; the folder is created if missing, so a fresh checkout just runs) or Redis, which several
 * bot processes can share (docs/scaling-out.md). An unreachable Redis throws StorageUnreachableError.
 */
export async function openStorage(
  storageUrl: string,
  wrap?: AdapterWrapper,
  onFailure?: (operation: 'read' | 'write') => void,
  logger?: Logger,
): Promise<Storage> {
  let adapter: KeyvStoreAdapter;
  let backend: string;
  // Every key is `<namespace>:<key>` on SQLite (as since the first version); on Redis the adapter
  // writes `<prefix>::<key>`, the prefix of STORAGE_URL (default shopbot).
  let namespace = 'shopbot';
  if (isRedisUrl(storageUrl)) {
    const target = parseRedisUrl(storageUrl);
    if ('problem' in target) throw new Error(`STORAGE_URL ${target.problem}`);
    // Loaded only here: the Redis client adds a tenth of a second to every start on SQLite.
    const { openRedisAdapter } = await import('./redis-adapter.js');
    adapter = await openRedisAdapter(target, logger);
    backend = 'redis';
    namespace = target.prefix.slice(0, -1);
  } else {
    adapter = await openSqliteAdapter(storageUrl);
    backend = 'sqlite';
  }

  // Keyv's default turns a failed read into "no record" and a failed write into `false`: a guild
  // would silently lose its settings. Every failure throws instead (a StorageError, see
  // guarded-adapter.ts) and is logged once, by whoever answers the member.
  const keyv = new Keyv({
    store: guardAdapter(wrap ? wrap(adapter) : adapter, onFailure),
    namespace,
    // Redis' adapter adds the namespace itself; Keyv adding it again would write `shopbot::shopbot:…`.
    useKeyPrefix: backend === 'sqlite',
    throwOnErrors: true,
  });

  // Processes sharing storage each probe a key of their own (one shared key made overlapping
  // probes read each other's value and report working storage as failing).
  const probeKey = `storage-probe:${randomUUID()}`;
  let probing: Promise<boolean> | undefined;
  let probed = false;
  const probeOnce = async (): Promise<boolean> => {
    probed = true;
    try {
      const nonce = randomUUID();
      await keyv.set(probeKey, nonce, PROBE_TTL_MS);
      return (await keyv.get(probeKey)) === nonce;
    } catch {
      return false;
    }
  };

  return {
    keyv,
    backend,
    probe: () =>
      (probing ??= probeOnce().finally(() => {
        probing = undefined;
      })),
    close: async () => {
      await probing;
      if (probed) await keyv.delete(probeKey).catch(() => undefined);
      await keyv.disconnect();
    },
  };
}

async function openSqliteAdapter(storageUrl: string): Promise<KeyvStoreAdapter> {
  const file = storageUrl.replace(/^sqlite:\/\//, '');
  if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
  const sqlite = new BatchingSqlite({ uri: `sqlite://${file}`, busyTimeout: 10_000 });
  // WAL keeps reads from waiting on writes and makes each write one append: carts change on
  // every click. A committed write survives a killed process in either journal mode.
  await sqlite.query('PRAGMA journal_mode = WAL');
  await sqlite.query('PRAGMA synchronous = NORMAL');
  return sqlite;
}

/**
 * @keyv/sqlite writes keyv.setMany() one statement at a time. A payment link and its indexes are
 * written together on every checkout, when checkouts crowd in: here they are one upsert statement,
 * so one write (atomic, one WAL append) instead of one per key, and the callbacks behind it wait less.
 */
class BatchingSqlite extends KeyvSqlite {
  async setMany(entries: { key: string; value: unknown }[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map(() => '(?, ?)').join(', ');
    await this.query(
      `INSERT INTO ${this.opts.table} (key, value) VALUES ${rows} ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      ...entries.flatMap((entry) => [entry.key, entry.value]),
    );
  }
}

