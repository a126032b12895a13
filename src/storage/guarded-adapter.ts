import type { KeyvStoreAdapter } from 'keyv';
import { StorageError } from './storage-error.js';

const READS = new Set(['get', 'getMany', 'has', 'hasMany']);
const WRITES = new Set(['set', 'setMany', 'delete', 'deleteMany', 'clear']);

/**
 * Wraps a Keyv store adapter so that every failed read or write rejects with a StorageError.
 * Keyv (with throwOnErrors) passes adapter errors through as they are; typing them here lets the
 * handlers tell a storage failure from a bug. An adapter that reports a write as `false` instead
 * of throwing is treated the same: the write did not happen.
 */
export function guardAdapter(adapter: KeyvStoreAdapter, onFailure?: (operation: 'read' | 'write') => void): KeyvStoreAdapter {
  return new Proxy(adapter, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || typeof value !== 'function') return value;
      const operation = READS.has(property) ? 'read' : WRITES.has(property) ? 'write' : undefined;
      if (!operation) return value;
      return async (...args: unknown[]) => {
        const key = typeof args[0] === 'string' ? args[0] : undefined;
        let result: unknown;
        try {
          result = await (value as (...inner: unknown[]) => unknown).apply(target, args);
        } catch (error) {
          onFailure?.(operation);
          throw new StorageError(operation, key, error);
        }
        if (property === 'set' && result === false) {
          onFailure?.('write');
          throw new StorageError('write', key, new Error('the adapter refused the write'));
        }
        return result;
      };
    },
  });
}
