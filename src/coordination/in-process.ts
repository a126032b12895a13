import type { Coordination, Topic } from './coordination.js';
import { KeyLock } from './key-lock.js';

/** One process on its own storage (SQLite): its memory is all it has to agree with. */
export function inProcessCoordination(): Coordination {
  return {
    shared: false,
    locks: new KeyLock(),
    async publish(_topic: Topic, _message: string) {
      // No other process to tell.
    },
    subscribe() {
      // Nothing is ever published by another process.
    },
    async runAlone(_job, work) {
      await work();
      return true;
    },
    redis: undefined,
    async close() {},
  };
}
