import type { TransactionStatus } from '../../spaceis/payment-schemas.js';
import type { PaymentLink } from '../../storage/payment-links.js';
import type { OpenRef, TxState } from '../../storage/payment-watch.js';
import { applyTx, claimLink, noteWork, recordOutcome, saveRound, txOf } from './tx-state.js';
import type { LicenseRound, OpenLink } from './context.js';
import { transition, type Decision, type Effect, type Outcome, type Placed, type TxEvent } from './machine.js';
import { CLOCK_SKEW_MS, decideMatch, type ReviewReason, type SeenTransaction } from './matcher.js';
import { openLinkOf, readOpenLinks } from './open-links.js';
import { notify } from './outbox.js';
import { matchEvidence, noteDecidedWebsiteBuyer } from './website-buyers.js';

/**
 * Deciding which link a transaction paid, and writing it on the link's record. A transaction's
 * one record (storage/payment-watch.ts, TxState: its state and the steps it still owes) is what
 * decides; the license's work index is written before it (a hint, dropped when the record owes
 * nothing) and the link's record after it: a failure or crash at any write leaves either the old
 * state, settled again by the next round, or work the next round finishes (outbox.ts), never a
 * settled link nobody is told of.
 */

/**
 * THE decision: which open link a transaction whose details the store gave (nick, items, status)
 * paid, and what that does to the link. Every path that learns a transaction's status ends here.
 * A transaction made after the open links were read is looked for again among freshly read links
 * before it is set aside as nobody's (a checkout may have landed meanwhile).
 */
export async function decideAndSettle(round: LicenseRound, transaction: SeenTransaction, status: TransactionStatus, previous: TxState | undefined): Promise<void> {
  const tried = new Set<string>();
  let reread = false;
  // The shop's other keys' open links too (a rotated key): a purchase is the shop's, whichever key issued the link.
  // And the links it was followed for, even past their lifetime: a payment under way when they ended still pays one.
  const mates = [...(await shopmates(round)), ...(await remembered(round, transaction.id, previous))];
  // What the nick did outside the bot (a website buyer's nick settles no link by itself), and what the member asked for lately.
  const evidence = await matchEvidence(round, transaction, [...round.open, ...mates]);
  for (;;) {
    // Who paid is a guess: one member's links settle by themselves (the newest); several members' wait for staff.
    const decision = decideMatch(transaction, [...round.open, ...mates].filter((open) => !tried.has(refKey(open))), CLOCK_SKEW_MS, evidence);
    if (decision.kind === 'ambiguous') return ambiguous(round, transaction, status, previous, decision.candidates, decision.reason);
    const link = decision.kind === 'sole' ? decision.link : undefined;
    if (!link) {
      if (!reread && transaction.madeAt + CLOCK_SKEW_MS >= round.openReadAt) {
        reread = true;
        await refreshOpen(round);
        continue;
      }
      const { effects } = await applyTx(round, transaction.id, previous, answerOf(status, { decision: { kind: 'nobody' }, transaction }));
      // Paid, and no link of the bot's could have been paid by it: a website purchase, however the bot heard of it.
      if (effects.some((effect) => effect.kind === 'note-website-buyer')) await noteDecidedWebsiteBuyer(round, transaction.nick, transaction.madeAt, previous?.postedAt);
      return;
    }
    if ((await applyStatus(round, link, transaction, status, previous)) !== 'taken') return;
    // Another transaction settled it, or it was withdrawn meanwhile: the next best link, if any.
    tried.add(refKey(link));
    await closeLinks(round, [linkRef(link)]);
  }
}

/**
 * Links of two or more members could be this purchase's (nicks are public), or one member's with
 * thin evidence (`reason`, matcher.ts): nothing settles by itself. The table decides what follows:
 * still pending at the store, it is asked again on its schedule, against these links whether or not
 * they are still open (remembered below); failed or expired, nobody's; paid, it waits as `ambiguous`
 * for staff (review.ts), who choose the link.
 */
