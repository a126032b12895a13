import { describe, expect, it } from 'vitest';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { ClockTimers } from '../support/manual-timers.js';

/**
 * Issue 36, point 3, "one job shape for background work": the payment rounds run as the JobRunner's
 * `payment-watch` job, started and stopped with the other jobs, with a named backoff.
 *
 * Before: the watcher ran its own setInterval (watcher.ts start()/stop()), outside the runner: no
 * `payment-watch` job (`jobs.runNow('payment-watch')` threw "no job named payment-watch"), and a
 * round whose due-time index could not be read was tried at every 5 s tick with a warning each time
 * (120 warnings in 10 minutes).
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

const messages = (logs: string[]) => logs.map((line) => JSON.parse(line) as { msg?: string; level?: number; backoff?: string });

describe('the payment rounds as a job of the one runner', () => {
  let timers!: ClockTimers;
  const h = useHarness({ paymentWatch: 'timer', jobTimers: (clock) => (timers = new ClockTimers(clock)) });
  const s = linkSteps(h);
  const watchJob = () => h.bot.services.jobs.status().find((job) => job.name === 'payment-watch');
  /** Moves the clock in 5 s steps, firing the runner's timers that are due (the rounds they start are awaited). */
  const run = async (ms: number) => {
    for (let elapsed = 0; elapsed < ms; elapsed += 5 * SECOND) {
      h.clock.advance(5 * SECOND);
      await timers.runDue();
    }
  };

  it('settles a paid link on the runner’s timer, with no test calling a round', async () => {
    const job = watchJob();
    expect(job).toMatchObject({ state: 'waiting', backoff: 'doubling 5s..1m, jitter' });
    expect(job?.cost.storeRequestsPerHour).toContain('latest_buyers');
    const issued = await s.checkout(new Member(h), 'Timer_Buyer', VIP_30);
    h.store.pay(issued.url);
    await run(1 * MINUTE);
    expect((await s.record(issued))!.payment).toMatchObject({ status: 'paid' });
  });

  it('a round that throws backs off (doubling up to a minute, jitter), said once, and recovers by itself', async () => {
    const dueIndex = (key: string) => key.includes('pay-due:') || key.includes('pay-licenses');
    const logsBefore = h.logs.length;
    h.storage.failReads = dueIndex;
    await run(10 * MINUTE);
    // Rounds tried (each failed): the runner counts them.
    const tries = watchJob()!.failures;
    // 2.5–5 s, 5–10 s, 10–20 s, 20–40 s, then 30–60 s: 11 to 25 tries in 10 minutes, not 120.
    expect(tries).toBeGreaterThanOrEqual(11);
    expect(tries).toBeLessThanOrEqual(25);
    expect(watchJob()).toMatchObject({ state: 'backing-off', backoff: 'doubling 5s..1m, jitter' });
    const said = messages(h.logs.slice(logsBefore)).filter((line) => (line.level ?? 0) >= 40 && line.msg?.includes('payment watch'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ backoff: 'doubling 5s..1m, jitter' });

    h.storage.recover();
    const issued = await s.checkout(new Member(h), 'After_Blip', VIP_30);
    h.store.pay(issued.url);
    await run(2 * MINUTE);
    expect((await s.record(issued))!.payment).toMatchObject({ status: 'paid' });
    expect(watchJob()).toMatchObject({ state: 'waiting', failures: 0 });
    expect(messages(h.logs.slice(logsBefore)).filter((line) => line.msg === 'payment-watch: working again')).toHaveLength(1);
  });

  it('stops with the runner: no timer left, no store request after the bot stopped', async () => {
    await s.checkout(new Member(h), 'Still_Open', VIP_30);
    await h.bot.stop();
    expect(timers.pending.size).toBe(0);
    const requests = h.store.requests.length;
    await run(5 * MINUTE);
    expect(h.store.requests.length).toBe(requests);
  });
});
