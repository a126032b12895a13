import { fingerprintOf } from '../../security/license-id.js';
import { slotOf } from '../../storage/payment-watch-index.js';
import type { PaymentLink } from '../../storage/payment-links.js';
import type { FeedDemand } from '../purchase-feed.js';
import type { ShopAccess } from '../store-directory.js';
import type { PaymentWatcherOptions, PollIntervalFor, WatchDeps } from './context.js';
import { watchLicense } from './license-round.js';
import { watchable } from './open-links.js';
import { KeyedRetry } from '../jobs/keyed-retry.js';
import { LICENSES_AT_ONCE, MAX_TRANSACTION_ID, QUIET_WAIT_MS, RATE_LIMIT_FLOOR, RATE_LIMIT_PAUSE_MS, ROUND_BACKOFF } from './schedule.js';
import { ShopLicenses } from './shop-licenses.js';

/**
 * Learns from the store whether the links the bot issued were paid (docs/spaceis-api.md,
 * "Payments"). `POST /v4/cart/paymentUrl` returns no transaction id, so the watcher reads each
 * server's latest buyers, asks the store about the purchases made by the nick of an open link, and
 * ties a purchase to a link by its nick, items and time (matcher.ts, settle.ts). Each transaction
 * has one state in storage (seen → matched or ambiguous → settled → notified); the steps that tell
 * Discord (PaymentEvents) are recorded one by one and finished by a later round when a crash or
 * Discord left them undone (outbox.ts).
 *
 * docs/payment-wing.md follows one payment through these files, and says which write decides.
 *
 * The parts: this file runs rounds over the licenses due (the due-time index of
 * storage/payment-watch-index.ts), each license on its own (license-round.ts) under its runAlone,
 * several at once, so a slow store for one license never holds up another; polling.ts asks the
 * store, dates.ts places rows in time, settle.ts decides, outbox.ts tells Discord, schedule.ts has
 * the timings.
 *
 * What it costs the store: nothing for a license without open links or work. With open links: one
 * latest_buyers request per server those links buy from every `pollSeconds` (30 s by default), one
 * transaction/info per new purchase by a nick that has an open link, and, while such a payment is
 * `pending`, one more at a doubling interval. Requests go through the license's gate once it is
 * quiet (a member's checkout never waits behind them); a license whose gate is not quiet within
 * QUIET_WAIT_MS, or whose store reported less than a tenth of its rate limit left, is skipped this
 * round. What it costs storage on a round with nothing due: one read of the due-time index (the
 * slots since the last round) and the purchase feed's guilds, nothing per license; docs/performance.md
 * has the measured figures and docs/running/costs.md the store requests.
 *
 * On Redis one process watches a license at a time (runAlone); a link's payment changes under its
 * record's lock; a restart carries on from storage. Its unit of work is `round()`, driven by the
 * injected clock: production runs it every few seconds as the JobRunner's `payment-watch` job
 * (job.ts: its backoff and cost; started and stopped with the other jobs in app.ts), tests call
 * `tick()` or `jobs.runNow('payment-watch')` and move the clock.
 */
export type { PaymentWatcherOptions } from './context.js';

/** What /shop-admin status says about following payments on a license. */
export type PaymentWatchStatus =
  | { kind: 'on'; pollSeconds: number; missingServers: string[] }
  | { kind: 'off'; since: number; retryAt: number; message: string | undefined };

/** A round reads the due-time index slot by slot; after a longer gap (a restart, a stopped clock) it visits every license once. */
const MAX_SLOTS_READ = 120;
/** A license's shop key is read again after this (it changes only when the shop's identity is first learned). */
const SHOP_KEY_TTL_MS = 10 * 60_000;

export class PaymentWatcher {
  readonly #deps: WatchDeps;
  /** Licenses whose round runs in this process now: a tick skips them (a slow store never holds up the next tick). */
  readonly #running = new Map<string, Promise<void>>();
  /** The last due-time slot this process read; undefined: read the whole registry. */
  #lastSlot: number | undefined;
  /**
   * Licenses whose round failed (storage, say): tried again when their backoff (ROUND_BACKOFF) is
   * over, whatever the index says. Warned once when the first fails, told once when a round works again.
   */
  readonly #failed: KeyedRetry;
  /** Licenses whose store reported a low rate-limit budget: no background request until then. */
  readonly #lowBudget = new Map<string, number>();
  /** Each license's shop key, with when it was read (StoreDirectory.shopKey reads storage). */
  readonly #shopKeys = new Map<string, { key: string; at: number }>();
  #stopping = false;
  /** Resolves when stop() is called: a round waiting for a quiet gate gives up then. */
  readonly #stopped: Promise<void>;
  #stop!: () => void;

