import type { TransactionInfo } from '../../spaceis/client.js';
import { isStoreError } from '../../spaceis/errors.js';
import { PAYMENT_WATCH_LANE } from '../../spaceis/gate-rules.js';
import type { TxState, WatchState } from '../../storage/payment-watch.js';
import type { LicenseRound, WatchDeps } from './context.js';
import { placeRows, readDate } from './dates.js';
import { ROWS_PER_POLL } from './schedule.js';
import { transition, workOf } from './machine.js';
import { applyTx } from './tx-state.js';

/**
 * The transaction ids the store's webhook posted (docs/store-webhook.md), as the license's round takes
 * them from their queue (storage/posted-ids.ts, where the budgets are) and places them in time.
 *
 * A post is news, never evidence of when: whoever holds the webhook's URL can post an old purchase's
 * id. So a posted purchase is placed by the store's own evidence only: a date in its transaction/info
 * answer (createdAt or similar, read leniently), else its row in the server's latest purchases (read
 * at once, as part of the same question: a second request), else it is undated, as polling counts an
 * undated row: made before any link, so it settles no link issued before it was posted.
 */

/** Ids taken this round; their state and work are written before the queue forgets them. */
export async function takePosted(deps: WatchDeps, license: string, shop: string, state: WatchState, save: () => Promise<void>): Promise<void> {
  const now = deps.clock.now();
  const { taken, nextAt } = await deps.store.posted.take(license, now);
  if (nextAt === undefined) delete state.postedDue;
  else state.postedDue = nextAt;
  const fresh: { id: string; record: TxState }[] = [];
  for (const entry of taken) {
    const tx = (await deps.store.tx(shop, entry.id)) ?? (shop === license ? undefined : await deps.store.tx(license, entry.id));
    // Followed: due at once (the post says it moved on). Set aside (settled, nobody's, staff's): nothing to ask. New: seen, announced.
    const { record, effects } = transition(tx, { kind: 'posted', guildId: entry.guildId, postedAt: entry.at }, now, deps);
    const work = workOf(effects);
    if (work && work !== 'drop') state.work[entry.id] = work.at;
    if (record && record !== tx) fresh.push({ id: entry.id, record });
  }
  // The work entries first (a hint: one whose transaction has no record is dropped), then each record.
  if (taken.length > 0) await save();
  for (const { id, record } of fresh) await deps.store.saveTx(shop, id, record);
}

/** A posted transaction's own record says it was not placed yet (a post named it; no poll listed it with a place). */
export { unplacedPost } from './machine.js';

/**
 * When a posted purchase was made, by the store's evidence: its answer's date, else its row in the
 * latest purchases of the server of its first item (dated, or new since that server's last poll);
 * undefined when neither says (or the list could not be read: the next question tries again).
 */
export async function placePosted(round: LicenseRound, transactionId: string, info: TransactionInfo): Promise<number | undefined> {
  const now = round.deps.clock.now();
  const dated = readDate(info.date, now);
  if (dated !== undefined) return dated;
  const serverId = info.items?.find((item) => item.serverId)?.serverId;
  if (!serverId || !(await round.deps.quiet(round.access, round.license))) return undefined;
  try {
    const answer = await round.access.client.latestBuyers(serverId, ROWS_PER_POLL, { lane: PAYMENT_WATCH_LANE });
    if (answer.kind !== 'ok') return undefined;
    const rows = answer.value.slice(0, ROWS_PER_POLL);
    const placed = placeRows(round, rows, round.state.servers[serverId], now);
    const row = rows.find((candidate) => candidate.transactionId.toLowerCase() === transactionId.toLowerCase());
    return row ? placed.madeAt.get(row.transactionId) : undefined;
  } catch (error) {
    if (!isStoreError(error)) throw error;
    round.log.debug({ kind: error.kind, status: error.status }, 'payment watch: latest buyers (to place a posted purchase) skipped this round');
    return undefined;
  }
}

/**
 * A posted id the store answered 404 about: asked no more (a forged or mistyped id), yet a poll that
 * lists it still examines it. Remembered, so a repost costs no question, among at most SEEN_BOUND
 * such ids per shop (storage/posted-seen.ts: the oldest are forgotten past it).
 */
export async function postedUnknown(round: LicenseRound, transactionId: string, tx: TxState): Promise<void> {
  const now = round.deps.clock.now();
  round.log.debug({ transaction: transactionId }, 'payment watch: the store does not know a transaction its webhook post named; asked no more (a poll that lists it examines it)');
  await applyTx(round, transactionId, tx, { kind: 'unknown' });
  const forgotten = await round.deps.store.rememberUnknownPosts(round.shop, [{ id: transactionId, at: now }], now);
  if (forgotten > 0) round.log.debug({ forgotten }, 'payment watch: the oldest posted ids the store does not know were forgotten (their bound)');
}

