import type { Coordination } from '../../coordination/coordination.js';
import type { Logger } from '../../logger.js';
import type { TransactionInfo } from '../../spaceis/client.js';
import type { TransactionStatus } from '../../spaceis/payment-schemas.js';
import { readDate } from '../../spaceis/purchase-date.js';
import type { ShopLicenses } from '../../storage/shop-licenses.js';
import type { OpenRef, ServerPoll, TxState, WatchState } from '../../storage/payment-watch.js';
import { FEED_POLL_MS, type FeedDemand, type PolledServer } from '../purchase-feed.js';
import type { ShopAccess, StoreDirectory } from '../store-directory.js';
import { LicenseLedger, type LedgerDeps } from './ledger.js';
import { unplacedPost } from './machine.js';
import { answerOf, CLOCK_SKEW_MS, judge, seenOf, type SeenTransaction } from './matcher.js';
import { askInfo, candidatesIn, gather, listedOf, placePosted, readOpenLinks, readServer, serversOf, TICK_MS, UNSUPPORTED_RETRY_MS, websiteBuyersIn, type Candidate, type OpenLink, type Reader, type SenseDeps } from './sense.js';
import { notify, type TellDeps } from './tell.js';

/** What a round is given (watcher.ts builds it): what sensing reads, what the ledger writes, what telling runs. */
export type WatchDeps = SenseDeps &
  LedgerDeps &
  TellDeps & {
    store: SenseDeps['store'] & LedgerDeps['store'] & { locks: Pick<Coordination['locks'], 'run'> };
    stores: Pick<StoreDirectory, 'forGuild' | 'sameShop'>;
    stopping(): boolean;
    /** StoreDirectory.shopKey, remembered a while: the key a license's transactions are kept under. */
    shopKeyOf(license: string): Promise<string>;
    shopLicenses: Pick<ShopLicenses, 'note' | 'others'>;
    /** The poll interval for these guilds' open links when not `pollMs` (the store webhook's safety net: health.ts). */
    pollIntervalFor?: ((license: string, guildIds: readonly string[]) => Promise<number | undefined>) | undefined;
    /** The store confirmed a transaction a guild's webhook posted (its health counts it). */
    postConfirmed?: ((guildId: string, transactionId: string) => Promise<void>) | undefined;
  };

/** What a round leaves: when the license is due again (undefined: not listed), and what it read for the purchase feed (undefined: nothing could be read). */
export interface RoundPlan {
  nextAt: number | undefined;
  polled?: PolledServer[];
}

/** Due now, or within half a tick: the timer's rounds drift by milliseconds, and a poll due "now" must not wait a whole tick more. */
export const isDue = (at: number, now: number): boolean => at - now < TICK_MS / 2;

/**
 * One license's round, inside its runAlone: it reads the license's state and open links, senses what
 * the store says (sense.ts), has the ledger write each event (ledger.ts), tells Discord of what
 * settled (tell.ts), and returns its plan. Undefined: nothing open; the license left the registry.
 */
