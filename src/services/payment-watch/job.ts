import type { BackgroundJob } from '../jobs/runner.js';
import { TICK_BACKOFF, TICK_MS } from './schedule.js';
import type { PaymentWatcher } from './watcher.js';

/**
 * The payment rounds as a job of the one runner (src/services/jobs/runner.ts), added, started and
 * stopped with the others in app.ts: a round every TICK_MS over the licenses due (watcher.ts,
 * `round()`). The purchase feed rides these rounds (src/services/purchase-feed.ts: each round hands
 * over what it read), so it runs, backs off and stops with them.
 *
 * It runs in every process (`each-process`): each license's round takes that license's `runAlone`,
 * so processes sharing Redis share the licenses due. A round that throws (the due-time index or the
 * feed's registry unreadable) waits TICK_BACKOFF (doubling from 5 s, with jitter, at most a minute),
 * said once by the runner, and its recovery once. A license whose own round fails backs off on its
 * own (schedule.ts, ROUND_BACKOFF: up to 10 minutes), without holding up the others.
 *
 * Cost (docs/performance.md has the measured figures, docs/running/costs.md the store requests):
 * a license without open links, work or a feed costs nothing. Store requests an hour, per license
 * with open links: 120 `latest_buyers` per server its open links buy from (one per 30 s poll; 60
 * for a server read only for the feed), one `transaction/info` per new purchase by an open link's
 * nick, and a follow-up one per pending payment at a doubling interval (at most every 15 minutes).
 * Storage per tick: the due-time slots since the last tick (one read each, usually one) and the
 * feed's registry (one read); per license due, its lock, its state and open links read, its state
 * and next due-time slot written, and the transaction records it decides (one write each).
 */
export function paymentWatchJob(watcher: PaymentWatcher): BackgroundJob {
  return {
    name: 'payment-watch',
    everyMs: TICK_MS,
    work: () => watcher.round(),
    backoff: TICK_BACKOFF,
    processes: 'each-process',
    // Its first round after a restart visits every watched license: not awaited by the bot's start.
    firstRound: 'after-interval',
    stop: () => watcher.stop(),
    doing: 'following payments',
    failed: 'payment watch: a round failed (what is due could not be read)',
    cost: {
      storeRequestsPerHour: '0 for a license with nothing open; 120 latest_buyers per server with open links (60 for the feed alone), 1 transaction/info per new candidate purchase, follow-ups of pending payments at most every 15 min',
      readsPerRound: '1 per due-time slot since the last round (usually 1) + 1 (feed registry); per license due: its state and open links',
      writesPerRound: '0 with nothing due; per license due: its state, its next due-time slot, one per transaction decided or step done',
    },
  };
}
