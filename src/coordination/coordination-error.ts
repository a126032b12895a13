/**
 * Coordination's own failures. Coordination sits below storage (repositories take its locks), so
 * it never throws storage's errors: storage translates these where it uses coordination
 * (src/storage/storage-locks.ts, src/storage/redis-adapter.ts), and main.ts names the setting.
 */

/**
 * Redis could not grant a record lock (down, or a dead holder's lock outlived the wait): the work
 * did not run, so nothing was written.
 */
export class LockUnavailableError extends Error {
  override readonly name = 'LockUnavailableError';

  constructor(
    /** The record's lock key (ids only), for the log line. */
    readonly key: string,
    cause: unknown,
  ) {
    super(`record lock unavailable (${key})`, { cause });
  }
}

/**
 * The Redis STORAGE_URL names cannot be reached at start (down, wrong host): a setting to fix. The
 * message names the setting and the host, never a password.
 */
export class RedisUnreachableError extends Error {
  override readonly name = 'RedisUnreachableError';
}
