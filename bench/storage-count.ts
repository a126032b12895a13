/**
 * What the bot asks of storage, counted at the Keyv adapter boundary (the bot's Keyv calls the real
 * SQLite or Redis adapter through this): reads and writes (a `getMany` of n keys is n reads), and the
 * bytes of keys and values handed to the adapter or returned by it (values as Keyv serialized them).
 * Records of the payment watcher's registry (which must cost what is due, not what exists) are also
 * counted apart.
 */
import type { KeyvStoreAdapter } from 'keyv';

const READS = new Set(['get', 'getMany', 'has', 'hasMany']);
const WRITES = new Set(['set', 'setMany', 'delete', 'deleteMany', 'clear']);

/**
 * The registry's records: the list of watched licenses (`pay-licenses` in older versions, now in
 * buckets `pay-licenses:<n>`), a license's "listed" marker, the due-time slots, a license's guilds
 * with open links and each guild's open link ids.
 */
export const isRegistryKey = (key: string): boolean => /(^|:)pay-(licenses|listed:|due:|open-guilds:|open:)/.test(key);

export interface Counted {
  reads: number;
  writes: number;
  bytesRead: number;
  bytesWritten: number;
}

export const emptyCounted = (): Counted => ({ reads: 0, writes: 0, bytesRead: 0, bytesWritten: 0 });

export class StorageCount {
  readonly all: Counted = emptyCounted();
  readonly registry: Counted = emptyCounted();
  /** Licenses whose state (`pay-state:<license>`) was read: the licenses a round visited. */
  readonly statesRead = new Set<string>();

  snapshot(): { all: Counted; registry: Counted; visited: number } {
    return { all: { ...this.all }, registry: { ...this.registry }, visited: this.statesRead.size };
  }

  readonly wrap = (adapter: KeyvStoreAdapter): KeyvStoreAdapter =>
    new Proxy(adapter, {
      get: (target, property, receiver) => {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof property !== 'string' || typeof value !== 'function') return value;
        const read = READS.has(property);
        if (!read && !WRITES.has(property)) return value;
        return async (...args: unknown[]) => {
          const keys = keysOf(property, args[0]);
          const registry = keys.map(isRegistryKey);
          if (read) {
            this.all.reads += keys.length;
            this.registry.reads += registry.filter(Boolean).length;
            for (const key of keys) {
              const at = key.indexOf('pay-state:');
              if (at >= 0) this.statesRead.add(key.slice(at + 'pay-state:'.length));
            }
          } else {
            this.all.writes += keys.length;
            this.registry.writes += registry.filter(Boolean).length;
          }
          if (property === 'set') this.#wrote(String(args[0]), args[1], registry[0]!);
          if (property === 'setMany' && Array.isArray(args[0])) {
            for (const entry of args[0] as { key: string; value: unknown }[]) this.#wrote(entry.key, entry.value, isRegistryKey(entry.key));
          }
          const result: unknown = await (value as (...inner: unknown[]) => unknown).apply(target, args);
          if (property === 'get') this.#read(keys[0]!, result, registry[0]!);
          if (property === 'getMany' && Array.isArray(result)) result.forEach((one: unknown, index) => this.#read(keys[index]!, one, registry[index]!));
          return result;
        };
      },
    });

  #wrote(key: string, value: unknown, registry: boolean): void {
    const bytes = key.length + sizeOf(value);
    this.all.bytesWritten += bytes;
    if (registry) this.registry.bytesWritten += bytes;
  }

  #read(key: string, value: unknown, registry: boolean): void {
    if (value === undefined || value === null) return;
    const bytes = sizeOf(value);
    this.all.bytesRead += bytes;
    if (registry) this.registry.bytesRead += bytes;
  }
}

function keysOf(property: string, first: unknown): string[] {
  if (property === 'setMany' && Array.isArray(first)) return (first as { key: string }[]).map((entry) => String(entry.key));
  if (Array.isArray(first)) return first.map(String);
  return first === undefined ? [] : [String(first)];
}

/** Keyv hands adapters serialized strings; anything else is measured as its JSON. */
function sizeOf(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (value === undefined || value === null) return 0;
  return Buffer.byteLength(JSON.stringify(value));
}

/** The difference between two snapshots. */
export function since(after: Counted, before: Counted): Counted {
  return { reads: after.reads - before.reads, writes: after.writes - before.writes, bytesRead: after.bytesRead - before.bytesRead, bytesWritten: after.bytesWritten - before.bytesWritten };
}
