import type { Clock } from '../../clock.js';
import { DEMO_LICENSE } from '../../demo/license.js';
import type { Logger } from '../../logger.js';
import type { BuyerRow, TransactionInfo } from '../../spaceis/client.js';
import { isStoreError } from '../../spaceis/errors.js';
import { PAYMENT_WATCH_LANE } from '../../spaceis/gate-rules.js';
import { placeRows, readDate, type RowTimes } from '../../spaceis/purchase-date.js';
import type { GuildSettingsRepository } from '../../storage/guild-settings.js';
import { nickKeyPart } from '../../storage/nick-uses.js';
import type { PaymentLink, PaymentLinkRepository } from '../../storage/payment-links.js';
import type { ShopLicenses } from '../../storage/shop-licenses.js';
import type { OpenRef, PaymentWatchStore, ServerPoll, TxState } from '../../storage/payment-watch.js';
import type { WebsiteBuyerStore } from '../../storage/website-buyers.js';
import { linkExpiresAt } from '../link-state.js';
import type { ShopAccess } from '../store-directory.js';
import type { TxEvent } from './machine.js';
import { CLOCK_SKEW_MS, HISTORY_MS, sameNick, soleCandidate, WEBSITE_BUYER_DAYS, type MatchEvidence, type SeenTransaction, type WatchedLink } from './matcher.js';

/**
 * Sensing: what the store and the bot's own records say, turned into facts and the table's events.
 * Nothing here writes: the ledger (ledger.ts) applies what this returns. Every store request waits
 * for the license's gate to be quiet (`quiet`), in the payment watcher's lane, and a refused or
 * failed one is skipped (the next round asks again).
 */

/** How often the production timer runs a round; the floor of a rushed server's next poll. */
export const TICK_MS = 5_000;
/** Rows of latest_buyers read per poll (the endpoint's own maximum). */
export const ROWS_PER_POLL = 30;
/**
 * A rush: a server whose pace would bring BUSY_PAGE_ROWS new purchases in an interval is read again when
 * RUSH_ROWS_PER_POLL are expected, so a sale never pushes purchases off the store's 30-row page (the
 * bench: 32 of 100 links paid within a minute were never seen at 30 s).
 */
export const BUSY_PAGE_ROWS = ROWS_PER_POLL / 2;
export const RUSH_ROWS_PER_POLL = ROWS_PER_POLL / 6;
/** A 404 from the payment endpoints: that server (or, when all answer so, the license) is skipped this long. */
export const UNSUPPORTED_RETRY_MS = 6 * 3_600_000;
/** Longer transaction ids are refused before they name a storage key. */
export const MAX_TRANSACTION_ID = 64;
/** A link is watched this long past its lifetime (a payment in its last seconds is listed a poll later); a poll after `baselineAfterMs` looks afresh. */
export const watchGraceMs = (pollMs: number): number => 2 * pollMs + CLOCK_SKEW_MS;
export const baselineAfterMs = (pollMs: number): number => Math.max(10 * 60_000, 3 * pollMs);

/** What reading needs: the records and the store, read only. */
export interface SenseDeps {
  store: Pick<PaymentWatchStore, 'openLinks'>;
  /** `listForMemberSince`: a member's recent links, for the signs of a copycat; without it none are read. */
  links: Pick<PaymentLinkRepository, 'get' | 'getEach'> & Partial<Pick<PaymentLinkRepository, 'listForMemberSince'>>;
  settings: Pick<GuildSettingsRepository, 'get'>;
  websiteBuyers?: Pick<WebsiteBuyerStore, 'lastSeen'>;
  shopLicenses: Pick<ShopLicenses, 'others'>;
  clock: Clock;
  pollMs: number;
  /** Resolves true when the license's gate would take a background request now (false: skip it this round). */
  quiet(shop: ShopAccess, license: string): Promise<boolean>;
}

/** One license as a round reads it: its store, the shop key its transactions are kept under, its log. */
export interface Reader {
  deps: SenseDeps;
  license: string;
  shop: string;
  access: ShopAccess;
  log: Logger;
}

/** An open link as the watcher matches it: its record's fields, and until when it is watched. */
export interface OpenLink extends WatchedLink {
  userId: string;
  serverIds: string[];
  until: number;
  record: PaymentLink;
}

/** Whether a link is watched at all: the demo shop's are never paid, and matching needs every item's server. */
export const watchable = (link: PaymentLink): boolean => link.license !== DEMO_LICENSE && link.items.length > 0 && link.items.every((item) => item.serverId !== undefined);