async function ambiguous(round: LicenseRound, transaction: SeenTransaction, status: TransactionStatus, previous: TxState | undefined, candidates: OpenLink[], reason: ReviewReason): Promise<void> {
  const refs = candidates.map(({ guildId, linkId }) => ({ guildId, linkId }));
  const { effects } = await applyTx(round, transaction.id, previous, answerOf(status, { decision: { kind: 'several', candidates: refs }, transaction }));
  if (effects.some((effect) => effect.kind === 'ask-staff')) await round.deps.review?.raise(transaction, candidates, reason);
}

/**
 * The links a followed transaction is remembered with, when they are no longer among the open ones:
 * the link it was pending on (matched), or those it could have paid when first seen (several
 * members', or while the store did not know it). Each still counts while its record is neither
 * settled nor withdrawn nor taken by another transaction.
 */
async function remembered(round: LicenseRound, transactionId: string, previous: TxState | undefined): Promise<OpenLink[]> {
  const refs = [...(previous?.state === 'matched' && previous.link ? [previous.link] : []), ...(previous?.state === 'seen' ? (previous.candidates ?? []) : [])];
  const found: OpenLink[] = [];
  for (const ref of refs) {
    if (round.open.some((open) => open.guildId === ref.guildId && open.linkId === ref.linkId)) continue;
    const record = await round.deps.links.get(ref.guildId, ref.linkId);
    if (!record || record.revoked || record.payment?.settledAt !== undefined) continue;
    if (record.payment && record.payment.transactionId !== transactionId) continue;
    found.push(openLinkOf(record, Number.POSITIVE_INFINITY));
  }
  return found;
}

/** The open links of the shop's other licenses (keys) the watcher follows: one read of the shop's list (shop-licenses.ts). */
async function shopmates(round: LicenseRound): Promise<OpenLink[]> {
  if (round.shop === round.license) return [];
  const now = round.deps.clock.now();
  const mates: OpenLink[] = [];
  for (const license of await round.deps.shopLicenses.others(round.shop, round.license)) mates.push(...(await readOpenLinks(round.deps, license, now)).open);
  return mates;
}

const linkRef = (link: OpenLink) => ({ guildId: link.guildId, linkId: link.linkId, license: link.record.license });

/**
 * What the store's status does to the link the transaction paid. The table decides; the order of
 * the writes is this file's: a settling claim as settleClaimed says, any other the link's record
 * first, so a link another transaction took is never written on this transaction's record.
 */
async function applyStatus(round: LicenseRound, link: OpenLink, transaction: SeenTransaction, status: TransactionStatus, previous: TxState | undefined): Promise<'settled' | 'matched' | 'taken' | 'kept'> {
  const transactionId = transaction.id;
  const ref = { guildId: link.guildId, linkId: link.linkId };
  const outcome = transition(previous, answerOf(status, { decision: { kind: 'link', link: ref }, transaction }), round.deps.clock.now(), round.deps);
  const claim = claimOf(outcome.effects);
  if (!claim) {
    // The table keeps the record (a store answering other than paid about a paid one): no link is written.
    await recordOutcome(round, transactionId, previous, outcome);
    return 'kept';
  }
  if (claim.final) {
    if ((await settleClaimed(round, transactionId, previous, outcome, claim)) === 'taken') return 'taken';
    round.log.info({ guild: link.guildId, link: link.linkId, transaction: transactionId, status: 'paid' }, 'payment watch: the store settled a link’s payment');
    await closeLinks(round, [linkRef(link)]);
    if (outcome.effects.some((effect) => effect.kind === 'tell-steps')) await notify(round, transactionId);
    return 'settled';
  }
  // Pending, failed or expired: the link stays open within its lifetime; a later paid transaction replaces it.
  if ((await claimLink(round, claim.link, transactionId, claim.claim, claim.final)) === 'taken') return 'taken';
  await recordOutcome(round, transactionId, previous, outcome);
  round.log.info({ guild: link.guildId, link: link.linkId, transaction: transactionId, status }, 'payment watch: a purchase matched a payment link');
  return 'matched';
}

