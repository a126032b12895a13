import type { GateOptions } from './gate-rules.js';
import { LocalGate } from './local-gate.js';
import { SharedGate, warnSharedGateDown } from './shared-gate.js';
import type { SharedGateState } from './shared-gate-state.js';
import type { Logger } from '../logger.js';
import type { StoreGate } from './store-gate.js';

export type { GateLoad, GateState, StoreGate } from './store-gate.js';

/**
 * A gate's limits and, for a license several processes sell from, its shared state: `sharedState`
 * builds it from the license's id (app.ts passes it only on Redis) and `logger` is told when it
 * cannot be reached. Without `sharedState` the gate is local.
 */
export type StoreGateOptions = GateOptions &
  (
    | { sharedState?: undefined }
    | {
        sharedState: ((license: string) => SharedGateState) | undefined;
        /** The license's full id (never its key): names its shared state and the log line. */
        license: string;
        logger?: Pick<Logger, 'warn'> | undefined;
      }
  );

/** The gate for a license: shared with the other processes when there is a shared state, else local. */
export function createStoreGate(options: StoreGateOptions): StoreGate {
  if (!options.sharedState) return new LocalGate(options);
  return new SharedGate({
    ...options,
    shared: options.sharedState(options.license),
    onSharedFailure: warnSharedGateDown(options.logger, options.license),
  });
}
