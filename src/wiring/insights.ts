import type Keyv from 'keyv';
import type { Clock } from '../clock.js';
import type { Coordination } from '../coordination/coordination.js';
import type { Logger } from '../logger.js';
import { chartRenderer, type ChartRenderer } from '../services/insights/chart-renderer.js';

export type { ChartRenderer };
import { Insights } from '../services/insights/insights.js';
import type { JobRunner } from '../services/jobs/runner.js';
import type { StepHandler } from '../services/payment-events.js';
import { KeyvInsightsStore, RedisInsightsStore } from '../storage/insights.js';

/**
 * The insights: counts kept in Redis when processes share it (atomic increments, so processes add
 * up), else beside everything else in SQLite; each process writes its counts every few seconds
 * (a job of its own), and a paid link is counted by a recorded payment step (`insights`: `step`,
 * handed to PaymentEvents with the others), so a retried step never counts an order twice.
 */
export function wireInsights(deps: { keyv: Keyv; redis: Coordination['redis']; clock: Clock; logger: Logger; jobs: JobRunner; renderer?: ChartRenderer | undefined }): { insights: Insights; step: StepHandler } {
  const store = deps.redis ? new RedisInsightsStore(deps.redis) : new KeyvInsightsStore(deps.keyv);
  const insights = new Insights({ store, clock: deps.clock, logger: deps.logger, renderer: chartRenderer(deps.renderer) });
  deps.jobs.add(insights.flushJob());
  return { insights, step: async (event) => insights.counting.paid(event) };
}
