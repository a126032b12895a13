import Keyv, { type KeyvStoreAdapter } from 'keyv';
import { describe, expect, it } from 'vitest';
import { KeyLock } from '../../../src/coordination/key-lock.js';
import { createLogger } from '../../../src/logger.js';
import { PaymentWatchIndex, slotOf } from '../../../src/storage/payment-watch-index.js';

/**
 * Issue 36, point 4: the due-time index costs what is due. Before, `pay-due:<slot>` was one array
 * rewritten whole for every license moving into the slot: the n-th license of a slot wrote n ids
 * (about 1 667 rewrites of up to 110 KB per 5 s slot at 10 000 licenses).
 */

/** A Map-backed Keyv that records the size of every value written. */
function measuredKeyv(): { keyv: Keyv; sizes: number[]; raw: Map<string, unknown> } {
  const raw = new Map<string, unknown>();
  const sizes: number[] = [];
  const store = {
    get: (key: string) => raw.get(key),
    set: (key: string, value: unknown) => {
      sizes.push(JSON.stringify(value).length);
      raw.set(key, value);
      return true;
    },
    delete: (key: string) => raw.delete(key),
    clear: () => raw.clear(),
  } as unknown as KeyvStoreAdapter;
  return { keyv: new Keyv({ store: store as never, serialize: undefined as never, deserialize: undefined as never }), sizes, raw };
}

const license = (index: number) => `${'f'.repeat(56)}${String(index).padStart(8, '0')}`;

describe('the due-time slots', () => {
  it('write a bounded record per license scheduled, however many share a slot; every one is read back once', async () => {
    const { keyv, sizes } = measuredKeyv();
    const index = new PaymentWatchIndex(keyv, createLogger('silent'), new KeyLock());
    const now = 1_000_000_000;
    const at = now + 30_000;
    for (let n = 0; n < 2_000; n += 1) await index.schedule(license(n), at, now);
    // Each write is at most a chunk of ids (64 ids of 64 characters, about 4.3 KB), not the whole slot (about 130 KB here).
    expect(Math.max(...sizes)).toBeLessThan(5_000);
    const due = await index.due(slotOf(at) - 1, slotOf(at));
    expect(due).toHaveLength(2_000);
    expect(new Set(due).size).toBe(2_000);
  });

  it('reads a slot written by the previous version (one array of ids) and adds to it', async () => {
    const { keyv } = measuredKeyv();
    const index = new PaymentWatchIndex(keyv, createLogger('silent'), new KeyLock());
    const now = 1_000_000_000;
    const at = now + 30_000;
    await keyv.set(`pay-due:${slotOf(at)}`, [license(1), license(2)]);
    await index.schedule(license(3), at, now);
    expect((await index.due(slotOf(at) - 1, slotOf(at))).sort()).toEqual([license(1), license(2), license(3)]);
  });
});
