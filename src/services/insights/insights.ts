import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import { fingerprintOf } from '../../security/license-id.js';
import type { InsightsStore } from '../../storage/insights.js';
import { fixedBackoff } from '../jobs/backoff.js';
import type { BackgroundJob } from '../jobs/runner.js';
import type { ChartRenderer, ChartRequest } from './chart-renderer.js';
import { InsightsCounter } from './counter.js';
import { InsightsCounting } from './counting.js';
import { dayStart } from './keys.js';
import { readReport, type InsightsReport, type Period } from './report.js';

/** How often each process writes the counts it gathered. */
export const FLUSH_EVERY_MS = 5_000;
/** A report (and its chart) is reused this long per guild, server and period: two admins asking at once render once. */
export const REPORT_CACHE_MS = 10 * 60_000;
const REPORTS_KEPT = 200;

export interface ReportRequest {
  guildId: string;
  license: string;
  period: Period;
  /** A server's id, or '' for the whole shop. */
  server: string;
  /** The period's last day (UTC, YYYY-MM-DD); none: today (the weekly digest asks for the week before its Monday). */
  lastDay?: string;
  /** The chart's title and language (the chart is drawn for the first asker's language). */
  chart: Omit<ChartRequest, 'days'>;
}

export interface RenderedReport {
  report: InsightsReport;
  /** The PNG, or undefined when no renderer is there or it failed (the screen says so). */
  chart: Buffer | undefined;
  madeAt: number;
  /** The operator turned counting off (INSIGHTS=off): the numbers stay as they were. */
  countingOff?: true;
}

/**
 * The shop's insights: what handlers count (`counting`), the counts written every few seconds
 * (`flushJob`), and the report an admin reads (`report`), cached with its chart for ten minutes.
 */
export class Insights {
  readonly counting: InsightsCounting;
  readonly #counter: InsightsCounter;
  readonly #reports = new Map<string, Promise<RenderedReport>>();

  constructor(private readonly deps: { store: InsightsStore; clock: Clock; logger: Logger; renderer: ChartRenderer | undefined; counting?: boolean }) {
    this.#counter = new InsightsCounter({ store: deps.store, clock: deps.clock, logger: deps.logger, onFull: () => void this.flush() });
    this.counting = new InsightsCounting(this.#counter, deps.clock, deps.counting ?? true);
  }

  /** Writes the counts gathered so far (a failed write is kept for one more try, and logged). */
  flush(): Promise<void> {
    return this.#counter.flush();
  }

  /** The report for a guild, server and period: this process's counts written first, then read (cached ten minutes). */
  report(request: ReportRequest): Promise<RenderedReport> {
    const license = fingerprintOf(request.license);
    const id = `${request.guildId}|${license}|${request.server}|${request.period}|${request.lastDay ?? ''}`;
    const now = this.deps.clock.now();
    const cached = this.#reports.get(id);
    if (cached) return cached.then((rendered) => (now - rendered.madeAt < REPORT_CACHE_MS ? rendered : this.#fresh(id, request, license)));
    return this.#fresh(id, request, license);
  }

  #fresh(id: string, request: ReportRequest, license: string): Promise<RenderedReport> {
    const made = (async (): Promise<RenderedReport> => {
      await this.flush();
      const now = this.deps.clock.now();
      const until = request.lastDay ? dayStart(request.lastDay) : now;
      const report = await readReport(this.deps.store, { guildId: request.guildId, license, period: request.period, server: request.server, now: until });
      let chart: Buffer | undefined;
      if (this.deps.renderer) {
        const days = report.daily.map(({ day, paidGrosze, linksIssued }) => ({ day, paidGrosze, linksIssued }));
        chart = await this.deps.renderer.render({ ...request.chart, days }).catch((error: unknown) => {
          this.deps.logger.warn({ err: error }, 'insights: the chart could not be drawn; shown without it');
          return undefined;
        });
      }
      return { report, chart, madeAt: now, ...(this.counting.enabled ? {} : { countingOff: true as const }) };
    })();
    this.#reports.delete(id);
    this.#reports.set(id, made);
    // A failed read is not kept: the next ask tries again.
    made.catch(() => {
      if (this.#reports.get(id) === made) this.#reports.delete(id);
    });
    if (this.#reports.size > REPORTS_KEPT) this.#reports.delete(this.#reports.keys().next().value!);
    return made;
  }

  /** Every process writes its own counts every few seconds, and once more when it stops. */
  flushJob(): BackgroundJob {
    return {
      name: 'insights-flush',
      everyMs: FLUSH_EVERY_MS,
      work: () => this.flush(),
      backoff: fixedBackoff(FLUSH_EVERY_MS),
      doing: 'writing insights counts',
      failed: 'insights counts could not be written',
      processes: 'each-process',
      firstRound: 'after-interval',
      stop: () => this.flush().catch(() => undefined),
      cost: {
        storeRequestsPerHour: '0',
        readsPerRound: 'SQLite: one read of the records the batch touches (none on Redis); none when nothing was counted',
        writesPerRound: 'one statement (SQLite) or one script (Redis) per round with counts; none without',
      },
    };
  }

  async close(): Promise<void> {
    await this.flush().catch(() => undefined);
    await this.deps.renderer?.close();
  }
}
