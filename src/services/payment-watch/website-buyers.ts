import type { BuyerRow } from '../../spaceis/client.js';
import { nickKeyPart } from '../../storage/nick-uses.js';
import type { ServerPoll } from '../../storage/payment-watch.js';
import { isStorageError } from '../../storage/storage-error.js';
import type { LicenseRound } from './context.js';
import type { Placed } from './dates.js';
import { CLOCK_SKEW_MS, sameNick, WEBSITE_BUYER_DAYS, type MatchEvidence, type SeenTransaction } from './matcher.js';
import { txOf } from './tx-state.js';

/**
 * Issue 36, "a copycat gets nothing": a nick seen buying outside the bot is a website buyer's, and a
 * link with it never settles by itself (matcher.ts, `thinEvidence`). The round's only two hooks:
 * `noteWebsiteBuyers` after a server's rows were decided (polling.ts), `matchEvidence` before a
 * purchase is decided (settle.ts). Records: storage/website-buyers.ts, per shop and nick.
 *
 * What it costs, per server poll: a row counts only when it is new since the previous poll (its
 * time at or after that poll, less the allowed minute of clock skew, so a row may count in two
 * polls; on a server's first poll, any row of the last WEBSITE_BUYER_DAYS). Reads: one
 * transaction state per new row whose nick this round has not noted yet (at most ROWS_PER_POLL, one
 * or two a poll on a busy shop). Writes: one per nick of the new rows that matched no link, once per round
 * however many of the shop's servers list it (at most ROWS_PER_POLL per server; one or two a poll
 * on a busy shop). An idle shop (no new rows) costs nothing. Per decision: one read.
 */

const WEBSITE_BUYER_MS = WEBSITE_BUYER_DAYS * 86_400_000;

/**
 * Remembers the nicks of the server's new rows that matched no link: a row the bot never asked
 * about because no open link has its nick, or one it asked about and found nobody's (paid). A row
 * whose nick an open link has but that was not decided (the store was not asked this round) is left
 * alone: an honest member's purchase must never be taken for a website one. A storage failure here
 * is logged, never fatal to the round: the evidence is only missed, and the 2-hour rule still holds.
 */
export async function noteWebsiteBuyers(round: LicenseRound, rows: readonly BuyerRow[], placed: Placed, before: ServerPoll | undefined): Promise<void> {
  const store = round.deps.websiteBuyers;
  if (!store) return;
  const now = round.deps.clock.now();
  const since = before && before.polledAt > 0 ? before.polledAt - CLOCK_SKEW_MS : now - WEBSITE_BUYER_MS;
  // What this round noted already (a shop's servers share buyers: one write per nick and round, not per server).
  const noted = notedIn.get(round) ?? new Map<string, number>();
  notedIn.set(round, noted);
  const latest = new Map<string, { nick: string; at: number }>();
  try {
    for (const row of rows) {
      const at = placed.madeAt.get(row.transactionId) ?? 0;
      if (row.nick === undefined || at === 0 || at < since) continue;
      const key = nickKeyPart(row.nick.trim());
      if (Math.max(latest.get(key)?.at ?? -1, noted.get(key) ?? -1) >= at) continue;
      if (!(await outsideTheBot(round, row.transactionId, row.nick))) continue;
      latest.set(key, { nick: row.nick, at });
    }
    for (const [key, { nick, at }] of latest) {
      await store.note(round.shop, nick, at, at + WEBSITE_BUYER_MS - now);
      noted.set(key, at);
    }
  } catch (error) {
    if (!isStorageError(error)) throw error;
    round.log.warn({ storage: { operation: error.operation } }, 'payment watch: could not remember a website buyer’s nick; its links are judged without it');
  }
}

/** What each round noted, dropped with the round. */
const notedIn = new WeakMap<LicenseRound, Map<string, number>>();

/**
 * A row the bot decided is outside it only when found nobody's (paid): one that settled a link this
 * round is the link's, though the link has left the open ones since. A row never decided is outside
 * the bot when no open link has its nick (it was never a candidate); one an open link has but the
 * store was not asked about this round is left alone.
 */
async function outsideTheBot(round: LicenseRound, transactionId: string, nick: string): Promise<boolean> {
  const tx = await txOf(round, transactionId);
  if (tx) return tx.state === 'nobody' && tx.status === 'paid';
  return !round.open.some((link) => sameNick(link.nick, nick));
}

/** What is known about the purchase's nick for `decideMatch`. A storage failure is thrown: no decision on missing evidence. */
export async function matchEvidence(round: LicenseRound, transaction: SeenTransaction): Promise<MatchEvidence> {
  const store = round.deps.websiteBuyers;
  if (!store || transaction.nick === undefined) return {};
  return { websiteBuyerAt: await store.lastSeen(round.shop, transaction.nick) };
}
