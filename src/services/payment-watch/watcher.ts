import type { Clock } from '../../clock.js';
import type { Coordination } from '../../coordination/coordination.js';
import type { Logger } from '../../logger.js';
import { fingerprintOf } from '../../security/license-id.js';
import type { GuildSettingsRepository } from '../../storage/guild-settings.js';
import type { PaymentLink, PaymentLinkRepository } from '../../storage/payment-links.js';
import { slotOf } from '../../storage/payment-watch-index.js';
import type { PaymentWatchStore } from '../../storage/payment-watch.js';
import { ShopLicenses } from '../../storage/shop-licenses.js';
import type { WebsiteBuyerStore } from '../../storage/website-buyers.js';
import { doublingBackoff } from '../jobs/backoff.js';
import { KeyedRetry } from '../jobs/keyed-retry.js';
import type { BackgroundJob } from '../jobs/runner.js';
import type { PaymentEvents } from '../payment-events.js';
import type { FeedDemand, PurchaseFeed } from '../purchase-feed.js';
import type { ShopAccess, StoreDirectory } from '../store-directory.js';
import type { ReviewReason, SeenTransaction } from './matcher.js';
import { runRound, type WatchDeps } from './round.js';
import { MAX_TRANSACTION_ID, TICK_MS, watchable, type OpenLink } from './sense.js';

/**
 * Learns from the store whether the links the bot issued were paid (docs/spaceis-api.md, "Payments";
 * docs/payment-wing.md follows one payment through the wing). `POST /v4/cart/paymentUrl` returns no
 * transaction id, so the rounds read each server's latest buyers and tie a purchase to a link by nick,
 * items and time. This file runs the rounds over the licenses due (the due-time index of
 * storage/payment-watch-index.ts), each license alone under its runAlone (round.ts), several at once,
 * so a slow store for one never holds up another; a restart carries on from storage.
 * Each store request waits for the license's gate to be quiet (a member's checkout never waits behind
 * it), and none goes while the store's rate budget is low; what it costs is the job's `cost` (below).
 */

/** What the payment watcher is built with (src/wiring/payments.ts). */
export interface PaymentWatcherOptions {
  store: PaymentWatchStore;
  /** `listForMemberSince`: a member's recent links, for the signs of a copycat; without it (older tests) none are read. */
  links: Pick<PaymentLinkRepository, 'get' | 'getEach' | 'claim'> & Partial<Pick<PaymentLinkRepository, 'listForMemberSince'>>;
  settings: Pick<GuildSettingsRepository, 'get'>;
  stores: Pick<StoreDirectory, 'forGuild' | 'sameShop' | 'shopKey'>;
  coordination: Pick<Coordination, 'runAlone'>;
  events: Pick<PaymentEvents, 'steps' | 'run' | 'refused'>;
  clock: Clock;
  logger: Logger;
  /** PAYMENT_POLL_SECONDS: how often each server is polled while its license has open links. */
  pollSeconds: number;
  /** The purchase feed: the servers it wants read, and every round's rows, handed over (it posts on its own). */
  feed?: Pick<PurchaseFeed, 'demand' | 'handOff'>;
  /** Where a purchase several members' links could have paid waits for staff (review.ts). */
  review?: { raise(transaction: SeenTransaction, candidates: readonly OpenLink[], reason?: ReviewReason): Promise<void> };
  /** Nicks seen buying outside the bot, per shop: a link with one never settles by itself. */
  websiteBuyers?: Pick<WebsiteBuyerStore, 'note' | 'lastSeen'>;
  /** How long a round waits for the license's gate to be quiet before skipping it (tests shorten it). */
  quietWaitMs?: number;
}

/** A license whose gate is not quiet within this long is skipped this round (real time: it guards against a slow store). */
const QUIET_WAIT_MS = 1_000;
/** Licenses watched at once in a round: one slow store takes one of them, the others go on. */
const LICENSES_AT_ONCE = 16;
/** Background polls pause while the store's `X-RateLimit-Remaining` is under this share of its limit, this long. */
const RATE_LIMIT_FLOOR = 0.1;
const RATE_LIMIT_PAUSE_MS = 60_000;
/** A license's failed round (storage, say), again: 5 s doubling to 10 min, jittered; no end (its only way forward), said once. */
export const ROUND_BACKOFF = doublingBackoff(TICK_MS, 10 * 60_000, 0.25);
/** The job's own backoff when a whole round fails (the due-time index unreadable): back within a minute of storage. */
export const TICK_BACKOFF = doublingBackoff(TICK_MS, 60_000);

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
  /** Licenses whose round failed: tried again after ROUND_BACKOFF whatever the index says; warned once, recovery told once. */
  readonly #failed: KeyedRetry;
  /** Licenses whose store reported a low rate-limit budget: no background request until then. */
  readonly #lowBudget = new Map<string, number>();
  /** Each license's shop key, with when it was read (StoreDirectory.shopKey reads storage). */
  readonly #shopKeys = new Map<string, { key: string; at: number }>();
  #stopping = false;
  readonly #stopped: Promise<void>; // resolves at stop(): a round waiting for a quiet gate gives up
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
   * THE way transaction ids learned outside the polls (the store's purchase webhook) enter the wing:
   * the post's reader queued them (storage/posted-ids.ts, durable, with their budgets); this runs the
   * license's round now, whose ledger takes what the budgets allow as `posted` events, decided exactly
   * as polled purchases, and comes back for the rest. `transactionIds`: ids a caller did not queue.
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

  /** The one outside input to the schedule: how often the servers of a license's open links are polled (the store webhook's safety net). */
  setPollIntervalFor(pollIntervalFor: NonNullable<WatchDeps['pollIntervalFor']>): void {
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
   * One round over the licenses due, as the job runs it (below): throws when what is due could not
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
   * logged (a warning each time) instead of thrown. Production runs `round()` on the JobRunner (`paymentWatchJob`, below).
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
      const ran = await this.options.coordination.runAlone(`payment-watch:${license}`, async () => {
        const plan = await runRound(this.#deps, license, log, feed, watched, posted);
        // The one hand-off to the purchase feed: what this round read. Returns at once: the feed posts outside this lock.
        if (feed && plan?.polled) this.options.feed?.handOff(license, plan.polled);
      });
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

/**
 * The rounds as the runner's `payment-watch` job (src/services/jobs/runner.ts; started and stopped
 * with the others in app.ts): a round every TICK_MS in every process (each license's round takes its
 * `runAlone`, so processes sharing Redis share the licenses due). The purchase feed rides these rounds.
 * A round that throws waits TICK_BACKOFF, said once; a license whose own round fails backs off alone
 * (ROUND_BACKOFF). Its cost, below, is measured in docs/performance.md and docs/running/costs.md.
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
