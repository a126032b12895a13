import type { Clock } from '../../clock.js';
import type { Coordination } from '../../coordination/coordination.js';
import { DEMO_LICENSE } from '../../demo/demo-store.js';
import type { Logger } from '../../logger.js';
import { fingerprintOf } from '../../security/license-id.js';
import type { BuyerRow, TransactionInfo } from '../../spaceis/client.js';
import { isStoreError } from '../../spaceis/errors.js';
import { PAYMENT_WATCH_LANE } from '../../spaceis/gate-rules.js';
import { transactionItems, type TransactionStatus } from '../../spaceis/payment-schemas.js';
import { parsePurchaseDate } from '../../spaceis/purchase-date.js';
import type { GuildSettingsRepository } from '../../storage/guild-settings.js';
import type { PaymentLink, PaymentLinkRepository } from '../../storage/payment-links.js';
import type { FollowUp, OpenLink, PaymentWatchStore, ServerPoll, WatchState } from '../../storage/payment-watch.js';
import { linkExpiresAt } from '../link-state.js';
import type { PaymentEvents, SettledPayment } from '../payment-events.js';
import { FEED_POLL_MS, type FeedDemand, type PolledServer, type PurchaseFeed } from '../purchase-feed.js';
import type { ShopAccess, StoreDirectory } from '../store-directory.js';
import { CLOCK_SKEW_MS, sameNick, type SeenTransaction } from './matcher.js';
import type { StaffReviewService } from './review.js';
import { baselineAfterMs, BUYERS_LIMIT, followUpDelay, FOLLOW_UP_FOR_MS, TICK_MS, UNSUPPORTED_RETRY_MS, watchGraceMs } from './schedule.js';

/**
 * Learns from the store whether the links the bot issued were paid (docs/spaceis-api.md,
 * "Payments"). `POST /v4/cart/paymentUrl` returns no transaction id, so the watcher reads each
 * server's latest buyers, asks the store about the purchases made by the nick of an open link, and
 * ties a purchase to a link by its nick, items and time (matcher.ts). Then it follows the
 * transaction until the store gives a final status, writes it on the link's record, and emits it
 * through PaymentEvents (the member's DM, the log channel, metrics and buyers' roles listen).
 *
 * What it costs the store: nothing for a license without open links (issued within the guild's
 * link lifetime, not matched, not withdrawn). With open links: one latest_buyers request per
 * server that those links buy from, every `pollSeconds` (30 s by default), one transaction/info per
 * new purchase by a nick that has an open link, and, while such a payment is `pending`, one more
 * at a doubling interval. Every request goes through the license's gate after `whenQuiet()`, so a
 * member's checkout or menu never waits behind it; a request the gate refuses (429 pause, breaker)
 * is simply skipped until the next round.
 *
 * Exactly once: on Redis one process watches a license at a time (runAlone); a link's payment
 * changes under its record's lock and only the change that settles it emits; handled transactions
 * and the follow-up schedule are in storage, so a restart carries on and never handles one twice.
 *
 * Its unit of work is `tick()`, driven by the injected clock: production runs it every few seconds
 * (`start()`), tests call it and move the clock.
 */
export interface PaymentWatcherOptions {
  store: PaymentWatchStore;
  links: Pick<PaymentLinkRepository, 'get' | 'update'>;
  settings: Pick<GuildSettingsRepository, 'get'>;
  stores: Pick<StoreDirectory, 'forGuild' | 'sameShop'>;
  coordination: Pick<Coordination, 'runAlone'>;
  events: Pick<PaymentEvents, 'emit'>;
  clock: Clock;
  logger: Logger;
  /** PAYMENT_POLL_SECONDS: how often each server is polled while its license has open links. */
  pollSeconds: number;
  /** The purchase feed: the servers it wants read (once a minute), and every round's rows to post. */
  feed?: Pick<PurchaseFeed, 'demand' | 'publish'>;
  /** Decides which link a purchase paid: one member's settles, several members' wait for staff. */
  review: Pick<StaffReviewService, 'decide'>;
}

