import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import { nickKeyPart } from '../../storage/nick-uses.js';
import type { PaymentClaim, PaymentLink, PaymentLinkRepository } from '../../storage/payment-links.js';
import { slotOf } from '../../storage/payment-watch-index.js';
import { followedBefore, type OpenRef, type PaymentWatchStore, type TxState, type WatchState } from '../../storage/payment-watch.js';
import { isStorageError } from '../../storage/storage-error.js';
import type { WebsiteBuyerStore } from '../../storage/website-buyers.js';
import { transition, workOf, type Effect, type Outcome, type Pace, type TxEvent } from './machine.js';
import { CLOCK_SKEW_MS, sameNick, WEBSITE_BUYER_DAYS, type ReviewReason, type SeenTransaction } from './matcher.js';
import type { OpenLink } from './sense.js';

/**
 * The one writer. An event is applied by the table (machine.ts) and written here, in an order that
 * makes any single failed write harmless: the license's work index first (a hint: an entry whose record
 * owes nothing is dropped), then the transaction's one record (its state and the work it owes), then
 * the link's record, the open-link index, the review and the website buyers, which the next round
 * finishes from the record when they fail (tell.ts). The license's own state (polls, work, the posted
 * queue's time) is held here for a round and written when it changed, before the store is asked.
 */

export interface LedgerDeps {
  store: Pick<PaymentWatchStore, 'tx' | 'saveTx' | 'state' | 'saveState' | 'inbox' | 'clearInbox' | 'index' | 'posted' | 'rememberUnknownPosts'>;
  links: Pick<PaymentLinkRepository, 'get' | 'claim'>;
  websiteBuyers?: Pick<WebsiteBuyerStore, 'note' | 'lastSeen'>;
  review?: { raise(transaction: SeenTransaction, candidates: readonly OpenLink[], reason?: ReviewReason): Promise<void> }; // staff's question (review.ts)
  clock: Clock;
  pollMs: number;
}

/** THE write of an event, on every path (a round, a post, staff): the table's record, written when it changed. */
export async function recordEvent(deps: { store: Pick<PaymentWatchStore, 'saveTx'>; clock: Clock }, shop: string, transactionId: string, previous: TxState | undefined, event: TxEvent, pace: Pace): Promise<Outcome> {
  const outcome = transition(previous, event, deps.clock.now(), pace);
  if (outcome.record && outcome.record !== previous) await deps.store.saveTx(shop, transactionId, outcome.record);
  return outcome;
}

/** A transaction's record: under the shop's key (the same for every key of a shop), or, recorded before the shop was known, the license's. */
export async function readTx(store: Pick<PaymentWatchStore, 'tx'>, shop: string, license: string, transactionId: string): Promise<TxState | undefined> {
  return (await store.tx(shop, transactionId)) ?? (shop === license ? undefined : await store.tx(license, transactionId));
}

/** A transaction's claim written on the link's record (storage's rule: a settled or withdrawn link never changes). */
export const claimLink = (deps: { links: Pick<PaymentLinkRepository, 'claim'>; clock: Clock }, ref: OpenRef, transactionId: string, status: PaymentClaim['status'], final = status === 'paid', confirmedBy?: string) =>
  deps.links.claim(ref.guildId, ref.linkId, { transactionId, status, final, confirmedBy }, deps.clock.now());

type ClaimEffect = Extract<Effect, { kind: 'claim' }>;
const claimOf = (effects: readonly Effect[]): ClaimEffect | undefined => effects.find((effect): effect is ClaimEffect => effect.kind === 'claim');
const WEBSITE_BUYER_MS = WEBSITE_BUYER_DAYS * 86_400_000;

/** What a decision was made on, for what its effects owe: the purchase, the links it weighed, staff's question. */
export interface Grounds {
  transaction: SeenTransaction;
  open: readonly OpenLink[];
  link?: OpenLink;
  candidates?: OpenLink[];
  reason?: ReviewReason;
}