/**
 * The license's open links, from the links' own records (one statement per hundred): `closed` leave the
 * index (settled, withdrawn, past their lifetime); `expired` ended with only a failed attempt, to settle with it.
 */
export async function readOpenLinks(deps: SenseDeps, license: string, now: number): Promise<{ open: OpenLink[]; closed: OpenRef[]; expired: PaymentLink[] }> {
  const read = { open: [] as OpenLink[], closed: [] as OpenRef[], expired: [] as PaymentLink[] };
  const lifetimes = new Map<string, number>();
  const refs = await deps.store.openLinks(license);
  const records = await deps.links.getEach(refs);
  for (const [index, ref] of refs.entries()) {
    const record = records[index];
    if (!record || record.revoked || record.payment?.settledAt !== undefined || !watchable(record)) {
      read.closed.push(ref);
      continue;
    }
    let lifetime = lifetimes.get(ref.guildId);
    if (lifetime === undefined) lifetimes.set(ref.guildId, (lifetime = (await deps.settings.get(ref.guildId)).linkLifetimeHours));
    const until = linkExpiresAt(record, lifetime) + watchGraceMs(deps.pollMs);
    if (now < until) read.open.push(openLinkOf(record, until));
    else {
      read.closed.push(ref);
      // A pending payment is still followed (its transaction's work); only a failed attempt settles here.
      if (record.attempt && record.payment === undefined) read.expired.push(record);
    }
  }
  return read;
}

export function openLinkOf(record: PaymentLink, until: number): OpenLink {
  const { guildId, id: linkId, userId, nick, createdAt } = record;
  const items = record.items.map(({ variantId, quantity }) => ({ variantId, quantity }));
  return { guildId, linkId, userId, nick, createdAt, items, serverIds: [...new Set(record.items.flatMap((item) => (item.serverId ? [item.serverId] : [])))], until, record };
}

/** The servers the open links buy from, each once, in a stable order. */
export const serversOf = (open: readonly OpenLink[]): string[] => [...new Set(open.flatMap((link) => link.serverIds))].sort();

/** A server's latest buyers: skipped (gate, store), missing (404), or read, with its rows placed and when to read it next. */
export type ServerReading =
  | { kind: 'skipped' }
  | { kind: 'missing'; message: string | undefined }
  | { kind: 'read'; rows: BuyerRow[]; times: RowTimes; poll: ServerPoll };

/**
 * One server's latest buyers, and its next poll: an interval away, or sooner in a rush. The safety net's
 * longer interval rushes only once a page overflowed or the last poll rushed (the posts fell behind).
 */
export async function readServer(r: Reader, serverId: string, before: ServerPoll | undefined, intervalMs: number): Promise<ServerReading> {
  const { deps, log } = r;
  if (!(await deps.quiet(r.access, r.license))) return { kind: 'skipped' };
  const askedAt = deps.clock.now();
  let rows: BuyerRow[];
  try {
    const answer = await r.access.client.latestBuyers(serverId, ROWS_PER_POLL, { lane: PAYMENT_WATCH_LANE });
    if (answer.kind === 'not-supported') return { kind: 'missing', message: answer.message };
    rows = answer.value.slice(0, ROWS_PER_POLL);
  } catch (error) {
    return skipped(r, 'latest buyers', error);
  }
  const times = placeRows(rows, before, askedAt, deps.pollMs, baselineAfterMs(deps.pollMs));
  const fresh = newSince(rows, before?.newest);
  const since = before && before.polledAt > 0 ? askedAt - before.polledAt : 0;
  const overflowed = before?.newest !== undefined && rows.length >= ROWS_PER_POLL && !rows.some((row) => row.transactionId === before.newest);
  const rushing = before !== undefined && before.polledAt > 0 && before.nextAt - before.polledAt < deps.pollMs;
  const perMs = fresh !== undefined && since > 0 && (intervalMs <= deps.pollMs || overflowed || rushing) ? fresh / since : 0;
  const nextInMs = perMs * intervalMs >= BUSY_PAGE_ROWS ? Math.max(TICK_MS, Math.min(intervalMs, RUSH_ROWS_PER_POLL / perMs)) : intervalMs;
  if (overflowed) log.info({ server: serverId }, 'payment watch: a whole page of purchases new since the last poll: some may have been pushed out of sight; polling this server more often while it is this busy');
  // '' for an empty page: every row of the next one is new.
  const poll = { polledAt: askedAt, nextAt: askedAt + nextInMs, ...(times.dateless ? { dateless: times.dateless } : {}), newest: rows[0]?.transactionId ?? '' };
  return { kind: 'read', rows, times, poll };
}

