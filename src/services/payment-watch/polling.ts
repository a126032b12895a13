import type { BuyerRow, TransactionInfo } from '../../spaceis/client.js';
import { isStoreError } from '../../spaceis/errors.js';
import { PAYMENT_WATCH_LANE } from '../../spaceis/gate-rules.js';
import { transactionAmounts, transactionItems } from '../../spaceis/payment-schemas.js';
import type { LicenseRound } from './context.js';
import { placeRows, readDate, type Placed } from './dates.js';
import { CLOCK_SKEW_MS, sameNick, type SeenTransaction } from './matcher.js';
import { BUSY_PAGE_ROWS, MAX_TRANSACTION_ID, ROWS_PER_POLL, RUSH_ROWS_PER_POLL, TICK_MS, UNSUPPORTED_RETRY_MS } from './schedule.js';
import { decideAndSettle } from './settle.js';
import type { TxState } from '../../storage/payment-watch.js';
import { applyTx, txOf } from './tx-state.js';
import { noteWebsiteBuyers } from './website-buyers.js';

/**
 * The store's side of a round: one server's latest buyers, the transactions among them an open
 * link may have made, and transaction/info about each. Every request goes through the license's
 * gate once it is quiet (WatchDeps.quiet), in the payment watcher's lane.
 */

type InfoAnswer = { kind: 'ok'; info: TransactionInfo } | { kind: 'unknown' } | { kind: 'skipped' };

/** One server's latest buyers, and the purchases among them an open link may have made. */
export async function pollServer(round: LicenseRound, serverId: string, intervalMs: number): Promise<void> {
  const { deps, state, log } = round;
  const before = state.servers[serverId];
  if (!(await deps.quiet(round.access, round.license))) return;
  const askedAt = deps.clock.now();
  let rows: BuyerRow[];
  try {
    const answer = await round.access.client.latestBuyers(serverId, ROWS_PER_POLL, { lane: PAYMENT_WATCH_LANE });
    if (answer.kind === 'not-supported') return serverMissing(round, serverId, answer.message);
    rows = answer.value.slice(0, ROWS_PER_POLL);
  } catch (error) {
    skipped(round, 'latest buyers', error);
    return;
  }
  delete state.missing[serverId];
  const placed = placeRows(round, rows, before, askedAt);
  if (placed.hoursAhead !== undefined && !state.hoursOffWarned) {
    state.hoursOffWarned = true;
    log.warn({ server: serverId, hoursAhead: placed.hoursAhead }, 'payment watch: the store dates purchases a whole number of hours ahead of now: its times are not Warsaw time; such rows count as undated (see docs/spaceis-api.md, Payments)');
  }
  // The pace of new purchases since the last poll: while a poll interval would bring BUSY_PAGE_ROWS or
  // more, the next poll comes when RUSH_ROWS_PER_POLL are expected (at least a tick away: a rush may
  // still speed up), so a page never fills between two polls. A calm server keeps its interval, and so
  // does one read by the store webhook's safety net (its posts bring each purchase: health.ts).
  // The safety net's cadence rushes too when this page overflowed or the last poll was a rush: the
  // posts fell behind (a queue of posted ids keeps the cadence at pollMs: license-round.ts).
  const fresh = newSince(rows, before?.newest);
  const since = before && before.polledAt > 0 ? askedAt - before.polledAt : 0;
  const overflowed = before?.newest !== undefined && rows.length >= ROWS_PER_POLL && !rows.some((row) => row.transactionId === before.newest);
  const rushing = before !== undefined && before.polledAt > 0 && before.nextAt - before.polledAt < deps.pollMs;
  const perMs = fresh !== undefined && since > 0 && (intervalMs <= deps.pollMs || overflowed || rushing) ? fresh / since : 0;
  const nextInMs = perMs * intervalMs >= BUSY_PAGE_ROWS ? Math.max(TICK_MS, Math.min(intervalMs, RUSH_ROWS_PER_POLL / perMs)) : intervalMs;
  if (overflowed) log.info({ server: serverId }, 'payment watch: a whole page of purchases new since the last poll: some may have been pushed out of sight; polling this server more often while it is this busy');
  state.servers[serverId] = {
    polledAt: askedAt,
    nextAt: askedAt + nextInMs,
    ...(placed.dateless ? { dateless: placed.dateless } : {}),
    // '' for an empty page: every row of the next one is new.
    newest: rows[0]?.transactionId ?? '',
  };
  round.polled.push({ serverId, rows, madeAt: placed.madeAt });
  for (const candidate of await candidates(round, rows, placed)) {
    if (deps.stopping() || state.unsupported) return;
    // Under the transaction's lock in its shop: a rotated key's round (another license of the same
    // shop) may have it at the same moment; whichever comes second finds it decided.
    await deps.store.locks.run(`pay-decide:${round.shop}:${candidate.id.toLowerCase()}`, async () => {
      const tx = await txOf(round, candidate.id);
      if (unexamined(tx)) await examine(round, candidate, tx);
    });
  }
  await noteWebsiteBuyers(round, rows, placed, before);
  log.debug({ server: serverId, rows: rows.length }, 'payment watch: server polled');
}