/** One license's writes for one round (under its runAlone): its state, and the records its events change. */
export class LicenseLedger {
  #readAs: string;
  #inboxTaken: string[] = [];
  /** Website buyers' nicks this round noted already (a shop's servers share buyers: one write per nick). */
  readonly #noted = new Map<string, number>();
  #shop: string | undefined;

  private constructor(
    private readonly deps: LedgerDeps,
    readonly license: string,
    private readonly shopOf: () => Promise<string>,
    readonly log: Logger,
    private readonly current: WatchState,
  ) {
    this.#readAs = JSON.stringify(current);
  }

  /** The key its transactions are kept under (asked only when needed: an idle license's round reads nothing more). */
  async shopKey(): Promise<string> {
    return (this.#shop ??= await this.shopOf());
  }

  /**
   * The license's state, read; pending payments as older versions followed them become transaction
   * records; with `inbox`, the work handed over from outside a round (a moderator's confirmation) joins it.
   */
  static async open(deps: LedgerDeps, license: string, shopOf: () => Promise<string>, log: Logger, inbox: boolean): Promise<LicenseLedger> {
    const state = await deps.store.state(license);
    const ledger = new LicenseLedger(deps, license, shopOf, log, state);
    for (const follow of state.follow ?? []) {
      await deps.store.saveTx(await ledger.shopKey(), follow.transactionId, followedBefore(follow));
      state.work[follow.transactionId] = follow.nextAt;
    }
    delete state.follow;
    const handed = inbox ? await deps.store.inbox(license) : {};
    for (const [transactionId, at] of Object.entries(handed)) state.work[transactionId] = Math.min(state.work[transactionId] ?? at, at);
    ledger.#inboxTaken = Object.keys(handed);
    return ledger;
  }

  get state(): Readonly<WatchState> { return this.current; }

  async tx(transactionId: string): Promise<TxState | undefined> {
    return readTx(this.deps.store, await this.shopKey(), this.license, transactionId);
  }

  /** An event applied: the record written when it changed, the work it owes noted (saved with the state). */
  async apply(transactionId: string, record: TxState | undefined, event: TxEvent): Promise<Outcome> {
    const outcome = await recordEvent(this.deps, await this.shopKey(), transactionId, record, event, this.deps);
    this.#noteWork(transactionId, outcome.effects);
    return outcome;
  }

  async #saveTx(transactionId: string, record: TxState): Promise<void> {
    await this.deps.store.saveTx(await this.shopKey(), transactionId, record);
  }

