import { randomUUID } from 'node:crypto';
import Keyv, { type KeyvStoreAdapter } from 'keyv';
import { systemClock, type Clock } from '../clock.js';
import { isRedisUrl, parseRedisUrl } from '../coordination/redis-url.js';
import { keepExpiryOnClock } from './clocked-expiry.js';
import { guardAdapter } from './guarded-adapter.js';
import { serializeRecord, deserializeRecord } from './record-text.js';
import { openSqliteAdapter } from './sqlite-adapter.js';
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
  /**
   * Deletes the records whose time to live ended before `now` (the bot's clock); returns how many.
   * SQLite keeps such a record until it is read; Redis deletes it itself (nothing to do: 0).
   */
  sweepExpired(now: number): Promise<number>;
  close(): Promise<void>;
}

export interface StorageOptions {
  /** The bot's clock: records' expiry follows it (see clocked-expiry.ts). */
  clock?: Clock;
  /**
   * SQLite: when another process holds the file locked, start anyway and open it once the lock is
   * gone (the bot does; reads and writes fail as busy meanwhile). Otherwise opening fails.
   */
  openWhenUnlocked?: boolean;
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
 * bot processes can share (docs/scaling-out.md). An unreachable Redis throws StorageUnreachableError;
 * a SQLite file locked by another process is opened once free with `openWhenUnlocked`, else fails.
 */
export async function openStorage(
  storageUrl: string,
  wrap?: AdapterWrapper,
  onFailure?: (operation: 'read' | 'write') => void,
  logger?: Logger,
  options: StorageOptions = {},
): Promise<Storage> {
  const { clock = systemClock, openWhenUnlocked = false } = options;
  let adapter: KeyvStoreAdapter;
  let backend: string;
  let sweepExpired = async (_now: number): Promise<number> => 0;
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
    const sqlite = await openSqliteAdapter(storageUrl, { logger, openWhenUnlocked });
    sweepExpired = (now) => sqlite.sweepExpired(now);
    adapter = sqlite;
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
    // Keyv's own text, made and read without its cost (record-text.ts).
    serialize: serializeRecord,
    deserialize: deserializeRecord,
  });
  keepExpiryOnClock(keyv, clock);

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
    sweepExpired,
    close: async () => {
      await probing;
      if (probed) await keyv.delete(probeKey).catch(() => undefined);
      await keyv.disconnect();
    },
  };
}
