import * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import type { Logger } from '../logger.js';
import { PaymentWatchIndex, type OpenRef } from './payment-watch-index.js';
import { LINK_RETENTION_DAYS } from './payment-links.js';
import { PostedIdStore } from './posted-ids.js';
import { PostedSeenIndex } from './posted-seen.js';
import { parseRecord } from './records.js';

export type { OpenRef };

/**
 * What the payment watcher (src/services/payment-watch/) keeps, so that a restart or a second
 * process carries on where it stopped:
 *
 * - the indexes of payment-watch-index.ts: which licenses to visit, when, and their open links;
 * - `pay-state:<license>`: when each server was polled and is due next, the servers that answered
 *   404, the transactions with work left (ids and when), whether the license's API has the payment
 *   endpoints at all, and when the license is next due. Written only when it changed.
 * - `pay-tx:<shop>:<transaction>`: each transaction's one state (see TxState), kept longer than
 *   link records are. `<shop>` is the license the shop was first watched under (see watcher.ts).
 *
 * Nothing here holds a URL, an e-mail or anything else about the buyer but the nick the link was issued for.
 */

const DAY_MS = 86_400_000;
/** Transactions are remembered longer than the links they could match are kept. */
export const HANDLED_TTL_MS = (LINK_RETENTION_DAYS + 10) * DAY_MS;

const serverPollSchema = z.object({
  polledAt: z.number(),
  nextAt: z.number(),
  /** Transactions listed without a readable date, with when the watcher counts them as made (still listed ones only). */
  dateless: z.record(z.string(), z.number()).optional(),
  /** The newest transaction this server listed at its last poll: how many rows are new is counted down to it. */
  newest: z.string().optional(),
});
export type ServerPoll = z.infer<typeof serverPollSchema>;

const watchStateSchema = z.object({
  servers: z.record(z.string(), serverPollSchema).default({}),
  /** Servers whose latest_buyers answered 404 (deleted, say): skipped until `retryAt`, shown in /shop-admin status. */
  missing: z.record(z.string(), z.object({ since: z.number(), retryAt: z.number() })).default({}),
  /** Transactions with work left (following a pending payment, telling Discord), by id: when next. */
  work: z.record(z.string(), z.number()).default({}),
  /** Every server of the license answered 404: not asked again before `retryAt`. */
  unsupported: z.object({ since: z.number(), retryAt: z.number(), message: z.string().optional() }).optional(),
  /** The due-time slot the license is listed in next (payment-watch-index.ts). */
  wakeSlot: z.number().optional(),
  /** Ids the store's webhook posted still wait in their queue (storage/posted-ids.ts): when the next may be taken. */
  postedDue: z.number().optional(),
  /** The store's dates were once found a whole number of hours off: warned once. */
  hoursOffWarned: z.boolean().optional(),
  /** Written by older versions: payments followed while pending. Turned into transaction states on first read (payment-watch/ledger.ts, `LicenseLedger.open`). */
  follow: z.array(z.object({ transactionId: z.string(), guildId: z.string(), linkId: z.string(), attempt: z.number().int(), nextAt: z.number(), since: z.number() })).optional(),
});
export type WatchState = z.infer<typeof watchStateSchema>;

const refSchema = z.object({ guildId: z.string(), linkId: z.string() });

/**
 * One transaction's state, in one record: `seen` (listed, its details not known yet), then
 * `matched` (to a link, the store not final or not paid), or `ambiguous` (several members' links
 * could be it: staff decide), `settled` (the link's record says so; Discord not all told yet),
 * `notified` (every step done). `nobody` (no link of the bot's) and `unknown` (the store said 404
 * about it several times) are set aside.
 */
