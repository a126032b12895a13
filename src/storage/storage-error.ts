import { RedisUnreachableError } from '../coordination/coordination-error.js';

/**
 * Storage could not be read or written. Repositories let it through instead of answering with a
 * default: a guild whose settings cannot be read has not lost its license, and a write that did
 * not happen must never be reported as done. Handlers tell the member "nothing was changed".
 */
export class StorageError extends Error {
  override readonly name = 'StorageError';

  constructor(
    readonly operation: 'read' | 'write',
    /** The record's key (ids only, never a secret or a URL), for the log line. */
    readonly key: string | undefined,
    cause: unknown,
  ) {
    super(`storage ${operation} failed${key ? ` (${key})` : ''}`, { cause });
  }

  /** Another process holds the SQLite file's lock (after the short busy wait, or since start): nothing is broken, only busy. */
  get busy(): boolean {
    return isBusy(this.cause);
  }
}

/** SQLite's answer while another connection holds the lock a statement needs. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

export function isStorageError(error: unknown): error is StorageError {
  return error instanceof StorageError;
}

/**
 * The storage STORAGE_URL names cannot be reached when the bot starts (Redis down, wrong host).
 * Unlike an outage later, this is a setting to fix: main.ts prints the message and exits non-zero.
 * The message names the setting and the host, never a password.
 */
export class StorageUnreachableError extends Error {
  override readonly name = 'StorageUnreachableError';
}

/** Either way the start fails for an unreachable STORAGE_URL: storage's own error, or coordination's (its Redis connection). */
export function isUnreachableStorage(error: unknown): error is Error {
  return error instanceof StorageUnreachableError || error instanceof RedisUnreachableError;
}
