import type { KeyvStoreAdapter } from 'keyv';

type KeyFilter = (key: string) => boolean;

const READS = new Set(['get', 'getMany', 'has', 'hasMany']);
const WRITES = new Set(['set', 'setMany', 'delete', 'deleteMany', 'clear']);

/**
 * Sits between the bot's Keyv and the real SQLite adapter: makes reads or writes fail on demand
 * (as a full disk, a locked file or a broken volume would) and counts what is written.
 * Keys are as SQLite holds them (`shopbot:cart:…`).
 */
export class StorageSwitch {
  /** Every read fails while set; a function fails only the keys it accepts. */
  failReads: boolean | KeyFilter = false;
  failWrites: boolean | KeyFilter = false;
  #readFailuresLeft = 0;
  #writeFailuresLeft = 0;
  /** Bytes of keys and values handed to `set`, and how many sets. */
  bytesWritten = 0;
  writes = 0;
  /** Every key read and written, in order (as SQLite holds them): what a test counts a job's storage cost by. */
  readonly readKeys: string[] = [];
  /** Keys read (a `getMany` counts each key). */
  reads = 0;
  /** Calls that read (a `getMany` of any size is one: one statement on SQLite, one MGET on Redis). */
  readStatements = 0;
  readonly writtenKeys: string[] = [];

  #held: { keys: KeyFilter; released: Promise<void>; reached: () => void }[] = [];

  /**
   * Writes of matching keys wait until `release()`, as if storage were stuck (a lock held
   * elsewhere, a slow disk); `reached` resolves when the first such write arrives.
   */
  holdWrites(keys: KeyFilter): { reached: Promise<void>; release(): void } {
    let release!: () => void;
    let reached!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    const hold = { keys, released, reached };
    this.#held.push(hold);
    return {
      reached: arrived,
      release: () => {
        this.#held = this.#held.filter((other) => other !== hold);
        release();
      },
    };
  }

  /** The next `count` reads (or writes) fail, then storage works again. */
  failNext(operation: 'read' | 'write', count = 1): void {
    if (operation === 'read') this.#readFailuresLeft = count;
    else this.#writeFailuresLeft = count;
  }

  recover(): void {
    this.failReads = false;
    this.failWrites = false;
    this.#readFailuresLeft = 0;
    this.#writeFailuresLeft = 0;
  }

  readonly wrap = (adapter: KeyvStoreAdapter): KeyvStoreAdapter =>
    new Proxy(adapter, {
      get: (target, property, receiver) => {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof property !== 'string' || typeof value !== 'function') return value;
        const operation = READS.has(property) ? 'read' : WRITES.has(property) ? 'write' : undefined;
        if (!operation) return value;
        return async (...args: unknown[]) => {
          // setMany's entries are { key, value }: counted by their keys.
          const keyOf = (key: unknown) => (typeof key === 'string' ? key : typeof (key as { key?: unknown } | null)?.key === 'string' ? (key as { key: string }).key : JSON.stringify(key));
          const keys = (Array.isArray(args[0]) ? args[0] : [args[0]]).map(keyOf);
          if (operation === 'write') {
            const hold = this.#held.find((held) => keys.some(held.keys));
            if (hold) {
              hold.reached();
              await hold.released;
            }
          }
          if (operation === 'read') {
            this.readStatements += 1;
            this.reads += keys.length;
            this.readKeys.push(...keys);
          } else this.writtenKeys.push(...keys);
          if (this.#shouldFail(operation, keys)) throw new Error(`SQLITE_IOERR: disk I/O error (injected ${operation} failure)`);
          if (property === 'set') {
            this.writes += 1;
            this.bytesWritten += String(args[0]).length + String(args[1]).length;
          }
          return (value as (...inner: unknown[]) => unknown).apply(target, args);
        };
      },
    });

  #shouldFail(operation: 'read' | 'write', keys: string[]): boolean {
    if (operation === 'read' && this.#readFailuresLeft > 0) {
      this.#readFailuresLeft -= 1;
      return true;
    }
    if (operation === 'write' && this.#writeFailuresLeft > 0) {
      this.#writeFailuresLeft -= 1;
      return true;
    }
    const rule = operation === 'read' ? this.failReads : this.failWrites;
    return typeof rule === 'function' ? keys.some(rule) : rule;
  }
}
