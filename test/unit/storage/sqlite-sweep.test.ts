import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { openStorage, type Storage } from '../../../src/storage/keyv-store.js';

const HOUR = 3_600_000;

describe('the SQLite sweep of expired records', () => {
  let dir: string | undefined;
  let storage: Storage | undefined;
  afterEach(async () => {
    await storage?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(clock: ManualClock): Promise<Storage> {
    dir = mkdtempSync(join(tmpdir(), 'shopbot-sweep-'));
    storage = await openStorage(`sqlite://${join(dir, 'store.sqlite')}`, undefined, undefined, undefined, { clock });
    return storage;
  }

  it('deletes every record whose time to live ended on the bot’s clock, and nothing else', async () => {
    const clock = new ManualClock();
    const { keyv, sweepExpired } = await open(clock);
    for (let index = 0; index < 1_200; index += 1) await keyv.set(`short:${index}`, index, HOUR);
    await keyv.set('long', 'kept', 3 * HOUR);
    await keyv.set('forever', 'kept');

    expect(await sweepExpired(clock.now())).toBe(0);
    clock.advance(2 * HOUR);
    // Read as gone on the bot's clock, as Keyv does on its own (wall) clock without it.
    expect(await keyv.get('short:0')).toBeUndefined();
    expect(await sweepExpired(clock.now())).toBe(1_199);
    expect(await keyv.get('long')).toBe('kept');
    expect(await keyv.get('forever')).toBe('kept');
  });

  it('finds expired rows through the expiry index, without reading the live ones', async () => {
    const { keyv } = await open(new ManualClock());
    const store = keyv.store as { query(sql: string, ...params: unknown[]): Promise<{ detail: string }[]> };
    const plan = await store.query(
      "EXPLAIN QUERY PLAN SELECT key FROM keyv WHERE (CASE WHEN json_valid(value) THEN json_extract(value, '$.expires') END) < ?",
      Date.now(),
    );
    expect(plan.map((step) => step.detail).join('\n')).toContain('USING INDEX keyv_expires');
  });
});