  /**
   * A decision of who paid, written: a settling claim as `#settle` orders it; any other claim the
   * link's record first, so a link another transaction took is never written on this record. 'taken':
   * the link went meanwhile (the caller tries the next); 'settled': paid, its steps owed now.
   */
  async decide(transactionId: string, previous: TxState | undefined, event: TxEvent, on: Grounds): Promise<'settled' | 'matched' | 'taken' | 'kept'> {
    const outcome = transition(previous, event, this.deps.clock.now(), this.deps);
    const claim = claimOf(outcome.effects);
    const has = (kind: Effect['kind']) => outcome.effects.some((effect) => effect.kind === kind);
    if (!claim) {
      await this.#record(transactionId, previous, outcome);
      if (has('ask-staff')) await this.deps.review?.raise(on.transaction, on.candidates ?? [], on.reason);
      // Paid, and no link of the bot's could have been paid by it: a website purchase, however the bot heard of it.
      if (has('note-website-buyer')) await this.#noteDecided(on.transaction, previous?.postedAt, on.open);
      return 'kept';
    }
    const where = { guild: claim.link.guildId, link: claim.link.linkId, transaction: transactionId };
    if (claim.final) {
      if ((await this.#settle(transactionId, previous, outcome, claim)) === 'taken') return 'taken';
      this.log.info({ ...where, status: 'paid' }, 'payment watch: the store settled a link’s payment');
      await this.closeLinks([{ ...claim.link, license: on.link?.record.license }]);
      return 'settled';
    }
    // Pending, failed or expired: the link stays open within its lifetime; a later paid transaction replaces it.
    if ((await claimLink(this.deps, claim.link, transactionId, claim.claim, claim.final)) === 'taken') return 'taken';
    await this.#record(transactionId, previous, outcome);
    this.log.info({ ...where, status: outcome.record?.status }, 'payment watch: a purchase matched a payment link');
    return 'matched';
  }

  /** A link whose lifetime ended with only a failed or expired attempt settles with it: the transaction whose steps are owed now. */
  async settleEnded(record: PaymentLink): Promise<string | undefined> {
    const attempt = record.attempt;
    if (!attempt) return undefined;
    const previous = await this.tx(attempt.transactionId);
    const event: TxEvent = { kind: 'link-ended', link: { guildId: record.guildId, linkId: record.id }, status: attempt.status === 'failed' ? 'fail' : 'expired' };
    const outcome = transition(previous, event, this.deps.clock.now(), this.deps);
    const claim = claimOf(outcome.effects);
    // The table settles a transaction matched to the link (or one without a record); one concluded otherwise stays.
    if (!claim) return undefined;
    await this.#settle(attempt.transactionId, previous, outcome, claim);
    return outcome.effects.some((effect) => effect.kind === 'tell-steps') ? attempt.transactionId : undefined;
  }

  /** The work index first, then the record owing every step, then the link's record (see the file's comment). */
  async #settle(transactionId: string, previous: TxState | undefined, outcome: Outcome, claim: ClaimEffect): Promise<'claimed' | 'taken'> {
    this.#noteWork(transactionId, outcome.effects);
    await this.save();
    await this.#record(transactionId, previous, outcome);
    return claimLink(this.deps, claim.link, transactionId, claim.claim, claim.final);
  }

  async #record(transactionId: string, record: TxState | undefined, outcome: Outcome): Promise<void> {
    if (outcome.record && outcome.record !== record) await this.#saveTx(transactionId, outcome.record);
    this.#noteWork(transactionId, outcome.effects);
  }

