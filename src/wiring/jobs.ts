import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { BackgroundJob, JobRunner } from '../services/jobs/runner.js';
import { pruneJob } from '../services/link-pruner.js';
import { panelRefreshJob, type PanelRefresher } from '../services/panel-refresh.js';
import { paymentWatchJob } from '../services/payment-watch/watcher.js';
import type { PaymentWatcher } from '../services/payment-watch/watcher.js';
import { roleExpiryJob } from '../services/rewards.js';
import type { PaymentLinkRepository } from '../storage/payment-links.js';

/**
 * Every background job, on the one runner (src/services/jobs/runner.ts; docs/background-jobs.md),
 * in the order their first rounds run at start: pruning first (a restarted bot never serves records
 * it should have forgotten), then ended roles, the store webhooks' reload, the payment rounds (the
 * purchase feed rides them), the panels. `manual` jobs run only when a test or the bench calls `runNow`.
 */
export function addBackgroundJobs(
  jobs: JobRunner,
  deps: {
    links: PaymentLinkRepository;
    sweepExpired: (now: number) => Promise<number>;
    rewards: { removeDue(): Promise<{ removed: number; failed: number }> };
    storeWebhooksReload: BackgroundJob;
    payments: PaymentWatcher;
    panels: PanelRefresher;
    shards: Config['SHARDS'];
    clock: Clock;
    logger: Logger;
    paymentWatch?: 'timer' | 'manual';
    panelRefresh?: 'timer' | 'manual';
  },
): void {
  jobs.add(pruneJob(deps.links, deps.sweepExpired, deps.clock, deps.logger));
  jobs.add(roleExpiryJob(deps.rewards, deps.logger));
  jobs.add(deps.storeWebhooksReload);
  jobs.add(paymentWatchJob(deps.payments), { manual: deps.paymentWatch === 'manual' });
  // Each process refreshes the panels of the guilds on its own shards (client.guilds), so the job's name carries them.
  if (deps.panelRefresh !== 'manual') jobs.add(panelRefreshJob(deps.panels, deps.shards === 'auto' ? 'auto' : deps.shards.join(',')));
}
