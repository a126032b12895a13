/**
 * The watcher's timings, in one place. What the store's limits are is not published
 * (docs/spaceis-api.md, "Rate limiting"): every figure here is chosen to cost little, and the
 * license's gate (pause after a 429, breaker, four slots) still decides whether a request goes.
 * How often the store is polled is the operator's `PAYMENT_POLL_SECONDS` (src/config.ts: 30 s by
 * default, 15 s at least), handed to the watcher as `pollSeconds`.
 *
 * Every retry here speaks the job runner's vocabulary (src/services/jobs/backoff.ts): failures in
 * a row, a named Backoff for the wait after each, and an end (a RetryPolicy's `giveUpAfter`, or
 * FOLLOW_UP_FOR_MS for a transaction followed at the store).
 */
import { doublingBackoff, fixedBackoff, type Backoff, type RetryPolicy } from '../jobs/backoff.js';
import { CLOCK_SKEW_MS } from './matcher.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** How often the production timer runs a round; a round asks only for what is due, usually nothing. */
export const TICK_MS = 5_000;

/** A 404 from the payment endpoints switches the license's watching off for this long, then one request tries again. */
export const UNSUPPORTED_RETRY_MS = 6 * HOUR_MS;

/**
 * A payment still `pending` at the store (or a transaction it does not know yet) is asked about
 * again: after the n-th answer that did not settle it, one poll interval doubled n − 1 times, at
 * most every FOLLOW_UP_MAX_MS, no jitter (each transaction has its own schedule); it ends
 * FOLLOW_UP_FOR_MS after the transaction was first seen.
 */
export function followUpBackoff(pollMs: number): Backoff {
  return doublingBackoff(pollMs, FOLLOW_UP_MAX_MS, 0);
}
export const FOLLOW_UP_MAX_MS = 15 * MINUTE_MS;
/**
 * A transaction the watcher started following (pending at the store, or unknown to it) is followed
 * this long from when it was first seen, whether or not its links are still open; then it is set
 * aside for good, logged once.
 */
export const FOLLOW_UP_FOR_MS = 30 * 24 * HOUR_MS;

/**
 * A link is watched a little past its lifetime: a payment made in its last seconds is listed at
 * the next poll, which may come one interval (or a refused poll) later.
 */
export function watchGraceMs(pollMs: number): number {
  return 2 * pollMs + CLOCK_SKEW_MS;
}

/**
 * A poll after this long without one (nothing was open, or the store refused polls) looks at a
 * server afresh: rows already listed without a readable date count as made before any open link
 * (see watcher.ts), since the watcher cannot tell when in that gap they were made.
 */
export function baselineAfterMs(pollMs: number): number {
  return Math.max(10 * MINUTE_MS, 3 * pollMs);
}

/**
 * A step of a settled payment that Discord failed (outbox.ts) is offered again on the follow-up
 * backoff, and given up after NOTIFY_ATTEMPTS failed attempts (about an hour and a half at the
 * default poll interval), logged once. A step Discord refused for good ends at once instead.
 */
export function stepRetry(pollMs: number): RetryPolicy {
  return { backoff: followUpBackoff(pollMs), giveUpAfter: NOTIFY_ATTEMPTS };
}
export const NOTIFY_ATTEMPTS = 8;

/**
 * A transaction the store answered 404 about is asked again on the follow-up backoff this many
 * times, then on UNKNOWN_BACKOFF (until FOLLOW_UP_FOR_MS ends it).
 */
export const UNKNOWN_AFTER_404S = 3;
export const UNKNOWN_BACKOFF = fixedBackoff(6 * HOUR_MS);

/**
 * A license whose round failed (storage, say) is tried again by this process (KeyedRetry in
 * watcher.ts): 5 s, doubling with each failure in a row, at most 10 minutes, each wait shortened by
 * up to a quarter at random so licenses that failed together do not retry together. It has no end
 * of its own: the round is the license's only way forward, and the failure is said once.
 */
export const ROUND_BACKOFF = doublingBackoff(TICK_MS, 10 * MINUTE_MS, 0.25);

/** A license whose gate is not quiet within this long is skipped this round (real time: it guards against a slow store). */
export const QUIET_WAIT_MS = 1_000;

/** Licenses watched at once in a round: one slow store takes one of them, the others go on. */
export const LICENSES_AT_ONCE = 16;

/** Background polls pause while the store's `X-RateLimit-Remaining` is under this share of its limit. */
export const RATE_LIMIT_FLOOR = 0.1;
/** ... for this long, then one request reads the budget again. */
export const RATE_LIMIT_PAUSE_MS = 60_000;

/** At most this many rows of latest_buyers are read per poll (the endpoint's own maximum). */
export const ROWS_PER_POLL = 30;
/**
 * A rush (polling.ts): a server whose pace of new purchases would bring BUSY_PAGE_ROWS or more in a
 * poll interval is read again when about RUSH_ROWS_PER_POLL are expected, at least a tick away. The
 * store lists only ROWS_PER_POLL, so during a sale more than that between two polls would push
 * purchases out of sight (measured by the bench: of 100 links paid within a minute, 32 were never seen at 30 s);
 * a sixth of a page leaves room for a rush that speeds up threefold. Costs a request per
 * RUSH_ROWS_PER_POLL purchases while the rush lasts (2 a second: one a tick), nothing for a calm
 * server; not applied to the store webhook's safety-net polls, whose posts bring each purchase.
 */
export const BUSY_PAGE_ROWS = ROWS_PER_POLL / 2;
export const RUSH_ROWS_PER_POLL = ROWS_PER_POLL / 6;
/** Longer transaction ids are refused before they reach a storage key. */
export const MAX_TRANSACTION_ID = 64;

/**
 * The payment-watch job's own backoff (job.ts), when a whole round fails (the due-time index or the
 * feed's registry unreadable): doubling from one tick, with jitter, at most a minute, so rounds come
 * back within a minute of storage. A single license's failed round has its own (ROUND_BACKOFF).
 */
export const TICK_BACKOFF = doublingBackoff(TICK_MS, MINUTE_MS);
