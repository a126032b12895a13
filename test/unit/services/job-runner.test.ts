import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/logger.js';
import { afterFailure, doublingBackoff, fixedBackoff } from '../../../src/services/jobs/backoff.js';
import { KeyedRetry } from '../../../src/services/jobs/keyed-retry.js';
import { JobRunner, type BackgroundJob, type Timers } from '../../../src/services/jobs/runner.js';
import { FOLLOW_UP_MAX_MS, followUpBackoff, NOTIFY_ATTEMPTS, stepRetry, UNKNOWN_BACKOFF } from '../../../src/services/payment-watch/machine.js';
import { ROUND_BACKOFF } from '../../../src/services/payment-watch/watcher.js';

const COST = { storeRequestsPerHour: '0', readsPerRound: '1', writesPerRound: '0' };

/** Timers the test fires by hand: what is pending, and after how long. */
class ManualTimers implements Timers {
  pending: { run: () => void; ms: number; id: number }[] = [];
  #next = 0;
  setTimeout(run: () => void, ms: number) {
    const id = ++this.#next;
    this.pending.push({ run, ms, id });
    return { id, unref: () => undefined };
  }
  clearTimeout(handle: unknown) {
    const id = (handle as { id?: number } | undefined)?.id;
    this.pending = this.pending.filter((timer) => timer.id !== id);
  }
  /** Fires the one pending timer; returns its delay. */
  fire(): number {
    const timer = this.pending.shift();
    if (!timer) throw new Error('no timer pending');
    timer.run();
    return timer.ms;
  }
}

function setup(random = () => 0.5) {
  const clock = new ManualClock();
  const lines: string[] = [];
  const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
  const timers = new ManualTimers();
  const runner = new JobRunner({ clock, logger, coordination: { runAlone: async (_name, work) => (await work(), true) }, random, timers });
  return { clock, lines, timers, runner, said: (text: string) => lines.filter((line) => line.includes(text)).length };
}

const settle = () => new Promise(setImmediate);

