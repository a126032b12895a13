import { StoreError } from './errors.js';
import { FairSlots } from './fair-slots.js';

/**
 * What every store gate decides the same way, written once: the limits' defaults, how long the
 * store may pause a license, which failures count against the breaker and when it opens, and the
 * refusals a member's handler is given. The gates differ only in where they keep the pause, the
 * breaker and the slots (one process's memory, or Redis for every process); if these rules were
 * copied into each, one process could end up pausing a license for longer than another.
 */

/** The limits of a license's gate; every one has a default. */
export interface GateOptions {
  now: () => number;
  /** Requests in flight at once for this license. */
  maxConcurrent?: number;
  /** Requests waiting for a slot; beyond this the store is "busy". */
  maxQueue?: number;
  /** Requests one lane (guild) may have waiting. */
  maxQueuePerLane?: number;
  /** Consecutive failures that open the breaker. */
  failureThreshold?: number;
  /** How long the breaker stays open before a trial request. */
  openMs?: number;
  /** How long to hold off when the store says no requests remain but not when they come back. */
  exhaustedPauseMs?: number;
}

/**
 * The longest the store can pause a license with one answer, and the longest wait a member is told
 * (see problem-texts.ts): a real throttle lasts seconds to a few minutes, so a plausible Retry-At
 * longer than this (up to MAX_PLAUSIBLE_RETRY_AT_S) is cut to it.
 */
export const MAX_PAUSE_MS = 5 * 60_000;

/**
 * The longest Retry-At read as a number of seconds the store meant. Anything longer (days, or an
 * epoch timestamp such as 1 800 000 000 where seconds belong) is a broken header, not a wait: it
 * says nothing about how long the store wants, so it gets BROKEN_RETRY_AT_PAUSE_MS, not the cap.
 */
export const MAX_PLAUSIBLE_RETRY_AT_S = 60 * 60;

/** The pause after a broken Retry-At: the short default of a throttle that names no usable wait. */
export const BROKEN_RETRY_AT_PAUSE_MS = 30_000;

/** The lane of a call that names no guild. */
export const DEFAULT_LANE = 'shared';

/** The lane of the background variants warm-up (variant-warm-up.ts): never a guild's id, which is a number. */
export const WARM_UP_LANE = 'warm-up';

/** The lane of the payment watcher's polls (src/services/payment-watch/): background, asked only when the gate is quiet. */
export const PAYMENT_WATCH_LANE = 'payment-watch';

/** The breaker's and the pauses' settings, defaults applied. */
export interface GateRules {
  failureThreshold: number;
  openMs: number;
  exhaustedPauseMs: number;
}

export function gateRules(options: GateOptions): GateRules {
  return {
    failureThreshold: options.failureThreshold ?? 5,
    openMs: options.openMs ?? 30_000,
    exhaustedPauseMs: options.exhaustedPauseMs ?? 1_000,
  };
}

/** The license's slots in this process and the fair queue in front of them, defaults applied. */
export function localSlots(options: GateOptions): FairSlots {
  const maxConcurrent = options.maxConcurrent ?? 4;
  // Waiting costs a closure each; 1 000 lets a crowd of checkouts queue (measured: 200 at once all
  // get their link) while still bounding memory and the wait behind a slow store.
  const maxQueue = options.maxQueue ?? 1_000;
  return new FairSlots(maxConcurrent, maxQueue, options.maxQueuePerLane ?? Math.max(1, Math.floor(maxQueue / 4)));
}

/** Waits for a local slot in the lane's turn; a full queue refuses the request as "unavailable". */
export async function takeLocalSlot(slots: FairSlots, method: string, path: string, lane: string): Promise<void> {
  if (!(await slots.acquire(lane))) {
    throw new StoreError({ kind: 'unavailable', method, path, message: `SpaceIs ${method} ${path} not sent: too many requests waiting` });
  }
}

/**
 * How long a throttling 429 asking for `retryAfterSeconds` pauses the license, and so how long a
 * member is told to wait: the value as given up to MAX_PAUSE_MS; a broken one (over an hour, e.g. an
 * epoch timestamp) BROKEN_RETRY_AT_PAUSE_MS, since the cap would stop every guild for 5 minutes
 * on a header that means nothing.
 */
export function throttlePauseMs(retryAfterSeconds: number): number {
  if (retryAfterSeconds > MAX_PLAUSIBLE_RETRY_AT_S) return BROKEN_RETRY_AT_PAUSE_MS;
  return Math.min(retryAfterSeconds * 1000, MAX_PAUSE_MS);
}

/**
 * How long a failed attempt asks every caller on the license to wait: a throttling 429's Retry-At,
 * read by throttlePauseMs. Undefined when the answer asks for no pause.
 */
export function pauseAskedBy(error: unknown): number | undefined {
  if (!(error instanceof StoreError) || error.status !== 429 || error.retryAfterSeconds === undefined) return undefined;
  return throttlePauseMs(error.retryAfterSeconds);
}

/** Failures that say the store is down or overloaded, as opposed to an answer we did not like. */
export function countsAsOutage(error: unknown): boolean {
  if (!(error instanceof StoreError)) return false;
  if (error.kind === 'timeout' || error.kind === 'network') return true;
  return error.kind === 'http' && (error.status ?? 0) >= 500;
}

/** After an outage: the breaker opens once `threshold` are counted in a row, or at once when the half-open trial failed. */
export function opensBreaker(outagesInARow: number, threshold: number, trial: boolean): boolean {
  return trial || outagesInARow >= threshold;
}

/** The refusal while the license is paused: a throttling 429 saying how long is left, like the store's own. */
export function throttled(method: string, path: string, leftMs: number): StoreError {
  return new StoreError({
    kind: 'http',
    status: 429,
    method,
    path,
    message: `SpaceIs ${method} ${path} held back: the license's rate limit is paused`,
    retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)),
    notSent: true,
  });
}

export function circuitOpen(method: string, path: string): StoreError {
  return new StoreError({ kind: 'unavailable', method, path, message: `SpaceIs ${method} ${path} not sent: the store is failing (circuit open)` });
}