export async function runRound(deps: WatchDeps, license: string, log: Logger, feed: FeedDemand | undefined, watched: boolean, posted: boolean): Promise<RoundPlan | undefined> {
  const now = deps.clock.now();
  const ledger = await LicenseLedger.open(deps, license, () => deps.shopKeyOf(license), log, watched);
  // The ids the store's webhook posted, as their budgets allow (a post's own round, or ids left waiting).
  if (watched && (posted || ledger.state.postedDue !== undefined)) await ledger.takePosted();
  const read = await readOpenLinks(deps, license, now);
  const feedServers = feed?.servers ?? new Set<string>();
  const idle = read.open.length === 0 && read.expired.length === 0 && Object.keys(ledger.state.work).length === 0 && ledger.state.postedDue === undefined;
  // Nothing of the watcher's own: out of the due-time index; the feed, if it reads this license, visits it once a minute.
  let feedOnly = idle && !watched;
  if (idle && watched && (await ledger.retire(read.closed))) {
    if (feedServers.size === 0) {
      log.debug('payment watch: nothing open; license no longer visited');
      return undefined;
    }
    feedOnly = true;
  }
  const guilds = [...read.open, ...read.expired].map((link) => link.guildId);
  const access = (await accessFor(deps, ledger, license, guilds)) ?? feed?.shop;
  if (!access) {
    // No guild sells from this license any more (its key was replaced): nothing can be asked; its links expire unwatched.
    log.debug('payment watch: no guild uses this license now');
    const nextAt = nextVisit(ledger.state, feedOnly, deps.clock.now(), deps.pollMs);
    await ledger.wake(nextAt);
    return { nextAt };
  }
  const shop = await ledger.shopKey();
  const round = new Round(deps, ledger, { deps, license, shop, access, log }, read.open, now);
  // A license whose shop is reached by other keys too is noted under that shop, for shopmates.
  await deps.shopLicenses.note(shop, license);
  if (read.closed.length > 0) await ledger.closeLinks(read.closed);
  for (const record of read.expired) {
    const ended = await ledger.settleEnded(record);
    if (ended) await notify(deps, ledger, ended);
  }
  const forLinks = new Set(serversOf(read.open));
  const servers = [...new Set([...forLinks, ...feedServers])].sort();
  // Open links' servers every pollMs, or as the safety net's cadence says (not while posted ids wait: the posts are behind);
  // a server the feed alone reads once a minute, one it shares at least that often.
  const linkPollMs = (forLinks.size > 0 && ledger.state.postedDue === undefined ? await deps.pollIntervalFor?.(license, read.open.map((link) => link.guildId)) : undefined) ?? deps.pollMs;
  const feedPollMs = Math.max(deps.pollMs, FEED_POLL_MS);
  const interval = (serverId: string) => (!forLinks.has(serverId) ? feedPollMs : feedServers.has(serverId) ? Math.min(linkPollMs, feedPollMs) : linkPollMs);
  const planned = planPolls(ledger.state, servers, forLinks, interval, now);
  ledger.setPolls(planned.polls);
  await ledger.wake(nextVisit(ledger.state, feedOnly, deps.clock.now(), deps.pollMs));
  for (const serverId of planned.due) {
    if (deps.stopping() || ledger.state.unsupported) break;
    await round.poll(serverId, interval(serverId));
  }
  await round.work();
  const nextAt = nextVisit(ledger.state, feedOnly && Object.keys(ledger.state.work).length === 0, deps.clock.now(), deps.pollMs);
  await ledger.wake(nextAt);
  return { nextAt, polled: round.polled };
}

/**
 * When the license is due again: its earliest poll or work; with servers polled, at most an interval
 * away (a link issued meanwhile is looked at); with nothing left, one more visit, which retires it.
 * Undefined: read for the purchase feed alone, which makes it due once a minute by itself.
 */
function nextVisit(state: Readonly<WatchState>, feedOnly: boolean, now: number, pollMs: number): number | undefined {
  if (feedOnly) return undefined;
  const polls = Object.values(state.servers).map((poll) => poll.nextAt);
  const times = [...(polls.length > 0 ? [now + pollMs] : []), ...polls, ...Object.values(state.work), ...(state.postedDue !== undefined ? [state.postedDue] : [])];
  return Math.max(times.length > 0 ? Math.min(...times) : now + pollMs, now + TICK_MS);
}

/**
 * The servers to read this round: `servers` (the others are forgotten), each every `interval`; a
 * shorter cadence applies at once (a server skipped after a 404 keeps its wait); after a 404 for
 * every server, its retry time tries the route again. The due ones are due again in an interval
 * whatever happens, written before the store is asked (a failure never makes the next round poll at once).
 */