  constructor(private readonly options: PaymentWatcherOptions) {
    this.#stopped = new Promise<void>((resolve) => (this.#stop = resolve));
    this.#failed = new KeyedRetry({ backoff: ROUND_BACKOFF, clock: options.clock, random: Math.random });
    this.#deps = {
      ...options,
      pollMs: options.pollSeconds * 1000,
      quiet: (shop, license) => this.#quiet(shop, license),
      stopping: () => this.#stopping,
      shopKeyOf: (license) => this.#shopKeyOf(license),
      shopLicenses: new ShopLicenses(options.store.index, () => options.store.licenses(), (license) => this.#shopKeyOf(license)),
    };
  }

  /** Starts watching a link the bot just issued; the demo shop's links are not watched (nothing is ever paid there). */
  async watch(link: PaymentLink): Promise<void> {
    if (!watchable(link)) return;
    const { store, clock } = this.options;
    // A license without open links until now is made due at once (one following only a pending payment is
    // not visited before its follow-up otherwise); one with open links takes the link at its next round (within a poll interval).
    if (await store.index.addOpen(link.license, { guildId: link.guildId, linkId: link.id })) await store.index.schedule(link.license, clock.now(), clock.now());
  }

  /** Stops watching a link (a moderator withdrew it). */
  async forget(link: Pick<PaymentLink, 'license' | 'guildId' | 'id'>): Promise<void> {
    await this.options.store.index.closeOpen(link.license, [{ guildId: link.guildId, linkId: link.id }]);
  }

