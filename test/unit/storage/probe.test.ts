import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../../../src/storage/keyv-store.js';

describe('the storage probe (readiness, /shop-admin status)', () => {
  const opened: Storage[] = [];
  let dir: string | undefined;
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((storage) => storage.close()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says storage works when two processes probe the same storage at the same time', async () => {
    dir = mkdtempSync(join(tmpdir(), 'shopbot-probe-'));
    const url = `sqlite://${join(dir, 'store.sqlite')}`;
    const first = await openStorage(url);
    const second = await openStorage(url);
    opened.push(first, second);
    const answers: boolean[] = [];
    for (let round = 0; round < 100; round += 1) answers.push(...(await Promise.all([first.probe(), second.probe(), first.probe(), second.probe()])));
    expect(answers.filter((works) => !works)).toHaveLength(0);
  });
});