/** Rows above the one newest at the last poll (newest first); all when it is gone; undefined at a first poll. */
function newSince(rows: readonly BuyerRow[], newest: string | undefined): number | undefined {
  if (newest === undefined) return undefined;
  const seen = new Set<string>();
  for (const row of rows) {
    if (row.transactionId === newest) return seen.size;
    seen.add(row.transactionId);
  }
  return seen.size;
}

export interface Candidate {
  id: string;
  nick: string | undefined;
  madeAt: number;
  dated: boolean;
}

/**
 * Rows worth a transaction/info: by an open link's nick (or none listed), made late enough to have paid
 * it; oldest first (the earlier purchase pays the earlier link); an id too long is refused before it names a key.
 */
export function candidatesIn(r: Reader, rows: readonly BuyerRow[], times: RowTimes, open: readonly OpenLink[]): Candidate[] {
  const found = new Map<string, Candidate>();
  for (const row of rows) {
    if (found.has(row.transactionId)) continue;
    if (row.transactionId.length > MAX_TRANSACTION_ID || row.transactionId.length === 0) {
      r.log.warn({ length: row.transactionId.length }, 'payment watch: the store listed a transaction id too long to be one; ignored');
      continue;
    }
    const made = times.madeAt.get(row.transactionId) ?? 0;
    if (!open.some((link) => (row.nick === undefined || sameNick(link.nick, row.nick)) && link.createdAt <= made + CLOCK_SKEW_MS)) continue;
    found.set(row.transactionId, { id: row.transactionId, nick: row.nick, madeAt: made, dated: times.dated.has(row.transactionId) });
  }
  return [...found.values()].sort((a, b) => a.madeAt - b.madeAt);
}

/** A listed transaction the store's details do not know yet: followed against the links it could have paid. */
export function listedOf(candidate: Candidate, open: readonly OpenLink[]): TxEvent {
  const links = open.filter((link) => (candidate.nick === undefined || sameNick(link.nick, candidate.nick)) && link.createdAt <= candidate.madeAt + CLOCK_SKEW_MS);
  return { kind: 'listed', madeAt: candidate.madeAt, candidates: links.map(({ guildId, linkId }) => ({ guildId, linkId })), ...(candidate.nick ? { nick: candidate.nick } : {}) };
}

export type InfoAnswer = { kind: 'ok'; info: TransactionInfo } | { kind: 'unknown' } | { kind: 'skipped' };

export async function askInfo(r: Reader, transactionId: string): Promise<InfoAnswer> {
  if (!(await r.deps.quiet(r.access, r.license))) return { kind: 'skipped' };
  try {
    const answer = await r.access.client.transactionInfo(transactionId, { lane: PAYMENT_WATCH_LANE });
    if (answer.kind === 'ok') return { kind: 'ok', info: answer.value };
    r.log.info({ transaction: transactionId }, 'payment watch: the store does not know this transaction (404); asked again later');
    return { kind: 'unknown' };
  } catch (error) {
    return skipped(r, 'transaction info', error);
  }
}

/**
 * When a posted purchase was made, by the store's evidence only (a post is news, never a date): its
 * answer's date, else its row in its first item's server's latest purchases; undefined when neither says.
 */
export async function placePosted(r: Reader, transactionId: string, info: TransactionInfo, servers: Readonly<Record<string, ServerPoll>>): Promise<number | undefined> {
  const now = r.deps.clock.now();
  const dated = readDate(info.date, now);
  const serverId = info.items?.find((item) => item.serverId)?.serverId;
  if (dated !== undefined || !serverId || !(await r.deps.quiet(r.access, r.license))) return dated;
  try {
    const answer = await r.access.client.latestBuyers(serverId, ROWS_PER_POLL, { lane: PAYMENT_WATCH_LANE });
    if (answer.kind !== 'ok') return undefined;
    const rows = answer.value.slice(0, ROWS_PER_POLL);
    const row = rows.find((candidate) => candidate.transactionId.toLowerCase() === transactionId.toLowerCase());
    return row ? placeRows(rows, servers[serverId], now, r.deps.pollMs, baselineAfterMs(r.deps.pollMs)).madeAt.get(row.transactionId) : undefined;
  } catch (error) {
    skipped(r, 'latest buyers (to place a posted purchase)', error);
    return undefined;
  }
}