  /**
   * THE way transaction ids learned outside the watcher's polls (the store's purchase webhook:
   * src/services/store-webhook/) enter the wing: the post's reader queued them (storage/posted-ids.ts,
   * durable, with their budgets); this runs the license's round now, which takes from the queue what
   * the budgets allow (posted-work.ts: a followed one due at once, a new one `seen`, asked with
   * transaction/info, placed in time by the store's evidence and decided exactly as a polled purchase
   * would be: settle.ts), and comes back for the rest as their budgets free up. `transactionIds`: ids
   * handed over by a caller that did not queue them (queued here as unknown ones, lower case).
   */
  async follow(license: string, transactionIds: readonly string[] = []): Promise<void> {
    const { store, clock } = this.options;
    const now = clock.now();
    const ids = [...new Set(transactionIds.map((id) => id.toLowerCase()))].filter((id) => id.length > 0 && id.length <= MAX_TRANSACTION_ID);
    await store.posted.add(license, ids.map((id) => ({ id, at: now, kind: 'unknown' as const, key: '', guildId: '' })));
    await store.index.enlist(license);
    await store.index.schedule(license, now, now);
    // A round that started before these ids were queued may not see them: wait for it, then run one that does.
    for (let running = this.#running.get(license); running; running = this.#running.get(license)) await running;
    if (this.#stopping) return;
    const run = this.#watch(license, undefined, true, true).finally(() => this.#running.delete(license));
    this.#running.set(license, run);
    await run;
  }

  /** Where the store's confirmation of a posted transaction goes (its guild's webhook health). */
  setPostConfirmed(postConfirmed: (guildId: string, transactionId: string) => Promise<void>): void {
    this.#deps.postConfirmed = postConfirmed;
  }

  /** The one outside input to the schedule (context.ts, PollIntervalFor): the store webhook's safety-net cadence. */
  setPollIntervalFor(pollIntervalFor: PollIntervalFor): void {
    this.#deps.pollIntervalFor = pollIntervalFor;
  }

  /** Whether payments are followed for this license, for the admins' status page. */
  async status(license: string): Promise<PaymentWatchStatus> {
    const { unsupported, missing } = await this.options.store.state(license);
    const now = this.options.clock.now();
    if (unsupported && now < unsupported.retryAt) return { kind: 'off', since: unsupported.since, retryAt: unsupported.retryAt, message: unsupported.message };
    return { kind: 'on', pollSeconds: this.options.pollSeconds, missingServers: Object.keys(missing).sort() };
  }

  /**
   * One round over the licenses due, as the job runs it (job.ts): throws when what is due could not
   * be read (storage), so the runner backs off and says so once. A license whose round from an
   * earlier tick still runs in this process is skipped; on Redis one process takes a license at a
   * time. Resolves when the rounds it started are done.
   */
  async round(): Promise<void> {
    const licenses = await this.#dueLicenses();
    let feed = new Map<string, FeedDemand>();
    let feedUnread: unknown;
    try {
      if (this.options.feed) feed = await this.options.feed.demand();
    } catch (error) {
      // The payments due still go round; the failure is the round's, said once by the runner.
      feedUnread = error;
    }
    // A license only the feed reads is visited when its minute is up (FeedDemand.due), not every tick.
    const forFeed = [...feed].filter(([, demand]) => demand.due).map(([license]) => license);
    const queue = [...new Set([...licenses, ...this.#failed.due(), ...forFeed])].filter((license) => !this.#running.has(license) && !this.#failed.blocked(license));
    const worker = async () => {
      for (let license = queue.shift(); license !== undefined && !this.#stopping; license = queue.shift()) {
        const run = this.#watch(license, feed.get(license), !forFeed.includes(license) || licenses.includes(license)).finally(() => this.#running.delete(license));
        this.#running.set(license, run);
        await run;
      }
    };
    await Promise.all(Array.from({ length: Math.min(LICENSES_AT_ONCE, queue.length) }, worker));
    if (feedUnread !== undefined) throw new Error('payment watch: could not read what the purchase feed wants', { cause: feedUnread });
  }

  /**
   * One round for tests and the bench that drive the watcher by hand: `round()`, with a failure
   * logged (a warning each time) instead of thrown. Production runs `round()` on the JobRunner (job.ts).
   */
  async tick(): Promise<void> {
    try {
      await this.round();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'payment watch: a round failed; tried again next round');
    }
  }

  /** Ends the rounds in flight, which stop before their next store request, and waits for them (the JobRunner calls it when it stops). */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#stop();
    await Promise.all(this.#running.values());
  }

  async #shopKeyOf(license: string): Promise<string> {
    const now = this.options.clock.now();
    const known = this.#shopKeys.get(license);
    if (known && now - known.at < SHOP_KEY_TTL_MS) return known.key;
    const key = await this.options.stores.shopKey(license);
    this.#shopKeys.set(license, { key, at: now });
    return key;
  }

  /** The licenses listed in the due-time slots since the last round; every watched license after a gap. Throws when storage failed (the slots are read again next round). */
  async #dueLicenses(): Promise<string[]> {
    const { store, clock } = this.options;
    const slot = slotOf(clock.now());
    const last = this.#lastSlot;
    const licenses = last === undefined || slot - last > MAX_SLOTS_READ ? await store.licenses() : await store.index.due(last, slot);
    this.#lastSlot = Math.max(slot, last ?? slot);
    return licenses;
  }

  async #watch(license: string, feed: FeedDemand | undefined, watched: boolean, posted = false): Promise<void> {
    const log = this.options.logger.child({ license: fingerprintOf(license) });
    try {
      const ran = await this.options.coordination.runAlone(`payment-watch:${license}`, () => watchLicense(this.#deps, license, log, feed, watched, posted));
      if (!ran) log.debug('payment watch: another process is watching this license');
      if (this.#failed.succeeded(license)) log.info('payment watch: a license’s rounds work again');
    } catch (error) {
      // Its next wake-up may not have been written: this process visits it again, backing off.
      const { failures, retryAt, sayIt } = this.#failed.failed(license);
      if (sayIt) log.warn({ err: error, backoff: ROUND_BACKOFF.name }, 'payment watch: round failed; tried again with backoff (doubling, up to 10 minutes) until it works, without a warning each time');
      else log.debug({ err: error, failures, retryInMs: retryAt - this.options.clock.now() }, 'payment watch: round failed again');
    }
  }

  /**
   * Whether a background request may go now: the license's gate would take it with nobody waiting
   * (within QUIET_WAIT_MS, real time: a member's checkout never queues behind the watcher), and the
   * store's last `X-RateLimit-Remaining` was not under a tenth of its limit (docs/spaceis-api.md,
   * "Rate limiting"): polling never spends the budget members' checkouts need.
   */
  async #quiet(shop: ShopAccess, license: string): Promise<boolean> {
    const now = this.options.clock.now();
    if ((this.#lowBudget.get(license) ?? 0) > now) return false;
    const budget = shop.client.rateBudget;
    if (budget && budget.limit > 0 && budget.remaining < budget.limit * RATE_LIMIT_FLOOR && !this.#lowBudget.has(license)) {
      this.#lowBudget.set(license, now + RATE_LIMIT_PAUSE_MS);
      this.options.logger.info({ license: fingerprintOf(license), remaining: budget.remaining, limit: budget.limit }, 'payment watch: the store’s rate limit is low; background polls paused');
      return false;
    }
    // Paused before and the pause is over: one request reads the budget again.
    this.#lowBudget.delete(license);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.options.quietWaitMs ?? QUIET_WAIT_MS);
      timer.unref();
    });
    const outcome = await Promise.race([shop.gate.whenQuiet().then(() => 'quiet' as const), late, this.#stopped.then(() => 'stopped' as const)]);
    clearTimeout(timer);
    return outcome === 'quiet' && !this.#stopping;
  }
}
