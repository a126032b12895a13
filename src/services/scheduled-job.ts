import type { Coordination } from '../coordination/coordination.js';
import type { Logger } from '../logger.js';

export interface ScheduledJob {
  /** Runs the job once (awaited), then every `everyMs`. */
  start(): Promise<void>;
  /** Stops the timer and waits for a run in flight, so storage and Discord can close after it. */
  stop(): Promise<void>;
}

/**
 * A chore the bot does at start and then every so often (pruning old link records, taking back
 * ended roles). Processes sharing Redis run it one at a time (`runAlone`): the others skip that
 * round. A failure is logged and the next round tries again, never fatal; a round still running
 * when the next is due is not started twice.
 */
export function scheduleJob(spec: {
  /** The job's name across processes (`runAlone`). */
  name: string;
  everyMs: number;
  work: () => Promise<void>;
  logger: Logger;
  coordination: Pick<Coordination, 'runAlone'>;
  /** What the logs say: "another process is <doing>; skipped here", "could not <do>". */
  doing: string;
  failed: string;
  /** What this process still does when another process ran the round (e.g. what only it remembers). */
  skipped?: () => Promise<void>;
}): ScheduledJob {
  const { logger } = spec;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const run = (): Promise<void> => {
    running ??= spec.coordination
      .runAlone(spec.name, spec.work)
      .then(async (ran) => {
        if (ran) return;
        logger.debug(`another process is ${spec.doing}; skipped here`);
        await spec.skipped?.();
      })
      .catch((error: unknown) => logger.warn({ err: error }, spec.failed))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    async start() {
      await run();
      timer = setInterval(() => void run(), spec.everyMs);
      // The timer alone must not keep the process alive.
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
