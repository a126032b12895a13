import type { Clock } from '../../clock.js';
import type { Coordination } from '../../coordination/coordination.js';
import type { Logger } from '../../logger.js';
import type { Backoff, Random } from './backoff.js';

/**
 * What a background job costs, stated where it is defined and printed by the bench: store requests
 * an hour, storage reads and writes per round, in words a reader can check.
 */
interface JobCost {
  storeRequestsPerHour: string;
  readsPerRound: string;
  writesPerRound: string;
}

/** One background job: a round every `everyMs`, one process at a time across processes sharing Redis. */
export interface BackgroundJob {
  /** The job's name across processes (`runAlone`) and in logs. */
  name: string;
  everyMs: number;
  work: () => Promise<void>;
  /**
   * How long to wait after a failed round instead of `everyMs`. A job never ends: its rounds are
   * its own retries, each after the backoff, until one works (the work a round owes has its own
   * end: a payment step given up, a refused role removal).
   */
  backoff: Backoff;
  /** What the logs say: "another process is <doing>; skipped here", "<failed>". */
  doing: string;
  failed: string;
  /** What this process still does when another process ran the round (e.g. what only it remembers). */
  skipped?: () => Promise<void>;
  /**
   * `each-process`: the round runs in every process, not under one `runAlone` for the job: the job
   * keeps to one process per key itself (the payment rounds: one `runAlone` per license, so two
   * processes share the licenses due instead of one doing them all). Default `one-process`.
   */
  processes?: 'one-process' | 'each-process';
  /**
   * `after-interval`: the first round runs `everyMs` after start, not awaited by `start()` (the
   * payment rounds: their first round after a restart visits every watched license, which must not
   * hold up the bot's start or the jobs after it). Default `at-start`.
   */
  firstRound?: 'at-start' | 'after-interval';
  /** Told first when the runner stops (before it waits for the round in flight): a long round ends early (the payment rounds' store waits). */
  stop?: () => Promise<void>;
  cost: JobCost;
}

interface JobState {
  name: string;
  state: 'waiting' | 'backing-off';
  failures: number;
  /** When the next round runs. */
  nextAt: number;
  backoff: string;
  cost: JobCost;
}

export interface Timers {
  /** `run` returns the round it started (tests that fire timers by hand wait for it). */
  setTimeout(run: () => Promise<void>, ms: number): { unref?(): void };
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (run, ms) => setTimeout(() => void run(), ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface Entry {
  job: BackgroundJob;
  failures: number;
  nextAt: number;
  timer: unknown;
  running: Promise<void> | undefined;
  /** Run only by `runNow` (tests and the bench drive it on their clock): no timer. */
  manual: boolean;
}

/**
 * The one runner of the bot's background jobs (the payment rounds, role expiry, the link pruner,
 * the panel refresher, the store webhooks' reload):
 * added in one place (app.ts), started and stopped together. A round that fails waits the job's
 * named backoff (jitter drawn from the injected `random`) and is said once, not at every retry; its
 * recovery is said once too. A round still
 * running when the next is due is not started twice; `stop()` waits for the rounds in flight, so
 * Discord and storage can close after them. Tests drive rounds with `runNow` and an injected clock.
 */
export class JobRunner {
  readonly #entries = new Map<string, Entry>();
  readonly #timers: Timers;
  readonly #random: Random;
  /** Not started yet, or stopped: a round run now (`runNow`) sets no timer. */
  #stopped = true;

  constructor(
    private readonly o: { clock: Clock; logger: Logger; coordination: Pick<Coordination, 'runAlone'>; random?: Random; timers?: Timers },
  ) {
    this.#timers = o.timers ?? realTimers;
    this.#random = o.random ?? Math.random;
  }

  /** `manual`: the job runs only when `runNow` is called (tests, the bench), never on a timer; it is listed in `status()` all the same. */
  add(job: BackgroundJob, options: { manual?: boolean } = {}): void {
    if (this.#entries.has(job.name)) throw new Error(`JobRunner: a job named ${job.name} was already added`);
    this.#entries.set(job.name, { job, failures: 0, nextAt: this.o.clock.now(), timer: undefined, running: undefined, manual: options.manual ?? false });
  }

  /** Runs each job's first round (awaited, in the order added; `after-interval` ones only timed), then each on its own timer. */
  async start(): Promise<void> {
    this.#stopped = false;
    for (const entry of this.#entries.values()) {
      if (entry.manual) continue;
      if (entry.job.firstRound === 'after-interval') this.#schedule(entry);
      else await this.#round(entry);
    }
  }

  /** Stops every timer, tells each job that has a `stop` (its round in flight ends early), and waits for the rounds in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const entry of this.#entries.values()) this.#timers.clearTimeout(entry.timer);
    await Promise.all([...this.#entries.values()].map(async (entry) => {
      await entry.job.stop?.();
      await entry.running;
    }));
  }

  /** One round of the job now, whatever its timer (tests, the bench); a round in flight is joined, not doubled. */
  async runNow(name: string): Promise<void> {
    const entry = this.#entries.get(name);
    if (!entry) throw new Error(`JobRunner: no job named ${name}`);
    await this.#round(entry);
  }

  status(): JobState[] {
    return [...this.#entries.values()].map(({ job, failures, nextAt }) => ({
      name: job.name,
      state: failures > 0 ? 'backing-off' : 'waiting',
      failures,
      nextAt,
      backoff: job.backoff.name,
      cost: job.cost,
    }));
  }

  #round(entry: Entry): Promise<void> {
    entry.running ??= this.#attempt(entry).finally(() => {
      entry.running = undefined;
      this.#schedule(entry);
    });
    return entry.running;
  }

  async #attempt(entry: Entry): Promise<void> {
    const { job } = entry;
    const logger = this.o.logger;
    try {
      const ran = job.processes === 'each-process' ? (await job.work(), true) : await this.o.coordination.runAlone(job.name, job.work);
      if (!ran) {
        logger.debug(`another process is ${job.doing}; skipped here`);
        await job.skipped?.();
      }
      if (entry.failures > 0) logger.info({ job: job.name, failures: entry.failures }, `${job.name}: working again`);
      entry.failures = 0;
    } catch (error) {
      entry.failures++;
      // Said once per run of failures: the next ones are only counted.
      if (entry.failures === 1) logger.warn({ err: error, job: job.name, backoff: job.backoff.name }, `${job.failed}; trying again with backoff (said once)`);
    }
  }

  #schedule(entry: Entry): void {
    if (this.#stopped || entry.manual) return;
    this.#timers.clearTimeout(entry.timer);
    const delay = entry.failures > 0 ? entry.job.backoff.delayMs(entry.failures, this.#random) : entry.job.everyMs;
    entry.nextAt = this.o.clock.now() + delay;
    const timer = this.#timers.setTimeout(() => this.#round(entry), delay);
    // The timer alone must not keep the process alive.
    timer.unref?.();
    entry.timer = timer;
  }
}