const txStateSchema = z.object({
  state: z.enum(['seen', 'matched', 'ambiguous', 'settled', 'notified', 'nobody', 'unknown']),
  /** When it first got a state. */
  since: z.number(),
  /** When it last changed. */
  at: z.number(),
  /** The store's last status for it. */
  status: z.enum(['paid', 'pending', 'fail', 'expired', 'unknown']).optional(),
  /** When it was made, as the watcher placed it, and the nick listed: to decide it again after a 404. */
  madeAt: z.number().optional(),
  nick: z.string().optional(),
  link: refSchema.optional(),
  /**
   * The links it could have paid when first seen (several members' while pending, or any while the
   * store answered 404): decided against them, open or not, until the store's status is final.
   */
  candidates: z.array(refSchema).optional(),
  /** transaction/info asked this many times (backing off), or answered 404 this many times (seen). */
  attempt: z.number().int().default(0),
  /** What is done of the settled → notified step: each step's name and when it was done. */
  steps: z.record(z.string(), z.number()).optional(),
  /**
   * The steps Discord refused for good (403 50007 DMs closed, 50013, 404 10003…):
   * each also in `steps` (ended: never run again), here with Discord's reason, written in the same write.
   */
  refused: z.record(z.string(), z.object({ reason: z.string(), at: z.number(), /** When the admins were told (log channel, status); until then the round owes it. */ told: z.number().optional() })).optional(),
  /** Who confirmed it, when staff chose the link. */
  confirmedBy: z.string().optional(),
  /** What it paid as transaction/info said, grosze (the insights' paid value); absent when it did not say. */
  amounts: z.object({ totalGrosze: z.number(), items: z.array(z.object({ variantId: z.string(), grosze: z.number() })) }).optional(),
  /**
   * Named by a post in the store's webhook, not seen in the store's list: whoever holds the URL can
   * post any id, so a 404 about it ends it at once (see services/payment-watch/round.ts, `askAgain`).
   */
  announced: z.literal(true).optional(),
  /** For a posted id: the guild whose webhook named it first (its health counts it once the store confirms it), and when. */
  postedIn: z.string().optional(),
  postedAt: z.number().optional(),
});
export type TxState = z.infer<typeof txStateSchema>;

/** A handled transaction as older versions wrote it: matched to a link (then told), or nobody's. */
const legacyHandledSchema = z.object({ at: z.number(), guildId: z.string().optional(), linkId: z.string().optional() });
const storedTxSchema = z.union([
  txStateSchema,
  legacyHandledSchema.transform(({ at, guildId, linkId }): TxState => ({
    state: guildId && linkId ? 'notified' : 'nobody',
    since: at,
    at,
    attempt: 0,
    ...(guildId && linkId ? { link: { guildId, linkId } } : {}),
  })),
]);

/** A payment followed while pending by versions that kept it in `pay-state.follow`, as its transaction record. */
export function followedBefore(follow: NonNullable<WatchState['follow']>[number]): TxState {
  return { state: 'matched', status: 'pending', since: follow.since, at: follow.since, attempt: follow.attempt, link: { guildId: follow.guildId, linkId: follow.linkId } };
}

const stateKey = (license: string) => `pay-state:${license}`;
/** Work handed to a license's round from outside it (a moderator's confirmation): merged into its state by the round. */
const inboxKey = (license: string) => `pay-inbox:${license}`;
const inboxSchema = z.record(z.string(), z.number());
/**
 * Transaction ids are compared whatever the case of their letters (a post can spell one in capitals):
 * written under the lower-case spelling; read under it first, then under the spelling as given and in
 * capitals, where versions before wrote the store's own spelling (read both, no migration: those
 * records end with their 100 days).
 */
const txKey = (shop: string, transactionId: string) => `pay-tx:${shop}:${transactionId}`;
const spellings = (transactionId: string) => [...new Set([transactionId.toLowerCase(), transactionId, transactionId.toUpperCase()])];

/** A posted id's record that says only that the store does not know it (nothing polled, matched or settled since). */
export const postedOnlyUnknown = (tx: TxState | undefined): boolean =>
  tx?.announced === true && tx.madeAt === undefined && tx.link === undefined && (tx.state === 'unknown' || (tx.state === 'seen' && tx.status === 'unknown'));

export const emptyWatchState = (): WatchState => ({ servers: {}, missing: {}, work: {} });

