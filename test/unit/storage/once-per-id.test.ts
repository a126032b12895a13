import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { KeyLock } from '../../../src/coordination/key-lock.js';
import { openStorage, type Storage } from '../../../src/storage/keyv-store.js';
import { OncePerId } from '../../../src/storage/once-per-id.js';

const DAY = 86_400_000;

describe('once per id, on SQLite', () => {
  let dir: string | undefined;
  let storage: Storage | undefined;
  afterEach(async () => {
    await storage?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(clock: ManualClock): Promise<Storage> {
    dir = mkdtempSync(join(tmpdir(), 'shopbot-once-'));
    storage = await openStorage(`sqlite://${join(dir, 'store.sqlite')}`, undefined, undefined, undefined, { clock });
    return storage;
  }

  it('tells exactly one of many simultaneous callers that it was first', async () => {
    const { keyv } = await open(new ManualClock());
    const once = new OncePerId(keyv, 'test-once', new KeyLock());
    const answers = await Promise.all(Array.from({ length: 20 }, () => once.claim('tx-1', DAY)));
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await once.claimed('tx-1')).toBe(true);
    expect(await once.claimed('tx-2')).toBe(false);
  });

  it('keeps each id for its lifetime, however many others are claimed meanwhile, then lets it be claimed again', async () => {
    const clock = new ManualClock();
    const { keyv } = await open(clock);
    const once = new OncePerId(keyv, 'test-once');
    expect(await once.claim('old', 30 * DAY, { guildId: 'g' })).toBe(true);
    // Far more than any capped list would hold.
    for (let index = 0; index < 2_000; index += 1) await once.claim(`new-${index}`, 30 * DAY);
    expect(await once.claim('old', 30 * DAY)).toBe(false);
    expect(await once.valueOf('old')).toMatchObject({ guildId: 'g' });
    clock.advance(31 * DAY);
    expect(await once.claim('old', 30 * DAY)).toBe(true);
  });

  it('can release a claim whose work failed, so a later round claims it again', async () => {
    const { keyv } = await open(new ManualClock());
    const once = new OncePerId(keyv, 'test-once');
    expect(await once.claim('tx', DAY)).toBe(true);
    await once.release('tx');
    expect(await once.claim('tx', DAY)).toBe(true);
  });
});