function planPolls(state: Readonly<WatchState>, servers: readonly string[], forLinks: ReadonlySet<string>, interval: (serverId: string) => number, now: number) {
  const retry = state.unsupported !== undefined && now >= state.unsupported.retryAt;
  const unsupported = retry ? undefined : state.unsupported;
  const missing = Object.fromEntries(Object.entries(retry ? {} : state.missing).filter(([serverId]) => servers.includes(serverId)));
  const polls: Record<string, ServerPoll> = {};
  for (const [serverId, poll] of Object.entries(state.servers)) {
    if (servers.includes(serverId)) polls[serverId] = forLinks.has(serverId) && !missing[serverId] && poll.nextAt > now + interval(serverId) ? { ...poll, nextAt: now + interval(serverId) } : poll;
  }
  const due = unsupported ? [] : servers.filter((serverId) => isDue(polls[serverId]?.nextAt ?? 0, now));
  for (const serverId of due) polls[serverId] = { ...(polls[serverId] ?? { polledAt: 0 }), nextAt: now + interval(serverId) };
  return { polls: { servers: polls, missing, unsupported }, due };
}

/** latest_buyers answered 404 for a server: skipped a while; when every server does, following is off for the license a while. */
function missingPolls(state: Readonly<WatchState>, serverId: string, message: string | undefined, now: number, log: Logger) {
  const missing = { ...state.missing, [serverId]: { since: state.missing[serverId]?.since ?? now, retryAt: now + UNSUPPORTED_RETRY_MS } };
  const servers = { ...state.servers, [serverId]: { ...(state.servers[serverId] ?? { polledAt: 0 }), nextAt: now + UNSUPPORTED_RETRY_MS } };
  log.warn({ server: serverId }, 'payment watch: the store answered 404 for this server’s latest buyers; skipped for now');
  if (!Object.keys(servers).every((id) => missing[id])) return { missing, servers };
  log.warn({ retryInMinutes: UNSUPPORTED_RETRY_MS / 60_000 }, 'payment watch: every server answered 404 to latest buyers; following payments is off for this license for now');
  return { missing, servers, unsupported: { since: now, retryAt: now + UNSUPPORTED_RETRY_MS, ...(message ? { message: message.slice(0, 200) } : {}) } };
}

/** Rows dated whole hours ahead: the store's dates are not Warsaw time; warned once per license. */
function hoursOff(state: Readonly<WatchState>, serverId: string, hoursAhead: number | undefined, log: Logger): { hoursOffWarned?: true } {
  if (hoursAhead === undefined || state.hoursOffWarned) return {};
  log.warn({ server: serverId, hoursAhead }, 'payment watch: the store dates purchases a whole number of hours ahead of now: its times are not Warsaw time; such rows count as undated (see docs/spaceis-api.md, Payments)');
  return { hoursOffWarned: true };
}

/** The license's client and gate, through a guild that still sells from it, or its shop under a rotated key. */
async function accessFor(deps: WatchDeps, ledger: LicenseLedger, license: string, guildIds: string[]): Promise<ShopAccess | undefined> {
  const guilds = new Set(guildIds);
  if (guilds.size === 0) {
    for (const transactionId of Object.keys(ledger.state.work)) {
      const tx = await ledger.tx(transactionId);
      for (const ref of [...(tx?.link ? [tx.link] : []), ...(tx?.candidates ?? []), ...(tx?.postedIn ? [{ guildId: tx.postedIn }] : [])]) guilds.add(ref.guildId);
    }
  }
  for (const guildId of guilds) {
    const shop = await deps.stores.forGuild(guildId);
    if (shop && shop.source !== 'demo' && (shop.license === license || (await deps.stores.sameShop(license, shop.license)))) return shop;
  }
  return undefined;
}

/** A transaction a poll examines: never seen, or named only by a post the store could not place yet (the row places it). */
const unexamined = (tx: TxState | undefined): boolean => !tx || unplacedPost(tx);
const refKey = (ref: OpenRef) => `${ref.guildId}:${ref.linkId}`;

/** One round's reading of the license: its open links as last read, and the servers it read for the feed. */
class Round {
  readonly polled: PolledServer[] = [];

  constructor(
    private readonly deps: WatchDeps,
    private readonly ledger: LicenseLedger,
    private readonly reader: Reader,
    private open: OpenLink[],
    private openReadAt: number,
  ) {}

