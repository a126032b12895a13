import type { Clock } from '../clock.js';
import type { Coordination } from '../coordination/coordination.js';
import type { Logger } from '../logger.js';
import type { PaymentLinkRepository } from '../storage/payment-links.js';
import { scheduleJob, type ScheduledJob } from './scheduled-job.js';

/** How often the prune pass runs while the bot runs (it also runs once at start). */
const PRUNE_EVERY_MS = 6 * 60 * 60_000;

/**
 * The prune pass, at start and then every few hours: notes the link days left to repair and
 * deletes payment-link records past their retention (PaymentLinkRepository.prune), then deletes
 * records whose time to live has ended (`sweepExpired`: carts, nicks, checkout times; SQLite keeps
 * them until read, Redis deletes them itself). The first pass is awaited so a restarted bot never
 * serves records it should have forgotten; a failure is logged and retried next time, never fatal,
 * and one job failing does not keep the other from running. `stop()` waits for a pass in flight
 * before storage closes. Processes sharing Redis prune one at a time (`runAlone`): the others skip
 * that round (repairing only the link days they alone remember).
 */
export function schedulePruning(
  links: PaymentLinkRepository,
  sweepExpired: (now: number) => Promise<number>,
  clock: Clock,
  logger: Logger,
  coordination: Pick<Coordination, 'runAlone'>,
): ScheduledJob {
  const pruneLinks = async () => {
    const deleted = await links.prune(clock.now());
    if (deleted > 0) logger.info({ deleted }, 'old payment-link records pruned');
  };
  const sweep = async () => {
    const deleted = await sweepExpired(clock.now());
    if (deleted > 0) logger.info({ deleted }, 'expired records deleted');
  };
  return scheduleJob({
    name: 'prune-links',
    everyMs: PRUNE_EVERY_MS,
    logger,
    coordination,
    doing: 'pruning payment-link records',
    failed: 'could not prune payment-link records',
    work: async () => {
      await pruneLinks().catch((error: unknown) => logger.warn({ err: error }, 'could not prune payment-link records'));
      await sweep().catch((error: unknown) => logger.warn({ err: error }, 'could not delete expired records'));
    },
    // Days this process could not note live in its memory too (see PaymentLinkRepository.create).
    skipped: async () => {
      await links.repairIndexes();
    },
  });
}
