import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/logger.js';
import { openStorage, type Storage } from '../../../src/storage/keyv-store.js';
import { PostedSeenIndex, SEEN_BOUND } from '../../../src/storage/posted-seen.js';

const DAY = 86_400_000;
const TTL = 100 * DAY;

describe('the count of posted ids the store does not know', () => {
  let dir: string | undefined;
  let storage: Storage | undefined;
  afterEach(async () => {
    await storage?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(clock: ManualClock): Promise<PostedSeenIndex> {
    dir = mkdtempSync(join(tmpdir(), 'shopbot-seen-'));
    storage = await openStorage(`sqlite://${join(dir, 'store.sqlite')}`, undefined, undefined, undefined, { clock });
    return new PostedSeenIndex(storage.keyv, createLogger('silent'), TTL);
  }

  /** Records as the watcher keeps them: forgettable unless listed as followed. */
  function records(followed: Set<string>) {
    const forgotten: string[] = [];
    return { forgotten, postedUnknown: async (_shop: string, id: string) => !followed.has(id), forget: async (_shop: string, id: string) => void forgotten.push(id) };
  }

  it('keeps at most the bound, one at a time or in batches, forgetting the oldest unknown first and skipping a followed one', async () => {
    const clock = new ManualClock();
    const index = await open(clock);
    const followed = new Set(['followed']);
    const kept = records(followed);
    const now = clock.now();
    for (const id of ['followed', 'oldest', 'second']) expect(await index.add('shop', [{ id, at: now }], now, kept)).toBe(0);
    const filler = Array.from({ length: SEEN_BOUND - 2 }, (_, n) => `filler-${n}`);
    for (let start = 0; start < filler.length; start += 500) await index.add('shop', filler.slice(start, start + 500).map((id) => ({ id, at: now })), now, kept);
    expect(await index.count('shop')).toBe(SEEN_BOUND);
    expect(kept.forgotten).toEqual([]);
    for (let n = 0; n < 3; n += 1) {
      expect(await index.add('shop', [{ id: `newest-${n}`, at: now }], now, kept)).toBe(1);
      expect(await index.count('shop')).toBe(SEEN_BOUND);
    }
    expect(kept.forgotten).toEqual(['oldest', 'second', 'filler-0']);
  });

  it('drops what is older than the records’ lifetime without asking', async () => {
    const clock = new ManualClock();
    const index = await open(clock);
    const kept = records(new Set());
    await index.add('shop', [{ id: 'old', at: clock.now() }], clock.now(), kept);
    clock.advance(TTL + DAY);
    await index.add('shop', [{ id: 'new', at: clock.now() }], clock.now(), kept);
    expect(await index.count('shop')).toBe(1);
    expect(kept.forgotten).toEqual([]);
  });
});
