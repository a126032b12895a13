import { StoreError } from '../../src/spaceis/errors.js';

/** What the store gate tests feed their gates: the store's answers and attempts they control. */

/** The store down or overloaded: counts against the breaker. */
export const outage = (): StoreError => new StoreError({ kind: 'http', status: 503, message: 'down' });

/** The store up but saying no: never counts against the breaker. */
export const business = (): StoreError => new StoreError({ kind: 'http', status: 422, message: 'no', apiMessage: 'invalid variant' });

/** A promise the test settles when it chooses: a request held in flight. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** An attempt that counts how often the store was really called. */
export function counted<T>(answer: () => Promise<T>): (() => Promise<T>) & { calls: number } {
  const attempt = () => {
    attempt.calls += 1;
    return answer();
  };
  attempt.calls = 0;
  return attempt;
}