/** What /shop-admin status says about following payments on a license. */
export type PaymentWatchStatus =
  | { kind: 'on'; pollSeconds: number }
  | { kind: 'off'; since: number; retryAt: number; message: string | undefined };

/** The final statuses, as the link record and PaymentEvents name them. */
type Final = SettledPayment['status'];

function finalOf(status: TransactionStatus): Final | undefined {
  if (status === 'paid') return 'paid';
  if (status === 'fail') return 'failed';
  if (status === 'expired') return 'expired';
  return undefined;
}

/** An open link of the index, with when it stops being watched. */
interface Watched extends OpenLink {
  until: number;
}

/** A listed transaction worth asking about: when it was made, and whether its row said so itself. */
interface Candidate {
  id: string;
  nick: string | undefined;
  madeAt: number;
  dated: boolean;
}

/** One license's round: what it reads once and passes around. */
interface Round {
  license: string;
  shop: ShopAccess;
  state: WatchState;
  open: Watched[];
  log: Logger;
  /** What this round read, for the purchase feed (when it wants this license). */
  polled: PolledServer[];
}

export class PaymentWatcher {
  readonly #pollMs: number;
  #running: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopping = false;
  /** Resolves when stop() is called: a round waiting for a quiet gate gives up then. */
  readonly #stopped: Promise<void>;
  #stop!: () => void;

  constructor(private readonly options: PaymentWatcherOptions) {
    this.#pollMs = options.pollSeconds * 1000;
    this.#stopped = new Promise<void>((resolve) => (this.#stop = resolve));
  }

  /** The index entry of a link the bot just issued; the demo shop's links are not watched (nothing is ever paid there). */
  static openEntryOf(link: PaymentLink): OpenLink | undefined {
    if (link.license === DEMO_LICENSE) return undefined;
    const items = link.items.flatMap(({ variantId, quantity, serverId }) => (serverId ? [{ variantId, quantity, serverId }] : []));
    if (items.length !== link.items.length || items.length === 0) return undefined;
    return { guildId: link.guildId, linkId: link.id, userId: link.userId, nick: link.nick, createdAt: link.createdAt, items };
  }

  /** Starts watching a link the bot just issued. */
  async watch(link: PaymentLink): Promise<void> {
    const entry = PaymentWatcher.openEntryOf(link);
    if (entry) await this.options.store.addOpen(link.license, entry);
  }

  /** Stops watching a link (a moderator withdrew it). */
  async forget(link: Pick<PaymentLink, 'license' | 'guildId' | 'id'>): Promise<void> {
    await this.options.store.closeLinks(link.license, [{ guildId: link.guildId, linkId: link.id }]);
  }

  /** Whether payments are followed for this license, for the admins' status page. */
  async status(license: string): Promise<PaymentWatchStatus> {
    const { unsupported } = await this.options.store.state(license);
    if (unsupported && this.options.clock.now() < unsupported.retryAt) {
      return { kind: 'off', since: unsupported.since, retryAt: unsupported.retryAt, message: unsupported.message };
    }
    return { kind: 'on', pollSeconds: this.options.pollSeconds };
  }

