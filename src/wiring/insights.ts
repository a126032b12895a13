import type { Client } from 'discord.js';
import type Keyv from 'keyv';
import { digestView } from '../../commands/admin/insights-views.js';
import type { GuildLog } from '../discord/guild-log.js';
import { insightsDigestPoster } from '../discord/insights-digest-poster.js';
import { WeeklyDigest } from '../services/insights/digest.js';
import type { StoreDirectory } from '../services/store-directory.js';
import type { GuildSettingsRepository } from '../storage/guild-settings.js';
import type { InsightsDigestStore } from '../storage/insights-digest.js';
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
export interface InsightsWiring {
  /** INSIGHTS: off counts nothing. */
  counting: boolean;
  keyv: Keyv;
  redis: Coordination['redis'];
  digestGuilds: InsightsDigestStore;
  clock: Clock;
  logger: Logger;
  jobs: JobRunner;
  renderer?: ChartRenderer | undefined;
  client: Client;
  guildLog: GuildLog;
  settings: GuildSettingsRepository;
  directory: StoreDirectory;
}

/** The insights, their flush job, and the weekly digest's job (its registry is kept in step with the settings by the setup service). */
export function wireInsights(deps: InsightsWiring): { insights: Insights; step: StepHandler } {
  const store = deps.redis ? new RedisInsightsStore(deps.redis) : new KeyvInsightsStore(deps.keyv);
  const insights = new Insights({ counting: deps.counting, store, clock: deps.clock, logger: deps.logger, renderer: chartRenderer(deps.renderer) });
  deps.jobs.add(insights.flushJob());
  const digest = new WeeklyDigest({
    store: deps.digestGuilds,
    insights,
    poster: insightsDigestPoster(deps.client, deps.guildLog, deps.logger, digestView),
    channelOf: async (guildId) => (await deps.settings.get(guildId)).digestChannelId,
    shopOf: (guildId) => deps.directory.forGuild(guildId),
    clock: deps.clock,
    logger: deps.logger,
  });
  deps.jobs.add(digest.job());
  return { insights, step: async (event) => insights.counting.paid(event) };
}
