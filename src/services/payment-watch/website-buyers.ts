import type { BuyerRow } from '../../spaceis/client.js';
import { nickKeyPart } from '../../storage/nick-uses.js';
import type { ServerPoll } from '../../storage/payment-watch.js';
import type { WebsiteBuyerStore } from '../../storage/website-buyers.js';
import { isStorageError } from '../../storage/storage-error.js';
import type { LicenseRound, OpenLink } from './context.js';
import type { Placed } from './dates.js';
import { CLOCK_SKEW_MS, sameNick, WEBSITE_BUYER_DAYS, type MatchEvidence, type SeenTransaction } from './matcher.js';
import { memberHistory } from './member-history.js';
import { txOf } from './tx-state.js';

/**
 * A copycat gets nothing: a nick seen buying outside the bot is a website buyer's, and a
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
 * on a busy shop). An idle shop (no new rows) costs nothing. Per decision: one read; a paid purchase
 * decided as nobody's: one read and at most one write (once per round and nick).
 */

const WEBSITE_BUYER_MS = WEBSITE_BUYER_DAYS * 86_400_000;

/**
 * Remembers the nicks of the server's new rows that matched no link: a row the bot never asked
 * about because no open link could have been paid by it (no open link has its nick, or every one
 * that has it was issued after the row was made: a copycat's fresh link must not hide the player's
 * earlier website purchases), or one it asked about and found nobody's (paid). A row an open link
 * could have been paid by but that was not decided (the store was not asked this round) is left
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
      if (!(await outsideTheBot(round, row.transactionId, row.nick, at))) continue;
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
 * the bot when no open link could have been paid by it: none has its nick, or each that has it was
 * issued after the row was made (allowing the clock skew, as `couldPay` does). One an open link
 * could have been paid by, but the store was not asked about this round, is left alone.
 */
async function outsideTheBot(round: LicenseRound, transactionId: string, nick: string, madeAt: number): Promise<boolean> {
  const tx = await txOf(round, transactionId);
  if (tx) return tx.state === 'nobody' && tx.status === 'paid';
  return !round.open.some((link) => sameNick(link.nick, nick) && link.createdAt <= madeAt + CLOCK_SKEW_MS);
}

/**
 * A purchase the store confirmed as paid that paid no link of the bot's (settle.ts, whatever told
 * the bot of it: a poll, the store webhook's post): its nick is a website buyer's from `madeAt` on.
 * A posted purchase the store did not place in time (`madeAt` 0: undated, as when no link was open
 * to place it for) was made at the latest when it was posted (`postedAt`): its nick counts from
 * then, unless an open link issued before the post has the nick (that member's purchase, perhaps,
 * which the bot could not tell: a website buyer's mark would send their next ones to staff too).
 * Noted once per round and nick; a storage failure is logged, never fatal (the evidence is only missed).
 */
export async function noteDecidedWebsiteBuyer(round: LicenseRound, nick: string | undefined, placedAt: number, postedAt?: number): Promise<void> {
  const store = round.deps.websiteBuyers;
  if (!store || nick === undefined) return;
  const madeAt = placedAt > 0 ? placedAt : postedAt !== undefined && !round.open.some((link) => sameNick(link.nick, nick) && link.createdAt <= postedAt + CLOCK_SKEW_MS) ? postedAt : 0;
  if (madeAt <= 0) return;
  const noted = notedIn.get(round) ?? new Map<string, number>();
  notedIn.set(round, noted);
  const key = nickKeyPart(nick.trim());
  if ((noted.get(key) ?? -1) >= madeAt) return;
  try {
    await noteWebsiteBuyer(store, round.shop, nick, madeAt, round.deps.clock.now());
    noted.set(key, madeAt);
  } catch (error) {
    if (!isStorageError(error)) throw error;
    round.log.warn({ storage: { operation: error.operation } }, 'payment watch: could not remember a website buyer’s nick; its links are judged without it');
  }
}

/**
 * The one write that makes a nick a website buyer's in a shop (`shop`: the shop's key,
 * StoreDirectory.shopKey), for any path that learns of a paid purchase no link of the bot's paid,
 * outside a round too (the store webhook's post read while the license has no open link, say).
 * The newest time wins only if it is newer; a time older than WEBSITE_BUYER_DAYS is not written.
 */
async function noteWebsiteBuyer(store: Pick<WebsiteBuyerStore, 'note' | 'lastSeen'>, shop: string, nick: string, madeAt: number, now: number): Promise<void> {
  if (((await store.lastSeen(shop, nick)) ?? -1) >= madeAt) return;
  await store.note(shop, nick, madeAt, madeAt + WEBSITE_BUYER_MS - now);
}

/**
 * What is known about the purchase's nick and the member it would settle for, for `decideMatch`:
 * the nick's website purchases, and the member's recent links (member-history.ts). A storage
 * failure is thrown: no decision on missing evidence.
 */
export async function matchEvidence(round: LicenseRound, transaction: SeenTransaction, links: readonly OpenLink[]): Promise<MatchEvidence> {
  const store = round.deps.websiteBuyers;
  const memberLinks = await memberHistory(round, transaction, links);
  if (!store || transaction.nick === undefined) return { memberLinks };
  return { websiteBuyerAt: await store.lastSeen(round.shop, transaction.nick), memberLinks };
}
