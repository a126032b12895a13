import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { StoreError } from '../../../src/spaceis/errors.js';
import { MAX_PAUSE_MS } from '../../../src/spaceis/gate-rules.js';
import { LocalGate } from '../../../src/spaceis/local-gate.js';
import { business, counted, deferred, outage } from '../../support/gate.js';

/**
 * The gate of a license one process sells from, alone: its pause and breaker live in memory and
 * move with the injected clock, so every rule is checked without waiting.
 */
const ok = () => Promise.resolve('ok');

describe('LocalGate', () => {
  it('pauses for the Retry-At of a 429, at most MAX_PAUSE_MS, then lets calls through', async () => {
    const clock = new ManualClock();
    const gate = new LocalGate({ now: () => clock.now() });
    // Ten minutes: plausible, but longer than the license is ever paused.
    const long = new StoreError({ kind: 'http', status: 429, message: 'slow down', retryAfterSeconds: 600 });
    await expect(gate.run('GET', '/v4/servers', () => Promise.reject(long))).rejects.toBe(long);
    expect(gate.load.paused).toBe(true);

    const attempt = counted(ok);
    clock.advance(MAX_PAUSE_MS - 1);
    await expect(gate.run('GET', '/v4/servers', attempt)).rejects.toMatchObject({ status: 429, retryAfterSeconds: 1 });
    expect(attempt.calls).toBe(0);
    clock.advance(1);
    expect(gate.load.paused).toBe(false);
    await expect(gate.run('GET', '/v4/servers', attempt)).resolves.toBe('ok');
    expect(attempt.calls).toBe(1);
  });

  it.each([
    ['an epoch timestamp where seconds belong', 1_800_000_000, 30_000],
    ['two hours', 7_200, 30_000],
    ['two minutes', 120, 120_000],
    ['ten minutes, capped as ever', 600, MAX_PAUSE_MS],
  ])('reads a Retry-At of %s (%i) as a pause of %i ms: over an hour is a broken header, paused briefly', async (_what, retryAfterSeconds, pausedMs) => {
    const clock = new ManualClock();
    const gate = new LocalGate({ now: () => clock.now() });
    const throttled = new StoreError({ kind: 'http', status: 429, message: 'slow down', retryAfterSeconds });
    await expect(gate.run('GET', '/v4/servers', () => Promise.reject(throttled))).rejects.toBe(throttled);

    const attempt = counted(ok);
    clock.advance(pausedMs - 1);
    await expect(gate.run('GET', '/v4/servers', attempt)).rejects.toMatchObject({ status: 429, retryAfterSeconds: 1 });
    clock.advance(1);
    await expect(gate.run('GET', '/v4/servers', attempt)).resolves.toBe('ok');
    expect(attempt.calls).toBe(1);
  });

  it('pauses only briefly when no requests remain, and not at all while some do', async () => {
    const clock = new ManualClock();
    const gate = new LocalGate({ now: () => clock.now(), exhaustedPauseMs: 2_000 });
    gate.noteRemaining(3);
    await expect(gate.run('GET', '/v4/servers', ok)).resolves.toBe('ok');

    gate.noteRemaining(0);
    await expect(gate.run('GET', '/v4/servers', ok)).rejects.toMatchObject({ status: 429, retryAfterSeconds: 2 });
    clock.advance(2_000);
    await expect(gate.run('GET', '/v4/servers', ok)).resolves.toBe('ok');
  });

  it('opens after N outages in a row; a failed half-open trial opens it for another period', async () => {
    const clock = new ManualClock();
    const gate = new LocalGate({ now: () => clock.now(), failureThreshold: 2, openMs: 10_000 });
    for (let n = 0; n < 2; n += 1) await expect(gate.run('GET', '/v4/servers', () => Promise.reject(outage()))).rejects.toMatchObject({ status: 503 });
    expect(gate.state).toBe('open');

    clock.advance(10_000);
    expect(gate.state).toBe('half-open');
    await expect(gate.run('GET', '/v4/servers', () => Promise.reject(outage()))).rejects.toMatchObject({ status: 503 });
    expect(gate.state).toBe('open');
    const attempt = counted(ok);
    clock.advance(9_999);
    await expect(gate.run('GET', '/v4/servers', attempt)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(attempt.calls).toBe(0);

    clock.advance(1);
    await expect(gate.run('GET', '/v4/servers', attempt)).resolves.toBe('ok');
    expect(gate.state).toBe('closed');
  });

  it('closes the breaker when the trial gets a business answer: the store is up', async () => {
    const clock = new ManualClock();
    const gate = new LocalGate({ now: () => clock.now(), failureThreshold: 1, openMs: 5_000 });
    await expect(gate.run('GET', '/v4/servers', () => Promise.reject(outage()))).rejects.toMatchObject({ status: 503 });
    clock.advance(5_000);
    await expect(gate.run('POST', '/v4/cart/paymentUrl', () => Promise.reject(business()))).rejects.toMatchObject({ status: 422 });
    expect(gate.state).toBe('closed');
    await expect(gate.run('GET', '/v4/servers', ok)).resolves.toBe('ok');
  });

  it('counts outages again from zero after a good answer', async () => {
    const gate = new LocalGate({ now: () => 0, failureThreshold: 3 });
    const fail = () => gate.run('GET', '/v4/servers', () => Promise.reject(outage())).catch(() => undefined);
    await fail();
    await fail();
    await gate.run('GET', '/v4/servers', ok);
    await fail();
    await fail();
    expect(gate.state).toBe('closed');
    await fail();
    expect(gate.state).toBe('open');
  });

  it('lets the background warm-up go only when a slot is free and no member waits', async () => {
    const gate = new LocalGate({ now: () => 0, maxConcurrent: 1 });
    await gate.whenQuiet(); // idle: at once

    const first = deferred<string>();
    const running = gate.run('GET', '/a', () => first.promise, 'guild-a');
    const second = deferred<string>();
    const waiting = gate.run('GET', '/b', () => second.promise, 'guild-b');
    let quiet = false;
    const warmUpMayGo = gate.whenQuiet().then(() => (quiet = true));

    first.resolve('a');
    await running;
    await new Promise((resolve) => setImmediate(resolve));
    // The freed slot went to the member who was waiting, not to the warm-up.
    expect(quiet).toBe(false);
    expect(gate.load).toEqual({ inFlight: 1, queued: 0, paused: false });

    second.resolve('b');
    await Promise.all([waiting, warmUpMayGo]);
    expect(gate.load).toEqual({ inFlight: 0, queued: 0, paused: false });
  });

  it('reports what runs and what waits, and is idle only when nothing does', async () => {
    const gate = new LocalGate({ now: () => 0, maxConcurrent: 1 });
    expect(gate.idle).toBe(true);
    const first = deferred<string>();
    const running = gate.run('GET', '/a', () => first.promise, 'guild-a');
    const waiting = gate.run('GET', '/b', ok, 'guild-b');
    expect(gate.load).toEqual({ inFlight: 1, queued: 1, paused: false });
    expect(gate.idle).toBe(false);

    first.resolve('a');
    await expect(Promise.all([running, waiting])).resolves.toEqual(['a', 'ok']);
    expect(gate.load).toEqual({ inFlight: 0, queued: 0, paused: false });
    expect(gate.idle).toBe(true);
  });
});
