import type { TransactionInfo } from '../../spaceis/client.js';
import { transactionAmounts, transactionItems, type TransactionStatus } from '../../spaceis/payment-schemas.js';
import { readDate, STORE_CLOCK_SKEW_MS as CLOCK_SKEW_MS } from '../../spaceis/purchase-date.js';
import type { Decision, TxEvent } from './machine.js';

/**
 * Which of the bot's open links a store transaction belongs to, as pure functions (no storage, no
 * clock). `POST /v4/cart/paymentUrl` returns no transaction id, so a transaction is tied to a link by
 * what both carry: a transaction belongs to a link when
 * - it is on the link's license (the caller only offers that license's links),
 * - its nick equals the link's nick, ignoring the case of ASCII letters only (Minecraft nicks are
 *   ASCII and case-insensitive; Unicode case folding would make the Kelvin sign "\u212A" a "k"),
 * - its items (variant id and quantity) are exactly the link's items: no more, no fewer, no other
 *   quantity, in any order,
 * - it was made after the link was issued, allowing CLOCK_SKEW_MS between the store's clock and ours.
 * A transaction matches at most one link and a link at most one transaction: when several identical
 * links of one member are open, the newest one issued before the transaction is the one it paid (an
 * older one was most likely abandoned for it). Links of two or more members are a question for staff
 * (`decideMatch`, review.ts): the store never says who typed the nick; so is one member's link where
 * the evidence is thin (`thinEvidence`: a late purchase, a website buyer's nick). `judge` gives the
 * decision as the table's event (machine.ts); sense.ts gathers the evidence it weighs.
 */

/** How far the store's clock may be from the bot's (src/spaceis/purchase-date.ts). */
export { CLOCK_SKEW_MS };


export interface Item {
  variantId: string;
  quantity: number;
}

export interface WatchedLink {
  guildId: string;
  linkId: string;
  nick: string;
  createdAt: number;
  items: readonly Item[];
  /** The member the link was issued to (index entries from before it was kept lack it: see review.ts). */
  userId?: string;
}

/** A link whose member is known: what `decideMatch` groups by. */
export type OwnedLink = WatchedLink & { userId: string };

/**
 * What a purchase tells the bot (who paid is a guess, so only a safe one is acted on):
 * - `sole`: every link it could have paid is one member's; it paid the newest of them;
 * - `ambiguous`: links of two or more members could match (nicks are public: anyone may check out
 *   with another's nick and the same items); nothing settles by itself, staff choose. The
 *   candidates are each member's newest such link, oldest member's first;
 * - `none`: no open link could match.
 */
type MatchDecision<L extends OwnedLink> = { kind: 'sole'; link: L } | { kind: 'ambiguous'; candidates: L[]; reason: ReviewReason } | { kind: 'none' };

/**
 * Why a purchase waits for staff (a copycat of a nick must get nothing): the store gives no
 * transaction id with a payment link, so where the evidence for one member's link is thin, staff choose:
 * - `members`: links of two or more members could have paid it;
 * - `late`: made more than LATE_AFTER_MS after the one link it could have paid was issued (a member
 *   pays within minutes; a copycat's link waits for the real player to buy on the website);
 * - `website-buyer`: its nick bought outside the bot (a purchase no link matched) in the last
 *   WEBSITE_BUYER_DAYS before it: the nick is a website buyer's, whoever checked out with it;
 * - `repeated`: the member asked for REPEATED_LINKS or more other links for the nick in the
 *   HISTORY_MS before it and paid none of them (a copycat keeps a fresh link waiting, so "late"
 *   never comes). "Late" is measured from the member's first unpaid link for the same nick and
 *   items in that window, not from the newest.
 */
export type ReviewReason = 'members' | 'late' | 'website-buyer' | 'repeated';

/** A purchase this long after the member's first unpaid link for it was issued does not settle by itself. */
export const LATE_AFTER_MS = 2 * 3_600_000;
/** How far back the member's unpaid links for the nick count (for "late" and `repeated`). */
export const HISTORY_MS = 24 * 3_600_000;
/** Other unpaid links for the nick in HISTORY_MS that make a copycat sign (an honest member may abandon one and pay the next). */
const REPEATED_LINKS = 2;
/** How long a nick seen buying outside the bot stays a website buyer's. */
export const WEBSITE_BUYER_DAYS = 90;
const WEBSITE_BUYER_MS = WEBSITE_BUYER_DAYS * 86_400_000;

