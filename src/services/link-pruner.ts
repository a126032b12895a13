import type { Clock } from '../clock.js';
import type { Coordination } from '../coordination/coordination.js';
import type { Logger } from '../logger.js';
import type { PaymentLinkRepository } from '../storage/payment-links.js';

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
): { start(): Promise<void>; stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const run = (): Promise<void> => {
    running ??= coordination
      .runAlone('prune-links', async () => {
        const deleted = await links.prune(clock.now());
        if (deleted > 0) logger.info({ deleted }, 'old payment-link records pruned');
      })
      .then(async (ran) => {
        if (ran) return;
        logger.debug('another process is pruning payment-link records; skipped here');
        // Days this process could not note live in its memory too (see PaymentLinkRepository.create).
        await links.repairIndexes();
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'could not prune payment-link records'))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    async start() {
      await run();
      timer = setInterval(() => void run(), PRUNE_EVERY_MS);
      // The timer alone must not keep the process alive.
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
