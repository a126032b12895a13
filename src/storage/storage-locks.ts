import type { Locks } from '../coordination/coordination.js';
import { LockUnavailableError } from '../coordination/coordination-error.js';
import { StorageError } from './storage-error.js';

/**
 * Coordination's record locks as storage hands them to repositories and services: a lock Redis
 * could not grant is a write that did not happen (StorageError), so the member is told storage is
 * unavailable and nothing changed, as for any other failed write. Errors of the work itself pass as they are.
 */
export function storageLocks(locks: Locks): Locks {
  return {
    run: <T>(key: string, work: () => Promise<T>): Promise<T> =>
      locks.run(key, work).catch((error: unknown) => {
        throw error instanceof LockUnavailableError ? new StorageError('write', error.key, error) : error;
      }),
  };
}