/** A link whose lifetime ended with only a failed or expired attempt: it settles with that status, and Discord is told. */
export async function settleEnded(round: LicenseRound, record: PaymentLink): Promise<void> {
  const attempt = record.attempt;
  if (!attempt) return;
  const ref = { guildId: record.guildId, linkId: record.id };
  const previous = await txOf(round, attempt.transactionId);
  const outcome = transition(previous, { kind: 'link-ended', link: ref, status: attempt.status === 'failed' ? 'fail' : 'expired' }, round.deps.clock.now(), round.deps);
  const claim = claimOf(outcome.effects);
  // The table settles a transaction matched to the link (or one without a record); one concluded otherwise stays as it is.
  if (!claim) return;
  await settleClaimed(round, attempt.transactionId, previous, outcome, claim);
  if (outcome.effects.some((effect) => effect.kind === 'tell-steps')) await notify(round, attempt.transactionId);
}

type ClaimEffect = Extract<Effect, { kind: 'claim' }>;
const claimOf = (effects: readonly Effect[]): ClaimEffect | undefined => effects.find((effect): effect is ClaimEffect => effect.kind === 'claim');

/**
 * A claim that settles the link (paid; a failed attempt when its lifetime ended). The work index
 * first (a hint: an entry whose transaction owes nothing is dropped), then the one write that
 * decides: the transaction settled, owing every step (outbox.ts); then the link's record. A failure
 * before the record leaves the old state, which the next round settles; a failure after it, work
 * the next round finishes.
 */
async function settleClaimed(round: LicenseRound, transactionId: string, previous: TxState | undefined, outcome: Outcome, claim: ClaimEffect): Promise<'claimed' | 'taken'> {
  noteWork(round, transactionId, outcome.effects);
  await saveRound(round);
  await recordOutcome(round, transactionId, previous, outcome);
  return claimLink(round, claim.link, transactionId, claim.claim, claim.final);
}

/** The store's status as the table's answer: with the matcher's decision and the purchase as placed, when the caller made one. */
export function answerOf(status: TransactionStatus, decided?: { decision: Decision; transaction: SeenTransaction }): TxEvent {
  const made = decided ? { decision: decided.decision, placed: placedOf(decided.transaction) } : {};
  if (status === 'pending' || status === 'unknown') return { kind: 'pending', status, ...made };
  return { kind: status === 'fail' ? 'failed' : status, ...made };
}

const placedOf = (transaction: SeenTransaction): Placed => ({
  madeAt: transaction.madeAt,
  ...(transaction.nick ? { nick: transaction.nick } : {}),
  ...(transaction.amounts ? { amounts: transaction.amounts } : {}),
});

async function refreshOpen(round: LicenseRound): Promise<void> {
  const now = round.deps.clock.now();
  const read = await readOpenLinks(round.deps, round.license, now);
  round.open = read.open;
  round.openReadAt = now;
}

/** Takes links out of the open index (of their own license: a shopmate's link is another license's). */
export async function closeLinks(round: LicenseRound, links: readonly (OpenRef & { license?: string })[]): Promise<void> {
  const keys = new Set(links.map(refKey));
  round.open = round.open.filter((open) => !keys.has(refKey(open)));
  for (const license of new Set(links.map((link) => link.license ?? round.license))) {
    const own = links.filter((link) => (link.license ?? round.license) === license);
    await round.deps.store.index.closeOpen(license, own.map(({ guildId, linkId }) => ({ guildId, linkId })));
  }
}

const refKey = (ref: OpenRef) => `${ref.guildId}:${ref.linkId}`;
