import type { Clock } from '../clock.js';
import type { Coordination } from '../coordination/coordination.js';
import type { Logger } from '../logger.js';
import type { PaymentLinkRepository } from '../storage/payment-links.js';
import { scheduleJob, type ScheduledJob } from './scheduled-job.js';

/** How often old payment-link records are pruned while the bot runs (it also prunes once at start). */
const PRUNE_EVERY_MS = 6 * 60 * 60_000;

/**
 * Deletes payment-link records past their retention, at start and then every few hours. The first
 * run is awaited so a restarted bot never serves records it should have forgotten; a failure is
 * logged and retried next time, never fatal. `stop()` waits for a run in flight before storage closes.
 * Processes sharing Redis prune one at a time (`runAlone`): the others skip that round.
 */
export function schedulePruning(
  links: PaymentLinkRepository,
  clock: Clock,
  logger: Logger,
  coordination: Pick<Coordination, 'runAlone'>,
): ScheduledJob {
  return scheduleJob({
    name: 'prune-links',
    everyMs: PRUNE_EVERY_MS,
    logger,
    coordination,
    doing: 'pruning payment-link records',
    failed: 'could not prune payment-link records',
    work: async () => {
      const deleted = await links.prune(clock.now());
      if (deleted > 0) logger.info({ deleted }, 'old payment-link records pruned');
    },
  });
}