/**
 * How many transactions the page lists above the one that was newest at the server's last poll
 * (the store lists newest first); all of them when it is gone from the page. Undefined for a
 * server's first poll: nothing to count from.
 */
function newSince(rows: readonly BuyerRow[], newest: string | undefined): number | undefined {
  if (newest === undefined) return undefined;
  const seen = new Set<string>();
  for (const row of rows) {
    if (row.transactionId === newest) return seen.size;
    seen.add(row.transactionId);
  }
  return seen.size;
}

interface Candidate {
  id: string;
  nick: string | undefined;
  madeAt: number;
  dated: boolean;
}

/**
 * Transactions worth one transaction/info each: by the nick of an open link (or with no nick
 * listed), made late enough to have paid it, and never seen before. A cart purchase listed as one
 * row per item is one transaction. An id too long to be the store's is refused here, before it
 * names a storage key.
 */
async function candidates(round: LicenseRound, rows: BuyerRow[], placed: Placed): Promise<Candidate[]> {
  const found = new Map<string, Candidate>();
  for (const row of rows) {
    if (found.has(row.transactionId)) continue;
    if (row.transactionId.length > MAX_TRANSACTION_ID || row.transactionId.length === 0) {
      round.log.warn({ length: row.transactionId.length }, 'payment watch: the store listed a transaction id too long to be one; ignored');
      continue;
    }
    const made = placed.madeAt.get(row.transactionId) ?? 0;
    const links = round.open.filter((link) => row.nick === undefined || sameNick(link.nick, row.nick));
    // Too old for every link it could be: not worth a request.
    if (!links.some((link) => link.createdAt <= made + CLOCK_SKEW_MS)) continue;
    found.set(row.transactionId, { id: row.transactionId, nick: row.nick, madeAt: made, dated: placed.dated.has(row.transactionId) });
  }
  const fresh: Candidate[] = [];
  for (const candidate of found.values()) if (unexamined(await txOf(round, candidate.id))) fresh.push(candidate);
  // Oldest first: of two identical purchases, the earlier one pays the earlier link.
  return fresh.sort((a, b) => a.madeAt - b.madeAt);
}

/**
 * A transaction a poll examines: one never seen, or one only a post named that the store could not
 * place in time yet (it answered 404, or gave no date and did not list it): the poll's row places it.
 */
function unexamined(tx: TxState | undefined): boolean {
  return !tx || (tx.state === 'seen' && tx.announced === true && tx.madeAt === undefined);
}

