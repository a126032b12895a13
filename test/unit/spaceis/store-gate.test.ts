import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { StoreError } from '../../../src/spaceis/errors.js';
import { createStoreGate } from '../../../src/spaceis/gate.js';
import { business, deferred, outage } from '../../support/gate.js';

describe('StoreGate', () => {
  it('opens after repeated outages, refuses without calling, then lets one trial through', async () => {
    const clock = new ManualClock();
    const gate = createStoreGate({ now: () => clock.now(), failureThreshold: 3, openMs: 30_000 });
    let calls = 0;
    const failing = () => {
      calls += 1;
      return Promise.reject(outage());
    };
    for (let n = 0; n < 3; n += 1) await expect(gate.run('GET', '/v4/servers', failing)).rejects.toMatchObject({ status: 503 });
    expect(gate.state).toBe('open');
    await expect(gate.run('GET', '/v4/servers', failing)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(calls).toBe(3);

    clock.advance(30_000);
    expect(gate.state).toBe('half-open');
    const trial = deferred<string>();
    const first = gate.run('GET', '/v4/servers', () => trial.promise);
    await expect(gate.run('GET', '/v4/servers', () => Promise.resolve('x'))).rejects.toMatchObject({ kind: 'unavailable' });
    trial.resolve('ok');
    await expect(first).resolves.toBe('ok');
    expect(gate.state).toBe('closed');
  });

  it('does not count business errors as outages', async () => {
    const gate = createStoreGate({ now: () => 0, failureThreshold: 2 });
    for (let n = 0; n < 5; n += 1) await expect(gate.run('POST', '/v4/cart/paymentUrl', () => Promise.reject(business()))).rejects.toBeDefined();
    expect(gate.state).toBe('closed');
  });

  it('holds back every call while the store asked to wait (Retry-At or no requests remaining)', async () => {
    const clock = new ManualClock();
    const gate = createStoreGate({ now: () => clock.now() });
    const throttled = new StoreError({ kind: 'http', status: 429, message: 'slow down', retryAfterSeconds: 20 });
    await expect(gate.run('GET', '/v4/servers', () => Promise.reject(throttled))).rejects.toBe(throttled);
    let called = false;
    await expect(
      gate.run('GET', '/v4/servers', async () => {
        called = true;
      }),
    ).rejects.toMatchObject({ status: 429, retryAfterSeconds: 20 });
    expect(called).toBe(false);
    clock.advance(20_000);
    await expect(gate.run('GET', '/v4/servers', () => Promise.resolve(1))).resolves.toBe(1);

    gate.noteRemaining(0);
    await expect(gate.run('GET', '/v4/servers', () => Promise.resolve(1))).rejects.toMatchObject({ status: 429 });
  });

  it('bounds concurrency and the queue', async () => {
    const gate = createStoreGate({ now: () => 0, maxConcurrent: 2, maxQueue: 1 });
    const slow = [deferred<number>(), deferred<number>(), deferred<number>()];
    let running = 0;
    let peak = 0;
    const task = (index: number) => async () => {
      running += 1;
      peak = Math.max(peak, running);
      const value = await slow[index]!.promise;
      running -= 1;
      return value;
    };
    const a = gate.run('GET', '/a', task(0));
    const b = gate.run('GET', '/b', task(1));
    const c = gate.run('GET', '/c', task(2)); // queued
    await expect(gate.run('GET', '/d', () => Promise.resolve(4))).rejects.toMatchObject({ kind: 'unavailable' });
    slow[0]!.resolve(1);
    slow[1]!.resolve(2);
    slow[2]!.resolve(3);
    await expect(Promise.all([a, b, c])).resolves.toEqual([1, 2, 3]);
    expect(peak).toBe(2);
  });
});

describe('StoreGate fairness', () => {
  it('serves waiting guilds in turn, so one guild’s crowd cannot starve another', async () => {
    const gate = createStoreGate({ now: () => 0, maxConcurrent: 1 });
    const order: string[] = [];
    const blocker = deferred<void>();
    const running = gate.run('POST', '/p', () => blocker.promise, 'crowd');
    const crowd = Array.from({ length: 5 }, (_, n) =>
      gate.run('POST', '/p', async () => {
        order.push(`crowd-${n}`);
      }, 'crowd'),
    );
    const quiet = gate.run('POST', '/p', async () => {
      order.push('quiet');
    }, 'quiet');
    blocker.resolve();
    await Promise.all([running, ...crowd, quiet]);
    expect(order.indexOf('quiet')).toBeLessThanOrEqual(1);
  });

  it('caps what one guild may have waiting', async () => {
    const gate = createStoreGate({ now: () => 0, maxConcurrent: 1, maxQueue: 8, maxQueuePerLane: 2 });
    const blocker = deferred<void>();
    const running = gate.run('POST', '/p', () => blocker.promise, 'crowd');
    const waiting = [gate.run('POST', '/p', async () => 1, 'crowd'), gate.run('POST', '/p', async () => 2, 'crowd')];
    await expect(gate.run('POST', '/p', async () => 3, 'crowd')).rejects.toMatchObject({ kind: 'unavailable' });
    const other = gate.run('POST', '/p', async () => 4, 'other');
    blocker.resolve();
    await expect(Promise.all([running, ...waiting, other])).resolves.toEqual([undefined, 1, 2, 4]);
  });
});