export class PaymentWatchStore {
  readonly index: PaymentWatchIndex;
  /** The ids the store's webhook posted, waiting for their questions (posted-ids.ts). */
  readonly posted: PostedIdStore;
  /** The posted ids the store did not know, counted to their bound (posted-seen.ts). */
  readonly #seen: PostedSeenIndex;

  /** `locks`: shared by every process on one Redis (src/coordination); this process's own otherwise. */
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    readonly locks: Locks = new KeyLock(),
  ) {
    this.index = new PaymentWatchIndex(keyv, logger, locks);
    this.posted = new PostedIdStore(keyv, logger, locks);
    this.#seen = new PostedSeenIndex(keyv, logger, HANDLED_TTL_MS, locks);
  }

  /** The licenses with open links or transactions to follow. */
  licenses(): Promise<string[]> {
    return this.index.licenses();
  }

  /** The open links of a license (ids: the links are their own records). */
  openLinks(license: string): Promise<OpenRef[]> {
    return this.index.openRefs(license);
  }

  async state(license: string): Promise<WatchState> {
    return parseRecord(watchStateSchema, await this.keyv.get(stateKey(license)), emptyWatchState, this.logger, stateKey(license));
  }

  /** Written by the license's one watcher at a time (runAlone), so without a lock; only when it changed. */
  async saveState(license: string, state: WatchState): Promise<void> {
    await this.keyv.set(stateKey(license), state);
  }

  async tx(shop: string, transactionId: string): Promise<TxState | undefined> {
    for (const spelling of spellings(transactionId)) {
      const stored: unknown = await this.keyv.get(txKey(shop, spelling));
      if (stored === undefined) continue;
      return parseRecord<TxState | undefined>(storedTxSchema, stored, () => undefined, this.logger, txKey(shop, spelling));
    }
    return undefined;
  }

  async saveTx(shop: string, transactionId: string, state: TxState): Promise<void> {
    await this.keyv.set(txKey(shop, transactionId.toLowerCase()), state, HANDLED_TTL_MS);
  }

  /**
   * Posted ids the store answered 404 about (their records just written), counted to the bound of
   * posted-seen.ts: the oldest past it are forgotten (their records deleted) while their records
   * still say only that. Returns how many were forgotten.
   */
  async rememberUnknownPosts(shop: string, entries: readonly { id: string; at: number }[], now: number): Promise<number> {
    return this.#seen.add(shop, entries.map(({ id, at }) => ({ id: id.toLowerCase(), at })), now, {
      postedUnknown: async (_shop, id) => postedOnlyUnknown(await this.tx(shop, id)),
      forget: (_shop, id) => this.keyv.delete(txKey(shop, id)).then(() => undefined),
    });
  }

  /** How many posted ids the store did not know are remembered for the shop now. */
  unknownPostsRemembered(shop: string): Promise<number> {
    return this.#seen.count(shop);
  }

  /**
   * Work for a license's round from outside it (the round alone writes the license's state): the
   * round merges it into its state and then clears what it took. Under a lock of its own, so two
   * confirmations never lose each other's entry.
   */
  async addWork(license: string, transactionId: string, at: number): Promise<void> {
    await this.locks.run(inboxKey(license), async () => {
      const inbox = await this.inbox(license);
      await this.keyv.set(inboxKey(license), { ...inbox, [transactionId]: Math.min(inbox[transactionId] ?? at, at) });
    });
    await this.index.enlist(license);
    await this.index.schedule(license, at, at);
  }

  async inbox(license: string): Promise<Record<string, number>> {
    return parseRecord(inboxSchema, await this.keyv.get(inboxKey(license)), () => ({}), this.logger, inboxKey(license));
  }

  /** Clears the entries a round took (and saved in the license's state). */
  async clearInbox(license: string, transactionIds: readonly string[]): Promise<void> {
    if (transactionIds.length === 0) return;
    await this.locks.run(inboxKey(license), async () => {
      const inbox = await this.inbox(license);
      for (const id of transactionIds) delete inbox[id];
      if (Object.keys(inbox).length > 0) await this.keyv.set(inboxKey(license), inbox);
      else await this.keyv.delete(inboxKey(license));
    });
  }
}