/**
 * What a decision weighs beyond the open links: the shop's other keys' open links, the links it was followed
 * for (even closed: a payment under way when they ended still pays one), the nick's website purchases and
 * the member's recent links. A storage failure throws: no decision on missing evidence.
 */
export async function gather(r: Reader, transaction: SeenTransaction, previous: TxState | undefined, open: readonly OpenLink[]): Promise<{ mates: OpenLink[]; evidence: MatchEvidence }> {
  const { deps } = r;
  const mates: OpenLink[] = [];
  if (r.shop !== r.license) for (const license of await deps.shopLicenses.others(r.shop, r.license)) mates.push(...(await readOpenLinks(deps, license, deps.clock.now())).open);
  const refs = [...(previous?.state === 'matched' && previous.link ? [previous.link] : []), ...(previous?.state === 'seen' ? (previous.candidates ?? []) : [])];
  for (const ref of refs) {
    if (open.some((link) => link.guildId === ref.guildId && link.linkId === ref.linkId)) continue;
    const record = await deps.links.get(ref.guildId, ref.linkId);
    if (!record || record.revoked || record.payment?.settledAt !== undefined || (record.payment && record.payment.transactionId !== transaction.id)) continue;
    mates.push(openLinkOf(record, Number.POSITIVE_INFINITY));
  }
  // The member's links for the nick in the day before it: a copycat keeps a fresh link waiting (at most 60 read).
  const member = deps.links.listForMemberSince ? soleCandidate(transaction, [...open, ...mates], CLOCK_SKEW_MS) : undefined;
  const recent = member ? await deps.links.listForMemberSince!(member.guildId, member.userId, transaction.madeAt - HISTORY_MS, 60) : [];
  const memberLinks = member ? { userId: member.userId, links: recent.map((past) => ({ linkId: past.id, nick: past.nick, items: past.items, createdAt: past.createdAt, paid: past.payment?.status === 'paid' })) } : undefined;
  const websiteBuyerAt = deps.websiteBuyers && transaction.nick !== undefined ? await deps.websiteBuyers.lastSeen(r.shop, transaction.nick) : undefined;
  return { mates, evidence: deps.websiteBuyers && transaction.nick !== undefined ? { websiteBuyerAt, memberLinks } : { memberLinks } };
}

/**
 * Website buyers among a server's new rows (a nick seen buying outside the bot settles no link by itself):
 * rows no open link could have been paid by (none has the nick, or each came later), or decided nobody's
 * and paid; one an open link could have paid, not decided yet, is left alone. `notedAt`: noted this round.
 */
export async function websiteBuyersIn(r: Reader, rows: readonly BuyerRow[], times: RowTimes, before: ServerPoll | undefined, open: readonly OpenLink[], txOf: (id: string) => Promise<TxState | undefined>, notedAt: (nick: string) => number): Promise<{ nick: string; at: number }[]> {
  const since = before && before.polledAt > 0 ? before.polledAt - CLOCK_SKEW_MS : r.deps.clock.now() - WEBSITE_BUYER_DAYS * 86_400_000;
  const latest = new Map<string, { nick: string; at: number }>();
  for (const row of rows) {
    const at = times.madeAt.get(row.transactionId) ?? 0;
    if (row.nick === undefined || at === 0 || at < since) continue;
    const key = nickKeyPart(row.nick.trim());
    if (Math.max(latest.get(key)?.at ?? -1, notedAt(row.nick)) >= at) continue;
    const tx = await txOf(row.transactionId);
    const outside = tx ? tx.state === 'nobody' && tx.status === 'paid' : !open.some((link) => sameNick(link.nick, row.nick!) && link.createdAt <= at + CLOCK_SKEW_MS);
    if (outside) latest.set(key, { nick: row.nick, at });
  }
  return [...latest.values()];
}

function skipped(r: Reader, what: string, error: unknown): { kind: 'skipped' } {
  if (!isStoreError(error)) throw error;
  // The gate refused (paused after a 429, breaker open, queue full) or the store failed: next round.
  r.log.debug({ kind: error.kind, status: error.status }, `payment watch: ${what} skipped this round`);
  return { kind: 'skipped' };
}
