import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { Coordination, SharedRedis } from '../../src/coordination/coordination.js';
import { StoreError } from '../../src/spaceis/errors.js';
import { SharedGate } from '../../src/spaceis/shared-gate.js';
import { redisGateState } from '../../src/spaceis/redis-gate-state.js';
import { coordinationsPerTest } from '../support/redis.js';
import { deferred, outage } from '../support/gate.js';

/**
 * The store gate's shared state on a real Redis: two gates on two connections stand for two bot
 * processes selling from one license. What one learns about the store, the other obeys.
 */
const LICENSE = 'f'.repeat(64);

describe('the shared store gate (Redis)', () => {
  const shared = coordinationsPerTest('gate');

  function gateOf(coordination: Coordination, options: { failureThreshold?: number; openMs?: number } = {}): SharedGate {
    return new SharedGate({ now: Date.now, ...options, shared: redisGateState(coordination.redis!, LICENSE) });
  }

  it("holds back the other process after a 429 with Retry-At, telling how long is left", async () => {
    const [a, b] = shared.processes.map((coordination) => gateOf(coordination));
    const throttled = new StoreError({ kind: 'http', status: 429, message: 'slow down', retryAfterSeconds: 20 });
    await expect(a!.run('POST', '/v4/cart/paymentUrl', () => Promise.reject(throttled))).rejects.toBe(throttled);

    let called = false;
    const refused = b!.run('GET', '/v4/servers', async () => {
      called = true;
    });
    await expect(refused).rejects.toMatchObject({ status: 429 });
    const seconds = ((await refused.catch((error: unknown) => error)) as StoreError).retryAfterSeconds!;
    expect(seconds).toBeGreaterThanOrEqual(19);
    expect(seconds).toBeLessThanOrEqual(20);
    expect(called).toBe(false);
    expect(b!.load.paused).toBe(true);
  });

  it('opens the breaker in every process after outages in one, then lets exactly one trial through', async () => {
    const openMs = 300;
    const [a, b] = shared.processes.map((coordination) => gateOf(coordination, { failureThreshold: 3, openMs }));
    for (let n = 0; n < 3; n += 1) await expect(a!.run('GET', '/v4/servers', () => Promise.reject(outage()))).rejects.toMatchObject({ status: 503 });

    let calls = 0;
    const counted = () => {
      calls += 1;
      return Promise.resolve('ok');
    };
    await expect(b!.run('GET', '/v4/servers', counted)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(b!.state).toBe('open');
    expect(calls).toBe(0);

    // The breaker's period is a real Redis expiry: this is the one wait, kept short.
    await new Promise((resolve) => setTimeout(resolve, openMs + 50));
    const trial = deferred<string>();
    const first = b!.run('GET', '/v4/servers', () => trial.promise);
    await expect.poll(() => redisKeys(shared.processes[0]!.redis!, `gate:${LICENSE}:trial`)).toBe(1);
    await expect(a!.run('GET', '/v4/servers', counted)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(calls).toBe(0);
    trial.resolve('ok');
    await expect(first).resolves.toBe('ok');
    await expect(a!.run('GET', '/v4/servers', counted)).resolves.toBe('ok');
    expect(a!.state).toBe('closed');
  });

  it('keeps at most four requests in flight for the license across processes', async () => {
    const gates = shared.processes.map((coordination) => gateOf(coordination));
    let running = 0;
    let highest = 0;
    const startedOnce = new Map<number, ReturnType<typeof deferred<void>>>();
    for (let n = 1; n <= 12; n += 1) startedOnce.set(n, deferred());
    let count = 0;
    const finishes: ReturnType<typeof deferred<void>>[] = [];
    const calls = Array.from({ length: 12 }, (_, index) =>
      gates[index % 2]!.run('POST', '/v4/cart/paymentUrl', async () => {
        running += 1;
        highest = Math.max(highest, running);
        count += 1;
        const done = deferred();
        finishes.push(done);
        startedOnce.get(count)!.resolve();
        await done.promise;
        running -= 1;
      }),
    );
    await startedOnce.get(4)!.promise;
    // Each finished request lets exactly one waiting request in, whichever process it waits in.
    for (let n = 5; n <= 12; n += 1) {
      finishes[n - 5]!.resolve();
      await startedOnce.get(n)!.promise;
    }
    for (const done of finishes) done.resolve();
    await Promise.all(calls);
    expect(highest).toBe(4);
  });

  it('refuses as "unavailable", without calling the store, when Redis cannot be reached', async () => {
    const client = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    const failures: unknown[] = [];
    const gate = new SharedGate({
      now: Date.now,
      shared: redisGateState({ client, key: (name) => `unreachable:${name}` }, LICENSE),
      onSharedFailure: (error) => failures.push(error),
    });
    let called = false;
    for (let n = 0; n < 2; n += 1) {
      await expect(
        gate.run('GET', '/v4/servers', async () => {
          called = true;
        }),
      ).rejects.toMatchObject({ kind: 'unavailable' });
    }
    expect(called).toBe(false);
    expect(failures).toHaveLength(1); // told once per outage, not once per request
    expect(gate.idle).toBe(true);
    client.disconnect();
  });

  it('writes every key under the bot prefix, by license id', async () => {
    const [a] = shared.processes.map((coordination) => gateOf(coordination));
    const throttled = new StoreError({ kind: 'http', status: 429, message: 'slow down', retryAfterSeconds: 5 });
    await expect(a!.run('GET', '/v4/servers', () => Promise.reject(throttled))).rejects.toBe(throttled);
    const all = await shared.processes[0]!.redis!.client.keys('*');
    const ours = all.filter((key) => key.includes(LICENSE));
    expect(ours.length).toBeGreaterThan(0);
    for (const key of ours) expect(key.startsWith(shared.prefix)).toBe(true);
  });
});

async function redisKeys(redis: SharedRedis, name: string): Promise<number> {
  return redis.client.exists(redis.key(name));
}
