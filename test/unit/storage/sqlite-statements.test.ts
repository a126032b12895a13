import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteAdapter, type SqliteAdapter } from '../../../src/storage/sqlite-adapter.js';

/**
 * The SQLite adapter keeps its statements prepared (issue 39): sqlite3's `Database.all` prepared,
 * ran and finalized one per read or write, two trips to the thread pool each, the largest cost of
 * storage when checkouts crowd in. What must hold with them kept: every answer as before, a
 * statement that fails (to prepare or to run) failing only its own callers, and a clean close.
 */
describe('the SQLite adapter’s prepared statements', () => {
  let dir: string | undefined;
  const opened: SqliteAdapter[] = [];
  afterEach(async () => {
    for (const adapter of opened.splice(0)) await adapter.disconnect().catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(): Promise<{ adapter: SqliteAdapter; file: string }> {
    dir ??= mkdtempSync(join(tmpdir(), 'shopbot-statements-'));
    const file = join(dir, 'store.sqlite');
    const adapter = await openSqliteAdapter(`sqlite://${file}`);
    opened.push(adapter);
    return { adapter, file };
  }

  it('prepares each statement once, however many reads and writes run it one after another', async () => {
    const { adapter } = await open();
    const before = (await adapter.statements()).prepared;
    for (let index = 0; index < 100; index += 1) await adapter.set(`key:${index}`, `value ${index}`);
    for (let index = 0; index < 100; index += 1) expect(await adapter.get(`key:${index}`)).toBe(`value ${index}`);
    expect(await adapter.getMany(['key:3', 'missing', 'key:7'])).toEqual(['value 3', undefined, 'value 7']);
    // The upsert, the read of keys: two statements for 201 calls.
    expect((await adapter.statements()).prepared - before).toBe(2);
  });

  it('runs of one statement at the same moment go side by side on a few copies, not one after another on one', async () => {
    const { adapter } = await open();
    await adapter.setMany(Array.from({ length: 200 }, (_, index) => ({ key: `key:${index}`, value: `value ${index}` })));
    const before = await adapter.statements();
    const rows = await Promise.all(Array.from({ length: 200 }, (_, index) => adapter.query('SELECT value FROM keyv WHERE key = ?', `key:${index}`)));
    expect(rows[0]).toEqual([{ value: 'value 0' }]);
    expect(rows[199]).toEqual([{ value: 'value 199' }]);
    const after = await adapter.statements();
    expect(after.run - before.run).toBe(200);
    // sqlite3 runs a statement once at a time: one copy would chain the 200 runs through the event loop.
    const copies = after.prepared - before.prepared;
    expect(copies).toBeGreaterThan(1);
    expect(copies).toBeLessThanOrEqual(4);
  });

  it('200 members’ reads at the same moment are a few statements, each answered with its own record', async () => {
    const { adapter } = await open();
    await adapter.setMany(Array.from({ length: 200 }, (_, index) => ({ key: `cart:${index}`, value: `lines ${index}` })));
    const before = (await adapter.statements()).run;
    const carts = await Promise.all(Array.from({ length: 201 }, (_, index) => adapter.get(`cart:${index}`)));
    expect(carts[0]).toBe('lines 0');
    expect(carts[137]).toBe('lines 137');
    expect(carts[200]).toBeUndefined();
    expect((await adapter.statements()).run - before).toBeLessThanOrEqual(3);
  });

  it('200 writes at the same moment are a few statements, and every one lands (a key written twice keeps the later value)', async () => {
    const { adapter } = await open();
    const before = (await adapter.statements()).run;
    await Promise.all([
      ...Array.from({ length: 200 }, (_, index) => adapter.set(`nick:${index}`, `Steve_${index}`)),
      adapter.set('nick:5', 'Alex_5'),
    ]);
    expect((await adapter.statements()).run - before).toBeLessThanOrEqual(3);
    expect(await adapter.getMany(['nick:0', 'nick:5', 'nick:199'])).toEqual(['Steve_0', 'Alex_5', 'Steve_199']);
  });

  it('a read alone goes at once, as one statement', async () => {
    const { adapter } = await open();
    await adapter.set('settings', 'kept');
    const before = (await adapter.statements()).run;
    expect(await adapter.get('settings')).toBe('kept');
    expect((await adapter.statements()).run - before).toBe(1);
  });

  it('deleting a record is one statement, and says whether the record was there', async () => {
    const { adapter } = await open();
    await adapter.set('cart', 'lines');
    await adapter.setMany([{ key: 'a', value: '1' }, { key: 'b', value: '2' }]);
    const before = (await adapter.statements()).run;
    expect(await adapter.delete('cart')).toBe(true);
    expect(await adapter.delete('cart')).toBe(false);
    expect(await adapter.deleteMany(['a', 'b', 'c'])).toBe(true);
    expect(await adapter.deleteMany(['a', 'b'])).toBe(false);
    expect((await adapter.statements()).run - before).toBe(4);
    expect(await adapter.getMany(['cart', 'a', 'b'])).toEqual([undefined, undefined, undefined]);
  });

  it('200 members’ checks and deletes at the same moment are a few statements, each answered for its own key', async () => {
    const { adapter } = await open();
    await adapter.setMany(Array.from({ length: 200 }, (_, index) => ({ key: `cart:${index}`, value: `lines ${index}` })));
    const before = (await adapter.statements()).run;
    // A link's fresh id is checked unused; a checkout empties the member's cart.
    const there = await Promise.all(Array.from({ length: 201 }, (_, index) => adapter.has(`cart:${index}`)));
    expect(there.filter(Boolean)).toHaveLength(200);
    expect(there[200]).toBe(false);
    const deleted = await Promise.all(Array.from({ length: 201 }, (_, index) => adapter.delete(`cart:${index}`)));
    expect(deleted.filter(Boolean)).toHaveLength(200);
    expect(deleted[200]).toBe(false);
    // One statement each before: 402.
    expect((await adapter.statements()).run - before).toBeLessThanOrEqual(6);
    expect(await adapter.getMany(['cart:0', 'cart:199'])).toEqual([undefined, undefined]);
  });

  it('a statement that cannot be prepared fails its callers, and is prepared again once it can be', async () => {
    const { adapter } = await open();
    await expect(adapter.query('SELECT count(*) AS n FROM later')).rejects.toThrow(/no such table: later/);
    // Not left waiting, and not kept broken: the same SQL works once the table exists.
    await adapter.query('CREATE TABLE later(n INTEGER)');
    expect(await adapter.query('SELECT count(*) AS n FROM later')).toEqual([{ n: 0 }]);
  });

  it('a run that fails leaves the next run of the same statement working', async () => {
    const { adapter } = await open();
    await adapter.query('CREATE TABLE positive(n INTEGER CHECK (n > 0))');
    const insert = 'INSERT INTO positive(n) VALUES (?)';
    await expect(adapter.query(insert, -1)).rejects.toThrow(/CHECK constraint failed/);
    await adapter.query(insert, 5);
    expect(await adapter.query('SELECT n FROM positive')).toEqual([{ n: 5 }]);
  });

  it('more distinct statements than it keeps: each still answers, and writes still land', async () => {
    const { adapter } = await open();
    // 100 distinct statements, more than are kept prepared at once (the oldest are finalized).
    for (let index = 1; index <= 100; index += 1) {
      expect(await adapter.query(`SELECT ? + ${index} AS n`, 1)).toEqual([{ n: index + 1 }]);
    }
    await adapter.setMany(Array.from({ length: 100 }, (_, index) => ({ key: `batch:${index}`, value: `${index}` })));
    expect(await adapter.getMany(['batch:0', 'batch:99'])).toEqual(['0', '99']);
    expect(await adapter.query('SELECT ? + 1 AS n', 1)).toEqual([{ n: 2 }]);
  });

  it('closes with its statements prepared, and the file reopens with every record', async () => {
    const { adapter, file } = await open();
    await adapter.set('kept', 'across a restart');
    await adapter.get('kept');
    await adapter.disconnect();
    opened.splice(opened.indexOf(adapter), 1);
    const reopened = await openSqliteAdapter(`sqlite://${file}`);
    opened.push(reopened);
    expect(await reopened.get('kept')).toBe('across a restart');
  });
});