  #noteWork(transactionId: string, effects: readonly Effect[]): void {
    const work = workOf(effects);
    if (work === 'drop') delete this.current.work[transactionId];
    else if (work) this.current.work[transactionId] = work.at;
  }

  dropWork(transactionId: string): void { delete this.current.work[transactionId]; }

  /**
   * The ids the store's webhook posted, taken from their queue as its budgets allow (storage/posted-ids.ts):
   * each enters as a `posted` event (a followed one due at once, a new one seen). Their work is saved
   * with the state before their records are written.
   */
  async takePosted(): Promise<void> {
    const now = this.deps.clock.now();
    const { taken, nextAt } = await this.deps.store.posted.take(this.license, now);
    if (nextAt === undefined) delete this.current.postedDue;
    else this.current.postedDue = nextAt;
    const fresh: { id: string; record: TxState }[] = [];
    for (const entry of taken) {
      const tx = await this.tx(entry.id);
      const { record, effects } = transition(tx, { kind: 'posted', guildId: entry.guildId, postedAt: entry.at }, now, this.deps);
      const work = workOf(effects);
      if (work && work !== 'drop') this.current.work[entry.id] = work.at;
      if (record && record !== tx) fresh.push({ id: entry.id, record });
    }
    if (taken.length > 0) await this.save();
    for (const { id, record } of fresh) await this.#saveTx(id, record);
  }

  /** A posted id the store does not know: asked no more, and remembered among the shop's bounded few (storage/posted-seen.ts). */
  async forgetPosted(transactionId: string, tx: TxState): Promise<void> {
    const now = this.deps.clock.now();
    this.log.debug({ transaction: transactionId }, 'payment watch: the store does not know a transaction its webhook post named; asked no more (a poll that lists it examines it)');
    await this.apply(transactionId, tx, { kind: 'unknown' });
    const forgotten = await this.deps.store.rememberUnknownPosts(await this.shopKey(), [{ id: transactionId, at: now }], now);
    if (forgotten > 0) this.log.debug({ forgotten }, 'payment watch: the oldest posted ids the store does not know were forgotten (their bound)');
  }

  /** The license's polls as the round planned them (round.ts): servers, those missing at the store, whether following is off. */
  setPolls(next: Partial<Pick<WatchState, 'servers' | 'missing' | 'unsupported' | 'hoursOffWarned'>>): void {
    Object.assign(this.current, next);
    if ('unsupported' in next && next.unsupported === undefined) delete this.current.unsupported;
  }

  /** The nicks of rows bought outside the bot, once per round and nick. A storage failure only misses evidence (the 2-hour rule holds). */
  notedAt = (nick: string): number => this.#noted.get(nickKeyPart(nick.trim())) ?? -1;

  async noteWebsiteBuyers(find: () => Promise<readonly { nick: string; at: number }[]>): Promise<void> {
    const store = this.deps.websiteBuyers;
    if (!store) return;
    await this.#evidence(async () => {
      const found = await find();
      const now = this.deps.clock.now();
      const shop = await this.shopKey();
      for (const { nick, at } of found) {
        await store.note(shop, nick, at, at + WEBSITE_BUYER_MS - now);
        this.#noted.set(nickKeyPart(nick.trim()), at);
      }
    });
  }

  /**
   * A paid purchase decided nobody's: its nick is a website buyer's from when it was made; posted and
   * not placed (0), from its post, unless an open link issued before the post has the nick (perhaps
   * that member's, which the bot could not tell: their next links would go to staff too).
   */
  async #noteDecided(transaction: SeenTransaction, postedAt: number | undefined, open: readonly OpenLink[]): Promise<void> {
    const { nick, madeAt: placedAt } = transaction;
    const store = this.deps.websiteBuyers;
    if (!store || nick === undefined) return;
    const madeAt = placedAt > 0 ? placedAt : postedAt !== undefined && !open.some((link) => sameNick(link.nick, nick) && link.createdAt <= postedAt + CLOCK_SKEW_MS) ? postedAt : 0;
    if (madeAt <= 0 || this.notedAt(nick) >= madeAt) return;
    await this.#evidence(async () => {
      const shop = await this.shopKey();
      if (((await store.lastSeen(shop, nick)) ?? -1) < madeAt) await store.note(shop, nick, madeAt, madeAt + WEBSITE_BUYER_MS - this.deps.clock.now());
      this.#noted.set(nickKeyPart(nick.trim()), madeAt);
    });
  }

  async #evidence(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (!isStorageError(error)) throw error;
      this.log.warn({ storage: { operation: error.operation } }, 'payment watch: could not remember a website buyer’s nick; its links are judged without it');
    }
  }

  /** Takes links out of the open index, each of its own license (a shopmate's link is another license's). */
  async closeLinks(links: readonly (OpenRef & { license?: string | undefined })[]): Promise<void> {
    for (const license of new Set(links.map((link) => link.license ?? this.license))) {
      await this.deps.store.index.closeOpen(license, links.filter((link) => (link.license ?? this.license) === license).map(({ guildId, linkId }) => ({ guildId, linkId })));
    }
  }

  /** Nothing open and no work: out of the registry; true when it left. */
  async retire(closed: readonly OpenRef[]): Promise<boolean> {
    await this.deps.store.index.closeOpen(this.license, closed);
    return this.deps.store.index.retire(this.license);
  }

  /** The license's state, written when it changed since read. */
  async save(): Promise<void> {
    const text = JSON.stringify(this.current);
    if (text === this.#readAs) return;
    await this.deps.store.saveState(this.license, this.current);
    this.#readAs = text;
  }

  /**
   * The license listed in the due-time index at `next` (the round's plan), and its state saved; the
   * inbox's work is in the saved state then. Undefined: read for the purchase feed alone, which makes it due itself.
   */
  async wake(next: number | undefined): Promise<void> {
    const { deps, current: state } = this;
    const now = deps.clock.now();
    if (next !== undefined && (state.wakeSlot === undefined || state.wakeSlot <= slotOf(now) || slotOf(next) < state.wakeSlot)) state.wakeSlot = await deps.store.index.schedule(this.license, next, now);
    await this.save();
    if (next !== undefined && this.#inboxTaken.length > 0) {
      await deps.store.clearInbox(this.license, this.#inboxTaken);
      this.#inboxTaken = [];
    }
  }
}