/** What the watcher knows about the purchase's nick besides the open links (sense.ts, `gather`, reads it). */
export interface MatchEvidence {
  /** The latest purchase with this nick that matched no link of the bot's (the store's time), if any is remembered. */
  websiteBuyerAt?: number | undefined;
  /** The links of the one member whose links the purchase could have paid, issued in the HISTORY_MS before it, open or not (sense.ts, `gather`). */
  memberLinks?: { userId: string; links: readonly PastLink[] } | undefined;
}

/** One of the member's links as the history sees it. */
interface PastLink {
  linkId: string;
  nick: string;
  items: readonly Item[];
  createdAt: number;
  /** Paid (or confirmed by staff): no sign of anything. */
  paid: boolean;
}

export interface SeenTransaction {
  id: string;
  /** Undefined when neither the store's row nor its details said. */
  nick: string | undefined;
  /** Undefined when the store's details did not say (or not readably): such a transaction matches nothing. */
  items: readonly Item[] | undefined;
  /** When it was made, on the store's clock (or when the watcher first saw it: see watcher.ts). */
  madeAt: number;
  /** What it paid, as transaction/info said (the insights' paid value); absent when it did not. */
  amounts?: PaidAmounts | undefined;
}

/** A transaction's paid value, grosze: the whole, and each variant's when the store listed items. */
interface PaidAmounts {
  totalGrosze: number;
  items: { variantId: string; grosze: number }[];
}

export function sameNick(a: string, b: string): boolean {
  return asciiLower(a.trim()) === asciiLower(b.trim());
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => String.fromCharCode(letter.charCodeAt(0) + 32));
}

/** The same variants in the same quantities, whatever the order (a variant listed twice counts once, with both quantities). */
export function sameItems(a: readonly Item[], b: readonly Item[]): boolean {
  const left = totals(a);
  const right = totals(b);
  if (left.size !== right.size || left.size === 0) return false;
  for (const [variantId, quantity] of left) if (right.get(variantId) !== quantity) return false;
  return true;
}

/** Whether the transaction could have paid this link (everything but "the newest one"). */
export function couldPay(transaction: SeenTransaction, link: WatchedLink, skewMs = CLOCK_SKEW_MS): boolean {
  return (
    transaction.nick !== undefined &&
    transaction.items !== undefined &&
    sameNick(transaction.nick, link.nick) &&
    sameItems(transaction.items, link.items) &&
    link.createdAt <= transaction.madeAt + skewMs
  );
}

/** The link the transaction paid: of those it could have paid, the newest issued before it. */
export function matchTransaction<L extends WatchedLink>(transaction: SeenTransaction, links: readonly L[], skewMs = CLOCK_SKEW_MS): L | undefined {
  let best: L | undefined;
  for (const link of links) {
    if (!couldPay(transaction, link, skewMs)) continue;
    if (!best || newer(link, best)) best = link;
  }
  return best;
}

/** The one member whose links the transaction could have paid, with the newest such link; undefined when none or several. */
export function soleCandidate<L extends OwnedLink>(transaction: SeenTransaction, links: readonly L[], skewMs = CLOCK_SKEW_MS): L | undefined {
  const decision = decideMatch(transaction, links, skewMs);
  return decision.kind === 'sole' ? decision.link : decision.kind === 'ambiguous' && decision.reason !== 'members' ? decision.candidates[0] : undefined;
}

/** Groups the links the transaction could have paid by member: see MatchDecision. */
export function decideMatch<L extends OwnedLink>(transaction: SeenTransaction, links: readonly L[], skewMs = CLOCK_SKEW_MS, evidence: MatchEvidence = {}): MatchDecision<L> {
  const newestOf = new Map<string, L>();
  for (const link of links) {
    if (!couldPay(transaction, link, skewMs)) continue;
    const best = newestOf.get(link.userId);
    if (!best || newer(link, best)) newestOf.set(link.userId, link);
  }
  const newest = [...newestOf.values()];
  const [first] = newest;
  if (!first) return { kind: 'none' };
  if (newest.length > 1) return { kind: 'ambiguous', candidates: newest.sort((a, b) => (newer(a, b) ? 1 : -1)), reason: 'members' };
  const thin = thinEvidence(transaction, first, evidence, skewMs);
  return thin ? { kind: 'ambiguous', candidates: [first], reason: thin } : { kind: 'sole', link: first };
}

