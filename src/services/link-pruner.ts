import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { PaymentLinkRepository } from '../storage/payment-links.js';
import { doublingBackoff } from './jobs/backoff.js';
import type { BackgroundJob } from './jobs/runner.js';

/** How often the prune pass runs while the bot runs (it also runs once at start). */
const PRUNE_EVERY_MS = 6 * 60 * 60_000;

/**
 * The prune pass (a job on src/services/jobs/runner.ts), at start and then every few hours: notes the link days left to repair and
 * deletes payment-link records past their retention (PaymentLinkRepository.prune), then deletes
 * records whose time to live has ended (`sweepExpired`: carts, nicks, checkout times; SQLite keeps
 * them until read, Redis deletes them itself). The first pass is awaited so a restarted bot never
 * serves records it should have forgotten; a failure is logged and retried next time, never fatal,
 * and one job failing does not keep the other from running. `stop()` waits for a pass in flight
 * before storage closes. Processes sharing Redis prune one at a time (`runAlone`): the others skip
 * that round (repairing only the link days they alone remember).
 *
 * Cost: no store request; per round (every 6 hours) a read of the link-day index and of each day past
 * retention, a delete per record pruned, and the sweep's scan of records with a time to live.
 */
export function pruneJob(links: PaymentLinkRepository, sweepExpired: (now: number) => Promise<number>, clock: Clock, logger: Logger): BackgroundJob {
  const pruneLinks = async () => {
    const deleted = await links.prune(clock.now());
    if (deleted > 0) logger.info({ deleted }, 'old payment-link records pruned');
  };
  const sweep = async () => {
    const deleted = await sweepExpired(clock.now());
    if (deleted > 0) logger.info({ deleted }, 'expired records deleted');
  };
  return {
    name: 'prune-links',
    everyMs: PRUNE_EVERY_MS,
    // Each half of the work catches its own failure: only a failure of the lock itself lands here.
    backoff: doublingBackoff(60_000, PRUNE_EVERY_MS),
    cost: { storeRequestsPerHour: '0', readsPerRound: 'link-day index + 1 per day past retention + the TTL sweep', writesPerRound: '1 delete per record pruned or expired' },
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
  };
}
