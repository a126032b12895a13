import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { select } from '../../../src/discord/views/components.js';
import { storeErrorText } from '../../../src/discord/views/problem-texts.js';
import { en } from '../../../src/i18n/en.js';
import { StoreClient } from '../../../src/spaceis/client.js';
import { StoreError } from '../../../src/spaceis/errors.js';
import { createStoreGate, type StoreGate } from '../../../src/spaceis/gate.js';
import { FakeSpaceIs } from '../../fakes/spaceis/fake-spaceis.js';

/** What the store may answer is bounded: how long it may pause a license, how big an answer is, which ids reach a path. */

let fake: FakeSpaceIs;
beforeEach(async () => {
  fake = await FakeSpaceIs.start();
});
afterEach(async () => {
  await fake.close();
});

const client = (gate?: StoreGate) => new StoreClient({ baseUrl: fake.url, apiKey: fake.apiKey, sleep: async () => undefined, ...(gate ? { gate } : {}) });

describe('an absurd Retry-At', () => {
  it('is a broken header: the license is paused briefly (30 s) and the member told so, not the 5-minute cap', async () => {
    const clock = new ManualClock();
    const gate = createStoreGate({ now: () => clock.now() });
    // An epoch timestamp where a number of seconds belongs.
    fake.failNext('servers', { status: 429, headers: { 'Retry-At': '1795330394' }, body: { success: false, type: 'error', message: 'too many requests' } });
    const first = await client(gate).listServers().catch((error: unknown) => error as StoreError);
    expect(storeErrorText(first as StoreError, en, 'browse')).toBe(en.storeErrors.throttled(30));

    const held = await client(gate).listServers().catch((error: unknown) => error as StoreError);
    expect(held).toMatchObject({ status: 429, retryAfterSeconds: 30 });
    clock.advance(30_000);
    await expect(client(gate).listServers()).resolves.toHaveLength(2);
  });

  it.each([
    [1_800_000_000, 30],
    [7_200, 30],
    [3_600, 300],
    [600, 300],
    [120, 120],
  ])('Retry-At %i tells the member to wait %i s', (retryAfterSeconds, seconds) => {
    const error = new StoreError({ kind: 'http', status: 429, message: 'slow down', retryAfterSeconds });
    expect(storeErrorText(error, en, 'browse')).toBe(en.storeErrors.throttled(seconds));
  });
});

describe('the store’s answers', () => {
  it('are read up to 2 MB: a larger one is the "could not read" error', async () => {
    fake.failNext('servers', { status: 200, raw: JSON.stringify({ success: true, type: 'response', data: [], padding: 'x'.repeat(3 * 1024 * 1024) }) });
    const error = await client().listServers().catch((caught: unknown) => caught as StoreError);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).kind).toBe('invalid-response');
    expect(storeErrorText(error as StoreError, en, 'browse')).toBe(en.storeErrors.badResponse);
  });

  it('are looked up in the hints table by their own keys only', () => {
    const error = new StoreError({ kind: 'http', status: 400, message: 'x', apiMessage: 'constructor' });
    expect(storeErrorText(error, en, 'checkout')).not.toContain('function');
    expect(storeErrorText(error, en, 'checkout')).toBe(en.storeErrors.refused('constructor'));
  });
});

describe('ids from the store in a request path', () => {
  it('never change the path’s shape: . and .. are refused, anything else is encoded', async () => {
    for (const id of ['.', '..', '']) {
      const error = await client().getVariants(id, 'c', 'p').catch((caught: unknown) => caught as StoreError);
      expect(error).toBeInstanceOf(StoreError);
      await expect(client().getServer(id)).rejects.toBeInstanceOf(StoreError);
    }
    expect(fake.requests).toHaveLength(0);
    // Ids that merely look like path syntax are sent, encoded, inside their segment.
    for (const id of ['%2e', '%2E%2E', 'a/b?c#d', 'x y', 'ż']) await client().getVariants(id, id, id).catch(() => undefined);
    expect(fake.requests).toHaveLength(5);
    for (const request of fake.requests) {
      expect(request.path).toMatch(/^\/v4\/server\/[^/]+\/category\/[^/]+\/product\/[^/]+\/variants$/);
    }
  });
});

describe('menus built from store data', () => {
  it('never repeat an option value (Discord would refuse the whole menu)', () => {
    const menu = select('v1:x', 'Pick', [
      { value: 'aaaaaaaa', label: 'One' },
      { value: 'aaaaaaaa', label: 'Same id again' },
      { value: 'bbbbbbbb', label: 'Two' },
    ]);
    expect(menu.options.map((option) => option.value)).toEqual(['aaaaaaaa', 'bbbbbbbb']);
  });
});