  /** One server's latest buyers: each new candidate asked about and decided under its lock, then the website buyers among the rows. */
  async poll(serverId: string, intervalMs: number): Promise<void> {
    const { deps, ledger, reader } = this;
    const before = ledger.state.servers[serverId];
    const reading = await readServer(reader, serverId, before, intervalMs);
    if (reading.kind === 'skipped') return;
    if (reading.kind === 'missing') return ledger.setPolls(missingPolls(ledger.state, serverId, reading.message, deps.clock.now(), reader.log));
    const { [serverId]: _found, ...missing } = ledger.state.missing;
    ledger.setPolls({ servers: { ...ledger.state.servers, [serverId]: reading.poll }, missing, ...hoursOff(ledger.state, serverId, reading.times.hoursAhead, reader.log) });
    this.polled.push({ serverId, rows: reading.rows, madeAt: reading.times.madeAt });
    const fresh: Candidate[] = [];
    for (const candidate of candidatesIn(reader, reading.rows, reading.times, this.open)) if (unexamined(await ledger.tx(candidate.id))) fresh.push(candidate);
    for (const candidate of fresh) {
      if (deps.stopping() || ledger.state.unsupported) return;
      // Under the transaction's lock in its shop: a rotated key's round may have it at the same moment; the second finds it decided.
      await deps.store.locks.run(`pay-decide:${reader.shop}:${candidate.id.toLowerCase()}`, async () => {
        const tx = await ledger.tx(candidate.id);
        if (unexamined(tx)) await this.examine(candidate, tx);
      });
    }
    await ledger.noteWebsiteBuyers(() => websiteBuyersIn(reader, reading.rows, reading.times, before, this.open, (id) => ledger.tx(id), ledger.notedAt));
    reader.log.debug({ server: serverId, rows: reading.rows.length }, 'payment watch: server polled');
  }

  async examine(candidate: Candidate, previous: TxState | undefined): Promise<void> {
    const answer = await askInfo(this.reader, candidate.id);
    if (answer.kind === 'skipped') return;
    // Unknown to the store for now (a listing ahead of its details?): followed against the links it could have paid.
    if (answer.kind === 'unknown') return void (await this.ledger.apply(candidate.id, previous, listedOf(candidate, this.open)));
    await this.conclude(seenOf(candidate.id, answer.info, candidate.nick, candidate.dated ? candidate.madeAt : undefined, candidate.madeAt, this.deps.clock.now()), answer.info.status, undefined);
  }

  /**
   * THE path of every answer that names a status: who paid (sense.ts, `judge`), written (ledger.ts),
   * told. A link taken meanwhile: the next best. Nobody's, but made after the open links were read:
   * they are read once more first (a checkout may have landed meanwhile).
   */
  async conclude(transaction: SeenTransaction, status: TransactionStatus, previous: TxState | undefined): Promise<void> {
    const { ledger } = this;
    const tried = new Set<string>();
    let reread = false;
    const { mates, evidence } = await gather(this.reader, transaction, previous, this.open);
    for (;;) {
      const judged = judge(transaction, status, [...this.open, ...mates].filter((link) => !tried.has(refKey(link))), evidence);
      if (judged.kind === 'nobody' && !reread && transaction.madeAt + CLOCK_SKEW_MS >= this.openReadAt) {
        reread = true;
        this.openReadAt = this.deps.clock.now();
        this.open = (await readOpenLinks(this.deps, this.reader.license, this.openReadAt)).open;
        continue;
      }
      const grounds = judged.kind === 'link' ? { link: judged.link } : judged.kind === 'staff' ? { candidates: judged.candidates, reason: judged.reason } : {};
      const written = await ledger.decide(transaction.id, previous, judged.event, { transaction, open: this.open, ...grounds });
      if (judged.kind !== 'link' || written === 'kept' || written === 'matched') return;
      // Settled (its link leaves the open ones) or taken by another transaction meanwhile (the next best, if any).
      this.open = this.open.filter((link) => refKey(link) !== refKey(judged.link));
      if (written === 'settled') return notify(this.deps, ledger, transaction.id);
      tried.add(refKey(judged.link));
      await ledger.closeLinks([{ guildId: judged.link.guildId, linkId: judged.link.linkId, license: judged.link.record.license }]);
    }
  }