/** Why one member's link is still not enough to settle by itself, if it is not. */
export function thinEvidence(transaction: SeenTransaction, link: WatchedLink, evidence: MatchEvidence, skewMs = CLOCK_SKEW_MS): ReviewReason | undefined {
  const { websiteBuyerAt } = evidence;
  // Strictly before: the purchase itself, had it been taken for a website one, is no evidence against its link.
  if (websiteBuyerAt !== undefined && websiteBuyerAt < transaction.madeAt && websiteBuyerAt >= transaction.madeAt - WEBSITE_BUYER_MS) return 'website-buyer';
  // The member's other unpaid links for this nick, issued in the window before the purchase.
  const history = evidence.memberLinks && evidence.memberLinks.userId === link.userId ? evidence.memberLinks.links : [];
  const others = history.filter(
    (past) => past.linkId !== link.linkId && !past.paid && sameNick(past.nick, link.nick) && past.createdAt >= transaction.madeAt - HISTORY_MS && past.createdAt <= transaction.madeAt + skewMs,
  );
  if (others.length >= REPEATED_LINKS) return 'repeated';
  // From the first of them for the same items: a fresh link every so often does not make a waiting one prompt.
  const first = Math.min(link.createdAt, ...others.filter((past) => sameItems(past.items, link.items)).map((past) => past.createdAt));
  if (transaction.madeAt - first > LATE_AFTER_MS) return 'late';
  return undefined;
}

/** Issued later; of two issued in the same millisecond, the greater reference (any fixed order will do). */
function newer(a: WatchedLink, b: WatchedLink): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.linkId > b.linkId);
}

function totals(items: readonly Item[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const { variantId, quantity } of items) map.set(variantId, (map.get(variantId) ?? 0) + quantity);
  return map;
}

/** The purchase as the matcher sees it: the row's date when it had one, else the details', else when it was placed. */
export function seenOf(id: string, info: TransactionInfo, nick: string | undefined, dated: number | undefined, placed: number, now: number): SeenTransaction {
  const amounts = transactionAmounts(info);
  return { id, nick: info.nick ?? nick, items: transactionItems(info), madeAt: dated ?? readDate(info.date, now) ?? placed, ...(amounts ? { amounts } : {}) };
}

/** THE decision of who paid, as the table's event: one member's link, staff's question, or nobody's. */
export type Judgement<L extends OwnedLink> =
  | { kind: 'link'; event: TxEvent; link: L }
  | { kind: 'staff'; event: TxEvent; candidates: L[]; reason: ReviewReason }
  | { kind: 'nobody'; event: TxEvent };

export function judge<L extends OwnedLink>(transaction: SeenTransaction, status: TransactionStatus, links: readonly L[], evidence: MatchEvidence): Judgement<L> {
  const decision = decideMatch(transaction, links, CLOCK_SKEW_MS, evidence);
  const as = (made: Decision) => answerOf(status, { decision: made, transaction });
  if (decision.kind === 'sole') return { kind: 'link', link: decision.link, event: as({ kind: 'link', link: { guildId: decision.link.guildId, linkId: decision.link.linkId } }) };
  if (decision.kind === 'none') return { kind: 'nobody', event: as({ kind: 'nobody' }) };
  const refs = decision.candidates.map(({ guildId, linkId }) => ({ guildId, linkId }));
  return { kind: 'staff', candidates: decision.candidates, reason: decision.reason, event: as({ kind: 'several', candidates: refs }) };
}

/** The store's status as the table's answer, with the matcher's decision and the purchase as placed when one was made. */
export function answerOf(status: TransactionStatus, decided?: { decision: Decision; transaction: SeenTransaction }): TxEvent {
  const t = decided?.transaction;
  const made = decided && t ? { decision: decided.decision, placed: { madeAt: t.madeAt, ...(t.nick ? { nick: t.nick } : {}), ...(t.amounts ? { amounts: t.amounts } : {}) } } : {};
  if (status === 'pending' || status === 'unknown') return { kind: 'pending', status, ...made };
  return { kind: status === 'fail' ? 'failed' : status, ...made };
}