describe('background jobs: one runner, named backoffs, an end to every retry', () => {
  it('doubling with jitter: between half and all of base·2ⁿ⁻¹, capped; the payment rounds cap at 10 minutes', () => {
    const backoff = doublingBackoff(1_000, 8_000);
    expect(backoff.name).toBe('doubling 1s..8s, jitter');
    expect([1, 2, 3, 4, 5].map((n) => backoff.delayMs(n, () => 0))).toEqual([500, 1_000, 2_000, 4_000, 4_000]);
    expect([1, 2, 3, 4, 5].map((n) => backoff.delayMs(n, () => 0.999_999))).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
    expect(ROUND_BACKOFF.delayMs(40, () => 0.999_999)).toBe(600_000);
    expect(fixedBackoff(300_000).name).toBe('fixed 5m');
  });

  it("the payment wing's retries in the same words: the same waits as its own formulas had, and an end", () => {
    // A license's failed round: 5 s doubling to 10 min, shortened by up to a quarter at random.
    expect(ROUND_BACKOFF.name).toBe('doubling 5s..10m, jitter 25%');
    expect([1, 2, 3, 8, 9, 40].map((n) => ROUND_BACKOFF.delayMs(n, () => 0.999_999))).toEqual([5_000, 10_000, 20_000, 600_000, 600_000, 600_000]);
    expect([1, 2, 8].map((n) => ROUND_BACKOFF.delayMs(n, () => 0))).toEqual([3_750, 7_500, 450_000]);
    // A pending payment followed up, at a 30 s poll: after the n-th answer, 30 s·2ⁿ⁻¹, exact, at most 15 minutes.
    const followUp = followUpBackoff(30_000);
    expect(followUp.name).toBe('doubling 30s..15m');
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => followUp.delayMs(n))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 900_000, FOLLOW_UP_MAX_MS]);
    expect(UNKNOWN_BACKOFF.delayMs(12)).toBe(6 * 3_600_000);
    // A settled payment's steps: the follow-up waits, ended at the 8th failed attempt.
    const steps = stepRetry(30_000);
    expect([1, 2, 7].map((n) => afterFailure(steps, n))).toEqual([{ ended: false, delayMs: 30_000 }, { ended: false, delayMs: 60_000 }, { ended: false, delayMs: 900_000 }]);
    expect(afterFailure(steps, NOTIFY_ATTEMPTS)).toEqual({ ended: true });
    // Without `giveUpAfter` a retry goes on (a job's rounds, a license's round).
    expect(afterFailure({ backoff: fixedBackoff(1_000) }, 1_000)).toEqual({ ended: false, delayMs: 1_000 });
  });

  it('runs the first round at start, then on its timer; a failure waits the backoff and is said once, the recovery once', async () => {
    const { runner, timers, said } = setup();
    let rounds = 0;
    let failing = false;
    const job: BackgroundJob = {
      name: 'tick',
      everyMs: 60_000,
      backoff: doublingBackoff(10_000, 40_000),
      doing: 'ticking',
      failed: 'could not tick',
      cost: COST,
      work: async () => {
        rounds++;
        if (failing) throw new Error('storage down');
      },
    };
    runner.add(job);
    await runner.start();
    expect(rounds).toBe(1);
    expect(timers.pending.map((timer) => timer.ms)).toEqual([60_000]);

    failing = true;
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      waits.push(timers.fire());
      await settle();
    }
    // 60 s (healthy), then the backoff at jitter 0.5: 7.5 s, 15 s, 30 s; the next wait 30 s too (capped at 40 s).
    expect(waits).toEqual([60_000, 7_500, 15_000, 30_000]);
    expect(timers.pending.map((timer) => timer.ms)).toEqual([30_000]);
    expect(said('could not tick')).toBe(1);
    expect(runner.status()[0]).toMatchObject({ name: 'tick', state: 'backing-off', failures: 4, backoff: 'doubling 10s..40s, jitter' });

    failing = false;
    timers.fire();
    await settle();
    expect(said('tick: working again')).toBe(1);
    expect(timers.pending.map((timer) => timer.ms)).toEqual([60_000]);
    await runner.stop();
    expect(timers.pending).toEqual([]);
  });

  it('a job never ends: after any number of failed rounds the next one comes after the backoff', async () => {
    const { runner, timers } = setup();
    let rounds = 0;
    runner.add({ name: 'fragile', everyMs: 1_000, backoff: fixedBackoff(2_000), doing: 'x', failed: 'fragile failed', cost: COST, work: async () => {
      rounds++;
      throw new Error('no');
    } });
    await runner.start();
    for (let i = 0; i < 20; i++) {
      expect(timers.fire()).toBe(2_000);
      await settle();
    }
    expect(rounds).toBe(21);
    expect(runner.status()[0]).toMatchObject({ state: 'backing-off', failures: 21 });
    await runner.stop();
  });

  it('a manual job runs only on runNow; an each-process job skips runAlone; after-interval waits one interval; stop tells the job first', async () => {
    const clock = new ManualClock();
    const logger = createLogger('silent');
    const timers = new ManualTimers();
    const alone: string[] = [];
    const runner = new JobRunner({ clock, logger, coordination: { runAlone: async (name, work) => (alone.push(name), await work(), true) }, random: () => 0.5, timers });
    const ran: string[] = [];
    const events: string[] = [];
    const job = (name: string, extra: Partial<BackgroundJob> = {}): BackgroundJob => ({ name, everyMs: 5_000, backoff: fixedBackoff(5_000), doing: name, failed: name, cost: COST, work: async () => void ran.push(name), ...extra });
    runner.add(job('by-hand'), { manual: true });
    runner.add(job('rounds', { processes: 'each-process', firstRound: 'after-interval', stop: async () => void events.push('told to stop') }));
    await runner.start();
    // Neither ran at start: one is manual, the other waits one interval.
    expect(ran).toEqual([]);
    expect(timers.pending.map((timer) => timer.ms)).toEqual([5_000]);
    timers.fire();
    await settle();
    expect(ran).toEqual(['rounds']);
    // Not under runAlone: each process runs it (it keeps to one process per key itself).
    expect(alone).toEqual([]);
    await runner.runNow('by-hand');
    expect(ran).toEqual(['rounds', 'by-hand']);
    expect(alone).toEqual(['by-hand']);
    // A manual job never sets a timer.
    expect(timers.pending).toHaveLength(1);
    expect(runner.status().map(({ name }) => name)).toEqual(['by-hand', 'rounds']);
    await runner.stop();
    expect(events).toEqual(['told to stop']);
    expect(timers.pending).toEqual([]);
  });

  it('per key (the payment rounds): each failing key waits its own doubling backoff, said once, due again when its wait is over', () => {
    const clock = new ManualClock();
    const retry = new KeyedRetry({ backoff: ROUND_BACKOFF, clock, random: () => 0.5 });
    const first = retry.failed('license-a');
    expect(first).toMatchObject({ failures: 1, sayIt: true, retryAt: clock.now() + 4_375 });
    expect(retry.blocked('license-a')).toBe(true);
    expect(retry.blocked('license-b')).toBe(false);
    expect(retry.due()).toEqual([]);
    clock.advance(4_375);
    expect(retry.blocked('license-a')).toBe(false);
    expect(retry.due()).toEqual(['license-a']);
    expect(retry.failed('license-a')).toMatchObject({ failures: 2, sayIt: false, retryAt: clock.now() + 8_750 });
    expect(retry.succeeded('license-a')).toBe(true);
    expect(retry.succeeded('license-a')).toBe(false);
    expect(retry.due()).toEqual([]);
  });
});