  /** The transactions whose work is due, oldest first: their record says what is left. */
  async work(): Promise<void> {
    const { deps, ledger } = this;
    const due = Object.entries(ledger.state.work).filter(([, at]) => isDue(at, deps.clock.now())).sort((a, b) => a[1] - b[1]);
    for (const [transactionId] of due) {
      if (deps.stopping() || ledger.state.unsupported) return;
      const tx = await ledger.tx(transactionId);
      if (tx?.state === 'settled') await notify(deps, ledger, transactionId);
      else if (tx?.state === 'matched' || tx?.state === 'seen') await this.askAgain(transactionId, tx);
      else ledger.dropWork(transactionId);
    }
  }

  /** A payment still pending at the store, or one it did not know: asked again, backing off, for 30 days. */
  async askAgain(transactionId: string, tx: TxState): Promise<void> {
    const { ledger, reader } = this;
    if ((await ledger.apply(transactionId, tx, { kind: 'time-passed' })).record !== tx) {
      reader.log.info({ transaction: transactionId, status: tx.status }, 'payment watch: a transaction stayed pending or unknown at the store for 30 days; no longer followed');
      return;
    }
    const answer = await askInfo(reader, transactionId);
    if (answer.kind === 'skipped') return;
    // Named only by a post and unknown to the store: a forged or mistyped id, or ahead of its details. Asked no more; a poll that lists it examines it.
    if (answer.kind === 'unknown' && unplacedPost(tx)) return ledger.forgetPosted(transactionId, tx);
    if (answer.kind === 'ok' && unplacedPost(tx)) return this.decidePosted(transactionId, tx, answer.info);
    if (answer.kind === 'unknown') {
      const { effects } = await ledger.apply(transactionId, tx, { kind: 'unknown' });
      if (effects.some((effect) => effect.kind === 'log')) reader.log.info({ transaction: transactionId, asked: tx.attempt + 1 }, 'payment watch: the store kept answering 404 about a transaction; asked every few hours now');
      return;
    }
    // Still not final: asked again (a seen one's pending answer is decided as a polled one: its link shows it pending).
    if (answer.info.status === 'unknown' || (answer.info.status === 'pending' && tx.state !== 'seen')) return void (await ledger.apply(transactionId, tx, answerOf(answer.info.status)));
    const placed = tx.madeAt ?? 0;
    await this.conclude(seenOf(transactionId, answer.info, tx.nick, tx.state === 'matched' ? placed : undefined, placed, this.deps.clock.now()), answer.info.status, tx);
  }

  /**
   * A posted transaction the store answered about: counted by its guild's webhook health, placed in
   * time by the store's evidence (sense.ts, `placePosted`), then decided as a polled one. With no link
   * open, placing it changes nothing (it is nobody's whenever made): its answer's own date, if any, says
   * since when its nick is a website buyer's. Not placed yet: asked again (pending), else a few times.
   */
  async decidePosted(transactionId: string, tx: TxState, info: TransactionInfo): Promise<void> {
    const { deps, ledger, reader } = this;
    const now = deps.clock.now();
    if (tx.postedIn && info.status !== 'unknown') await deps.postConfirmed?.(tx.postedIn, transactionId);
    const madeAt = info.status === 'unknown' ? undefined : this.open.length === 0 ? (readDate(info.date, now) ?? 0) : await placePosted(reader, transactionId, info, ledger.state.servers);
    if (madeAt === undefined && !(await ledger.apply(transactionId, tx, answerOf(info.status))).effects.some((effect) => effect.kind === 'decide')) return;
    // Undated and not listed: made before any link, as polling counts an undated row.
    const placed = madeAt ?? 0;
    await this.conclude(seenOf(transactionId, info, tx.nick, placed, placed, now), info.status, { ...tx, madeAt: placed });
  }
}