/** Asks the store about a transaction seen for the first time, and decides it. */
async function examine(round: LicenseRound, candidate: Candidate, previous: TxState | undefined): Promise<void> {
  const answer = await askInfo(round, candidate.id);
  if (answer.kind === 'skipped') return;
  if (answer.kind === 'unknown') {
    // Unknown to the store for now (a listing ahead of its details?): asked again on the follow-up schedule.
    // Followed on its own schedule, against the links it could have paid whether or not they stay open.
    const links = round.open.filter((link) => (candidate.nick === undefined || sameNick(link.nick, candidate.nick)) && link.createdAt <= candidate.madeAt + CLOCK_SKEW_MS);
    const refs = links.map(({ guildId, linkId }) => ({ guildId, linkId }));
    await applyTx(round, candidate.id, previous, { kind: 'listed', madeAt: candidate.madeAt, candidates: refs, ...(candidate.nick ? { nick: candidate.nick } : {}) });
    return;
  }
  await decideAndSettle(round, seenOf(candidate.id, answer.info, candidate.nick, candidate.dated ? candidate.madeAt : undefined, candidate.madeAt, round.deps.clock.now()), answer.info.status, undefined);
}

/** The transaction as the matcher sees it: the row's date when it had one, else the details', else when the watcher placed it. */
export function seenOf(id: string, info: TransactionInfo, nick: string | undefined, dated: number | undefined, placed: number, now: number): SeenTransaction {
  const fromInfo = readDate(info.date, now);
  const amounts = transactionAmounts(info);
  return { id, nick: info.nick ?? nick, items: transactionItems(info), madeAt: dated ?? fromInfo ?? placed, ...(amounts ? { amounts } : {}) };
}

/** transaction/info after the gate is quiet. */
export async function askInfo(round: LicenseRound, transactionId: string): Promise<InfoAnswer> {
  if (!(await round.deps.quiet(round.access, round.license))) return { kind: 'skipped' };
  try {
    const answer = await round.access.client.transactionInfo(transactionId, { lane: PAYMENT_WATCH_LANE });
    if (answer.kind === 'ok') return { kind: 'ok', info: answer.value };
    round.log.info({ transaction: transactionId }, 'payment watch: the store does not know this transaction (404); asked again later');
    return { kind: 'unknown' };
  } catch (error) {
    skipped(round, 'transaction info', error);
    return { kind: 'skipped' };
  }
}

/**
 * latest_buyers answered 404 for one server (deleted at the store, say): that server is skipped for
 * a while and listed in /shop-admin status. Only when every server polled answers so is the route
 * itself missing: following payments is then off for the license for a while.
 */
function serverMissing(round: LicenseRound, serverId: string, message: string | undefined): void {
  const now = round.deps.clock.now();
  const { state } = round;
  state.missing[serverId] = { since: state.missing[serverId]?.since ?? now, retryAt: now + UNSUPPORTED_RETRY_MS };
  state.servers[serverId] = { ...(state.servers[serverId] ?? { polledAt: 0 }), nextAt: now + UNSUPPORTED_RETRY_MS };
  round.log.warn({ server: serverId }, 'payment watch: the store answered 404 for this server’s latest buyers; skipped for now');
  const watched = Object.keys(state.servers);
  if (watched.length > 0 && watched.every((id) => state.missing[id])) {
    state.unsupported = { since: now, retryAt: now + UNSUPPORTED_RETRY_MS, ...(message ? { message: message.slice(0, 200) } : {}) };
    round.log.warn({ retryInMinutes: UNSUPPORTED_RETRY_MS / 60_000 }, 'payment watch: every server answered 404 to latest buyers; following payments is off for this license for now');
  }
}

function skipped(round: LicenseRound, what: string, error: unknown): void {
  if (!isStoreError(error)) throw error;
  // The gate refused (paused after a 429, breaker open, queue full) or the store failed: next round.
  round.log.debug({ kind: error.kind, status: error.status }, `payment watch: ${what} skipped this round`);
}
