import { describe, expect, it } from 'vitest';
import { openStorage } from '../../src/storage/keyv-store.js';
import { OncePerId } from '../../src/storage/once-per-id.js';
import { coordinationsPerTest, testStorage } from '../support/redis.js';

const DAY = 86_400_000;

describe('once per id, two processes on one Redis', () => {
  const shared = coordinationsPerTest('once-per-id');

  it('tells exactly one of the two processes that it was first, for every id', async () => {
    const storage = testStorage('once-per-id-records');
    const [a, b] = await Promise.all([openStorage(storage.url), openStorage(storage.url)]);
    try {
      const [first, second] = shared.processes;
      const onA = new OncePerId(a.keyv, 'test-once', first.locks);
      const onB = new OncePerId(b.keyv, 'test-once', second.locks);
      const ids = Array.from({ length: 25 }, (_unused, index) => `tx-${index}`);
      const answers = await Promise.all(ids.flatMap((id) => [onA.claim(id, DAY), onB.claim(id, DAY), onA.claim(id, DAY), onB.claim(id, DAY)]));
      expect(answers.filter(Boolean)).toHaveLength(ids.length);
      for (const id of ids) expect(await onB.claimed(id)).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await storage.cleanUp();
    }
  });
});