  /**
   * One round over every license with open links or payments to follow. Rounds never overlap in a
   * process (a call during one gets that one), and on Redis one process takes a license at a time.
   */
  tick(): Promise<void> {
    this.#running ??= this.#round().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** Production: a round every few seconds (only what is due costs anything), until stop(). */
  start(): void {
    this.#timer = setInterval(() => {
      void this.tick();
    }, TICK_MS);
    // The timer alone must not keep the process alive.
    this.#timer.unref();
  }

  /** Ends the timer and waits for a round in flight, which stops before its next store request. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#stop();
    clearInterval(this.#timer);
    await this.#running;
  }

  async #round(): Promise<void> {
    const { store, coordination, logger } = this.options;
    let licenses: string[];
    let feed = new Map<string, FeedDemand>();
    try {
      licenses = await store.licenses();
    } catch (error) {
      logger.warn({ err: error }, 'payment watch: could not read the licenses to watch');
      return;
    }
    try {
      if (this.options.feed) feed = await this.options.feed.demand();
    } catch (error) {
      logger.warn({ err: error }, 'payment watch: could not read what the purchase feed wants; read next round');
    }
    for (const license of new Set([...licenses, ...feed.keys()])) {
      if (this.#stopping) return;
      const log = logger.child({ license: fingerprintOf(license) });
      try {
        const ran = await coordination.runAlone(`payment-watch:${license}`, () => this.#watchLicense(license, log, feed.get(license)));
        if (!ran) log.debug('payment watch: another process is watching this license');
      } catch (error) {
        log.warn({ err: error }, 'payment watch: round failed; tried again next round');
      }
    }
  }

  async #watchLicense(license: string, log: Logger, feed: FeedDemand | undefined): Promise<void> {
    const { store, clock } = this.options;
    const now = clock.now();
    const open = await this.#openLinks(license, now);
    const state = await store.state(license);
    if (open.length === 0 && state.follow.length === 0) {
      if (await store.retireIfIdle(license, false)) log.debug('payment watch: nothing open; license no longer visited');
      // The purchase feed keeps a license visited by itself (its own registry of guilds).
      if (!feed || feed.servers.size === 0) return;
    }
    if (state.unsupported) {
      if (now < state.unsupported.retryAt) return;
      // Time to try again: this round's first request says whether the endpoints exist now.
      delete state.unsupported;
    }
    const shop = (await this.#shopFor(license, [...open.map((link) => link.guildId), ...state.follow.map((follow) => follow.guildId)])) ?? feed?.shop;
    if (!shop) {
      // No guild sells from this license any more (its key was replaced): nothing can be asked.
      log.debug('payment watch: no guild uses this license now; its links expire unwatched');
      return;
    }
    const round: Round = { license, shop, state, open, log, polled: [] };
    const forLinks = new Set(serversOf(open));
    for (const serverId of [...new Set([...forLinks, ...(feed?.servers ?? [])])].sort()) {
      if (this.#stopping || round.state.unsupported) break;
      const poll = round.state.servers[serverId];
      if (poll && !isDue(poll.nextAt, clock.now())) continue;
      // A server read for the feed alone is read once a minute; one an open link buys from, every poll interval.
      await this.#pollServer(round, serverId, forLinks.has(serverId) ? this.#pollMs : Math.max(this.#pollMs, FEED_POLL_MS));
    }
    if (!this.#stopping && !round.state.unsupported) await this.#followUp(round);
    // Servers no open link buys from (and the feed does not read) any more are forgotten, so a later poll of one starts afresh.
    const polled = new Set([...serversOf(round.open), ...(feed?.servers ?? [])]);
    for (const serverId of Object.keys(round.state.servers)) if (!polled.has(serverId)) delete round.state.servers[serverId];
    await store.saveState(license, round.state);
    if (feed && round.polled.length > 0 && this.options.feed) {
      try {
        await this.options.feed.publish(license, round.polled);
      } catch (error) {
        log.warn({ err: error }, 'payment watch: the purchase feed failed this round');
      }
    }
  }

  /** The license's open links still watched now; those past their lifetime (and a grace) leave the index. */
  async #openLinks(license: string, now: number): Promise<Watched[]> {
    const { store, settings } = this.options;
    const entries = await store.openLinks(license);
    const lifetimes = new Map<string, number>();
    const watched: Watched[] = [];
    const ended: OpenLink[] = [];
    for (const entry of entries) {
      let lifetime = lifetimes.get(entry.guildId);
      if (lifetime === undefined) {
        lifetime = (await settings.get(entry.guildId)).linkLifetimeHours;
        lifetimes.set(entry.guildId, lifetime);
      }
      const until = linkExpiresAt(entry, lifetime) + watchGraceMs(this.#pollMs);
      if (now < until) watched.push({ ...entry, until });
      else ended.push(entry);
    }
    await store.closeLinks(license, ended);
    return watched;
  }

  /**
   * The license's client and gate, through a guild that still sells from it, or from the same shop
   * with a rotated key (the store lists the shop's purchases whichever of its keys asks).
   */
  async #shopFor(license: string, guildIds: string[]): Promise<ShopAccess | undefined> {
    const { stores } = this.options;
    for (const guildId of new Set(guildIds)) {
      const shop = await stores.forGuild(guildId);
      if (!shop || shop.source === 'demo') continue;
      if (shop.license === license || (await stores.sameShop(license, shop.license))) return shop;
    }
    return undefined;
  }

  /** One server's latest buyers, and the purchases among them an open link may have made. */
  async #pollServer(round: Round, serverId: string, intervalMs: number): Promise<void> {
    const { shop, state, log } = round;
    const before = state.servers[serverId];
    if (!(await this.#quiet(shop))) return;
    const askedAt = this.options.clock.now();
    // Due again in an interval whatever happens: a refused or failed poll waits for its next turn.
    state.servers[serverId] = { ...(before ?? { polledAt: 0 }), nextAt: askedAt + intervalMs };
    let rows: BuyerRow[];
    try {
      const answer = await shop.client.latestBuyers(serverId, BUYERS_LIMIT, { lane: PAYMENT_WATCH_LANE });
      if (answer.kind === 'not-supported') return this.#switchOff(round, 'latest_buyers', answer.message);
      rows = answer.value;
    } catch (error) {
      this.#skipped(log, 'latest buyers', error);
      return;
    }
    const seen = this.#madeAt(rows, before, askedAt);
    state.servers[serverId] = { polledAt: askedAt, nextAt: askedAt + intervalMs, ...(seen.dateless ? { dateless: seen.dateless } : {}) };
    round.polled.push({ serverId, rows, madeAt: seen.madeAt });
    for (const candidate of await this.#candidates(round, rows, seen.madeAt)) {
      if (this.#stopping || state.unsupported) return;
      await this.#examine(round, candidate);
    }
  }

  /**
   * When each listed transaction was made: its own date when readable; else when the watcher first
   * saw it listed. A poll that looks at a server afresh (never polled, or not for a while) cannot
   * tell when such a row was made, so it counts as made before any open link (0): a link is then
   * never taken as paid by a purchase the watcher cannot place in time.
   */
  #madeAt(rows: BuyerRow[], before: ServerPoll | undefined, now: number): { madeAt: Map<string, number>; dateless: Record<string, number> | undefined } {
    const fresh = !before || before.polledAt === 0 || now - before.polledAt > baselineAfterMs(this.#pollMs);
    const madeAt = new Map<string, number>();
    const dateless: Record<string, number> = {};
    for (const row of rows) {
      if (madeAt.has(row.transactionId)) continue;
      const dated = parsePurchaseDate(row.date);
      if (dated !== undefined) {
        madeAt.set(row.transactionId, dated);
        continue;
      }
      const firstSeen = before?.dateless?.[row.transactionId] ?? (fresh ? 0 : now);
      dateless[row.transactionId] = firstSeen;
      madeAt.set(row.transactionId, firstSeen);
    }
    return { madeAt, dateless: Object.keys(dateless).length > 0 ? dateless : undefined };
  }

  /**
   * Transactions worth one transaction/info each: by the nick of an open link (or with no nick
   * listed), made late enough to have paid it, and not handled before. A cart purchase listed as
   * one row per item is one transaction.
   */
  async #candidates(round: Round, rows: BuyerRow[], madeAt: Map<string, number>): Promise<Candidate[]> {
    const found = new Map<string, Candidate>();
    for (const row of rows) {
      if (found.has(row.transactionId)) continue;
      const made = madeAt.get(row.transactionId) ?? 0;
      const links = round.open.filter((link) => row.nick === undefined || sameNick(link.nick, row.nick));
      // Too old for every link it could be: not worth a request.
      if (!links.some((link) => link.createdAt <= made + CLOCK_SKEW_MS)) continue;
      found.set(row.transactionId, { id: row.transactionId, nick: row.nick, madeAt: made, dated: parsePurchaseDate(row.date) !== undefined });
    }
    const fresh: Candidate[] = [];
    for (const candidate of found.values()) if (!(await this.options.store.handled(round.license, candidate.id))) fresh.push(candidate);
    // Oldest first: of two identical purchases, the earlier one pays the earlier link.
    return fresh.sort((a, b) => a.madeAt - b.madeAt);
  }

  /** Asks the store about one transaction and settles what it paid. */
  async #examine(round: Round, candidate: Candidate): Promise<void> {
    const info = await this.#info(round, candidate.id);
    if (!info) return;
    const transaction: SeenTransaction = {
      id: candidate.id,
      nick: info.nick ?? candidate.nick,
      items: transactionItems(info),
      // The row's date; for a row without one, the details' date if they have one, else when the watcher first saw it.
      madeAt: candidate.dated ? candidate.madeAt : (parsePurchaseDate(info.date) ?? candidate.madeAt),
    };
    const now = this.options.clock.now();
    let links = round.open;
    for (;;) {
      // Who paid is a guess: only one member's links settle by themselves; several members' wait for staff (review.ts).
      const decision = await this.options.review.decide(round.license, transaction, info.status, links);
      if (decision.kind === 'later') return;
      if (decision.kind !== 'link') {
        await this.options.store.markHandled(round.license, transaction.id, now);
        return;
      }
      const link = decision.link;
      const outcome = await this.#claim(round, link, transaction.id, info.status);
      if (outcome === 'taken') {
        // Another transaction got there first, or the link was withdrawn meanwhile: the next best link, if any.
        links = links.filter((other) => other !== link);
        await this.options.store.closeLinks(decision.license ?? round.license, [link]);
        round.open = round.open.filter((other) => other !== link);
        continue;
      }
      round.open = round.open.filter((other) => other !== link);
      await this.options.store.closeLinks(decision.license ?? round.license, [link]);
      if (outcome === 'pending' && !round.state.follow.some((follow) => follow.transactionId === transaction.id)) {
        round.state.follow.push({ transactionId: transaction.id, guildId: link.guildId, linkId: link.linkId, attempt: 0, nextAt: now + followUpDelay(0, this.#pollMs), since: now });
        // Saved before the transaction counts as handled: a restart between the two still follows it.
        await this.options.store.saveState(round.license, round.state);
      }
      await this.options.store.markHandled(round.license, transaction.id, now, link);
      round.log.info({ guild: link.guildId, link: link.linkId, transaction: transaction.id, status: info.status }, 'payment watch: a purchase matched a payment link');
      return;
    }
  }

  /** Payments still pending at the store, asked about again when due (backing off). */
  async #followUp(round: Round): Promise<void> {
    const { clock } = this.options;
    const kept: FollowUp[] = [];
    for (const follow of round.state.follow) {
      const now = clock.now();
      if (this.#stopping || round.state.unsupported || !isDue(follow.nextAt, now)) {
        kept.push(follow);
        continue;
      }
      const info = await this.#info(round, follow.transactionId);
      if (round.state.unsupported) {
        kept.push(follow);
        continue;
      }
      const final = info && finalOf(info.status);
      if (final) {
        await this.#claim(round, follow, follow.transactionId, info.status);
        continue;
      }
      const attempt = follow.attempt + 1;
      if (clock.now() - follow.since > FOLLOW_UP_FOR_MS) {
        round.log.info({ guild: follow.guildId, link: follow.linkId, transaction: follow.transactionId }, 'payment watch: a payment stayed pending at the store too long; no longer followed');
        continue;
      }
      kept.push({ ...follow, attempt, nextAt: clock.now() + followUpDelay(attempt, this.#pollMs) });
    }
    round.state.follow = kept;
  }

  /**
   * Writes the transaction on the link, under the record's lock: only a link without a payment (and
   * not withdrawn) is claimed, and only the change to a final status emits, so a link settles once
   * however many rounds or processes get here.
   */
  async #claim(round: Round, link: Pick<OpenLink, 'guildId' | 'linkId'>, transactionId: string, status: TransactionStatus): Promise<'pending' | 'settled' | 'taken' | 'gone'> {
    const now = this.options.clock.now();
    const final = finalOf(status);
    // Set inside the update (which may run later, under the lock): widened so TypeScript does not narrow it to its first value.
    let outcome = 'unchanged' as 'pending' | 'settled' | 'taken' | 'unchanged';
    const updated = await this.options.links.update(link.guildId, link.linkId, (record) => {
      const payment = record.payment;
      if (payment ? payment.transactionId !== transactionId : record.revoked) {
        outcome = 'taken';
        return record;
      }
      if (payment?.settledAt !== undefined) return record;
      outcome = final ? 'settled' : 'pending';
      return {
        ...record,
        payment: { status: final ?? 'pending', transactionId, matchedAt: payment?.matchedAt ?? now, ...(final ? { settledAt: now } : {}) },
      };
    });
    if (!updated) return 'gone';
    if (outcome === 'taken') return 'taken';
    if (outcome === 'settled' && final) {
      round.log.info({ guild: link.guildId, link: link.linkId, transaction: transactionId, status: final }, 'payment watch: the store settled a link’s payment');
      await this.options.events.emit({ link: updated, status: final, transactionId, at: now });
      return 'settled';
    }
    return outcome === 'pending' ? 'pending' : 'settled';
  }

  /** transaction/info after the gate is quiet; undefined when refused or failed (tried again next round). */
  async #info(round: Round, transactionId: string): Promise<TransactionInfo | undefined> {
    if (!(await this.#quiet(round.shop))) return undefined;
    try {
      const answer = await round.shop.client.transactionInfo(transactionId, { lane: PAYMENT_WATCH_LANE });
      if (answer.kind === 'ok') return answer.value;
      this.#switchOff(round, 'transaction/info', answer.message);
    } catch (error) {
      this.#skipped(round.log, 'transaction info', error);
    }
    return undefined;
  }

  /**
   * Waits until the license's gate would take a request with nobody waiting (a member's checkout or
   * menu never queues behind the watcher); false when the bot is stopping meanwhile.
   */
  async #quiet(shop: ShopAccess): Promise<boolean> {
    await Promise.race([shop.gate.whenQuiet(), this.#stopped]);
    return !this.#stopping;
  }

  /** The license's API has no payment endpoints: stop asking for a while, and say so in /shop-admin status. */
  #switchOff(round: Round, endpoint: string, message: string | undefined): void {
    const now = this.options.clock.now();
    round.state.unsupported = { since: now, retryAt: now + UNSUPPORTED_RETRY_MS, ...(message ? { message: message.slice(0, 200) } : {}) };
    round.log.warn({ endpoint, retryInMinutes: UNSUPPORTED_RETRY_MS / 60_000 }, 'payment watch: the store answered 404 to a payments endpoint; following payments is off for this license for now');
  }

  #skipped(log: Logger, what: string, error: unknown): void {
    if (!isStoreError(error)) throw error;
    // The gate refused (paused after a 429, breaker open, queue full) or the store failed: next round.
    log.debug({ kind: error.kind, status: error.status }, `payment watch: ${what} skipped this round`);
  }
}

/**
 * Due now, or within half a round: the production timer's rounds drift by a few milliseconds, and
 * without this slack a poll due "now" would wait a whole round more (every 35 s instead of 30).
 */
function isDue(at: number, now: number): boolean {
  return at - now < TICK_MS / 2;
}

/** The servers the open links buy from, each once, in a stable order. */
function serversOf(open: readonly OpenLink[]): string[] {
  return [...new Set(open.flatMap((link) => link.items.map((item) => item.serverId)))].sort();
}
