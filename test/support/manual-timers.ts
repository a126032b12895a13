import type { ManualClock } from '../../src/clock.js';
import type { Timers } from '../../src/services/jobs/runner.js';

/**
 * The JobRunner's timers on a test's clock: a timer is due `ms` after the clock's time when it was
 * set; `runDue()` fires those due now and waits for the rounds they started. No wall-clock wait.
 */
export class ClockTimers implements Timers {
  readonly pending = new Map<number, { at: number; ms: number; run: () => Promise<void> }>();
  /** Every delay set, in order (what a job waited: its period, or its backoff). */
  readonly delays: number[] = [];
  #next = 0;

  constructor(private readonly clock: ManualClock) {}

  setTimeout(run: () => Promise<void>, ms: number) {
    const id = ++this.#next;
    this.pending.set(id, { at: this.clock.now() + ms, ms, run });
    this.delays.push(ms);
    return { id, unref: () => undefined };
  }

  clearTimeout(handle: unknown): void {
    const id = (handle as { id?: number } | undefined)?.id;
    if (id !== undefined) this.pending.delete(id);
  }

  async runDue(): Promise<void> {
    const due = [...this.pending].filter(([, timer]) => timer.at <= this.clock.now());
    for (const [id] of due) this.pending.delete(id);
    await Promise.all(due.map(([, timer]) => timer.run()));
  }
}
