import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import type { SharedRedis } from '../../src/coordination/coordination.js';
import { StoreError } from '../../src/spaceis/errors.js';
import { redisGateState, type RedisGateStateOptions } from '../../src/spaceis/redis-gate-state.js';
import { SharedGate } from '../../src/spaceis/shared-gate.js';
import { coordinationsPerTest } from '../support/redis.js';
import { business, counted, deferred, outage } from '../support/gate.js';

/**
 * SharedGate alone, on a real Redis (the test database, a key prefix of its own, deleted after each
 * test): two instances on two connections stand for two processes. What they show the operator
 * moves with an injected clock; the periods kept in Redis are long enough never to end mid-test.
 */
const LICENSE = 'e'.repeat(64);

describe('SharedGate (Redis)', () => {
  const shared = coordinationsPerTest('gate-strategy');
  const clock = new ManualClock();

  function gatesOf(options: { failureThreshold?: number; openMs?: number; exhaustedPauseMs?: number } = {}, state: RedisGateStateOptions = {}): [SharedGate, SharedGate] {
    const [a, b] = shared.processes.map(
      (coordination) => new SharedGate({ now: () => clock.now(), ...options, shared: redisGateState(coordination.redis!, LICENSE, state) }),
    );
    return [a!, b!];
  }

  const redis = (): SharedRedis => shared.processes[0].redis!;
  const gateKey = (name: string) => redis().key(`gate:${LICENSE}:${name}`);

  it('refuses in one instance while a pause another set (no requests remaining) lasts', async () => {
    const [a, b] = gatesOf({ exhaustedPauseMs: 60_000 });
    a.noteRemaining(0);
    await expect.poll(() => redis().client.pttl(gateKey('paused'))).toBeGreaterThan(0);

    const attempt = counted(() => Promise.resolve('ok'));
    const refused = (await b.run('GET', '/v4/servers', attempt).catch((error: unknown) => error)) as StoreError;
    expect(refused).toMatchObject({ status: 429 });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(attempt.calls).toBe(0);
    expect(b.load.paused).toBe(true);
    // What the operator is shown ages with the process's clock, without asking Redis again.
    clock.advance(60_000);
    expect(b.load.paused).toBe(false);
  });

  it('adds up outages seen by both instances, then both refuse without calling the store', async () => {
    const [a, b] = gatesOf({ failureThreshold: 3, openMs: 60_000 });
    await expect(a.run('GET', '/v4/servers', () => Promise.reject(outage()))).rejects.toMatchObject({ status: 503 });
    await expect(a.run('GET', '/v4/servers', () => Promise.reject(outage()))).rejects.toMatchObject({ status: 503 });
    await expect(b.run('GET', '/v4/servers', () => Promise.reject(outage()))).rejects.toMatchObject({ status: 503 });

    const attempt = counted(() => Promise.resolve('ok'));
    await expect(a.run('GET', '/v4/servers', attempt)).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(b.run('GET', '/v4/servers', attempt)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(attempt.calls).toBe(0);
    expect([a.state, b.state]).toEqual(['open', 'open']);
    clock.advance(60_000);
    expect(b.state).toBe('half-open');
  });

  it('closes the breaker for every instance when the trial gets a business answer', async () => {
    const [a, b] = gatesOf({ failureThreshold: 2 });
    // The breaker's period is over with the outages still counted: half-open, as Redis leaves it.
    await redis().client.set(gateKey('failures'), '2');
    await expect(a.run('POST', '/v4/cart/paymentUrl', () => Promise.reject(business()))).rejects.toMatchObject({ status: 422 });
    expect(await redis().client.exists(gateKey('failures'), gateKey('trial'))).toBe(0);
    await expect(b.run('GET', '/v4/servers', () => Promise.resolve('ok'))).resolves.toBe('ok');
    expect(b.state).toBe('closed');
  });

  it('gives its shared slot back whatever the answer', async () => {
    // One slot, and a short wait for it: a slot kept by any answer would refuse the next request.
    const [a, b] = gatesOf({}, { slots: 1, acquireTimeoutMs: 1_000, retryIntervalMs: 10 });
    await expect(a.run('POST', '/v4/cart/paymentUrl', () => Promise.reject(business()))).rejects.toMatchObject({ status: 422 });
    await expect(a.run('GET', '/v4/servers', () => Promise.reject(outage()))).rejects.toMatchObject({ status: 503 });
    await expect(a.run('GET', '/v4/servers', () => Promise.resolve('a'))).resolves.toBe('a');
    await expect(b.run('GET', '/v4/servers', () => Promise.resolve('b'))).resolves.toBe('b');
    expect(a.idle && b.idle).toBe(true);
  });

  it('counts a request waiting for a shared slot as queued, and refuses it when none frees in time', async () => {
    const [a, b] = gatesOf({}, { slots: 1, acquireTimeoutMs: 200, retryIntervalMs: 10 });
    const holding = deferred<string>();
    const first = a.run('GET', '/v4/servers', () => holding.promise);
    await expect.poll(() => a.load.inFlight).toBe(1);

    const attempt = counted(() => Promise.resolve('b'));
    const waiting = b.run('GET', '/v4/servers', attempt);
    await expect.poll(() => b.load).toEqual({ inFlight: 0, queued: 1, paused: false });
    await expect(waiting).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringContaining('no request slot of the license freed in time') });
    expect(attempt.calls).toBe(0);
    expect(b.idle).toBe(true);

    holding.resolve('a');
    await expect(first).resolves.toBe('a');
  });
});
