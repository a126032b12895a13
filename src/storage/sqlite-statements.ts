import type sqlite3 from 'sqlite3';

/** Distinct statements kept prepared: Keyv's and the adapter's are about ten; the oldest go beyond (ad hoc queries). */
const MAX_PREPARED = 64;
/**
 * Copies of one statement prepared at most. sqlite3 runs a statement once at a time, each run a trip
 * to its thread pool and back through the event loop: with one copy, 200 members' reads of their carts
 * (one SQL) ran one after another, each waiting for the busy event loop's next turn. As many copies
 * as the pool has threads (libuv's default, 4) run side by side, as separate statements did.
 */
const COPIES_PER_STATEMENT = 4;

interface PreparedCopy {
  ready: Promise<sqlite3.Statement>;
  /** Runs started on it and not yet answered. */
  runs: number;
}

/**
 * Each statement prepared once and run again with new parameters. sqlite3's `Database.all` prepares,
 * runs and finalizes a statement per call: two trips to the thread pool and back, and the SQL parsed
 * again, for every read and write. When checkouts crowd in, those trips (each a thread woken, and the
 * event loop woken back) were the largest cost of storage to the bot (docs/performance.md).
 *
 * sqlite3 resets a statement before each run, so one that finished holds no lock between runs. A copy
 * whose run failed is finalized and another prepared next time (a failed run may stop mid-way); one
 * whose preparing failed (the file locked, say) fails the runs waiting on it, and the next run
 * prepares the statement again.
 */
export class PreparedStatements {
  readonly #bySql = new Map<string, PreparedCopy[]>();
  /** Statements prepared, and runs, since the connection opened (read by the tests). */
  prepared = 0;
  run = 0;

  constructor(private readonly db: sqlite3.Database) {}

  async all(sql: string, params: unknown[]): Promise<unknown[]> {
    const copy = this.#copyFor(sql);
    copy.runs += 1;
    try {
      const statement = await copy.ready;
      this.run += 1;
      return await new Promise<unknown[]>((resolve, reject) => {
        statement.all(params, (error: Error | null, rows: unknown[]) => {
          if (!error) return resolve(rows);
          this.#drop(sql, copy);
          void finalized(statement);
          reject(error);
        });
      });
    } finally {
      copy.runs -= 1;
    }
  }

  async finalizeAll(): Promise<void> {
    const copies = [...this.#bySql.values()].flat();
    this.#bySql.clear();
    await Promise.all(copies.map((copy) => copy.ready.then(finalized, () => undefined)));
  }

  /** An idle copy; else a new one while under COPIES_PER_STATEMENT; else the least busy. */
  #copyFor(sql: string): PreparedCopy {
    let copies = this.#bySql.get(sql);
    if (!copies) {
      if (this.#bySql.size >= MAX_PREPARED) this.#evictOldest();
      copies = [];
      this.#bySql.set(sql, copies);
    }
    let leastBusy: PreparedCopy | undefined;
    for (const copy of copies) {
      if (copy.runs === 0) return copy;
      if (!leastBusy || copy.runs < leastBusy.runs) leastBusy = copy;
    }
    if (leastBusy && copies.length >= COPIES_PER_STATEMENT) return leastBusy;
    const copy = this.#prepare(sql);
    copies.push(copy);
    return copy;
  }

  #prepare(sql: string): PreparedCopy {
    const copy: PreparedCopy = {
      runs: 0,
      ready: new Promise<sqlite3.Statement>((resolve, reject) => {
        const statement = this.db.prepare(sql, (error: Error | null) => {
          if (!error) return resolve(statement);
          // sqlite3 has finalized it; the next run prepares the statement again.
          this.#drop(sql, copy);
          reject(error);
        });
      }),
    };
    this.prepared += 1;
    return copy;
  }

  #drop(sql: string, copy: PreparedCopy): void {
    const copies = this.#bySql.get(sql);
    const at = copies?.indexOf(copy) ?? -1;
    if (at >= 0) copies!.splice(at, 1);
  }

  /** The statement kept longest goes; sqlite3 finalizes each copy after any run still queued on it. */
  #evictOldest(): void {
    const [sql, copies] = this.#bySql.entries().next().value as [string, PreparedCopy[]];
    this.#bySql.delete(sql);
    for (const copy of copies) copy.ready.then(finalized, () => undefined);
  }
}

const finalized = (statement: sqlite3.Statement) => new Promise<void>((resolve) => statement.finalize(() => resolve()));
