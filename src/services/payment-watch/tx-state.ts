import type { PaymentLink } from '../../storage/payment-links.js';
import type { OpenRef, TxState } from '../../storage/payment-watch.js';
import type { LicenseRound, WatchDeps } from './context.js';
import { transition, workOf, type Outcome, type TxEvent } from './machine.js';

/**
 * Writes of one transaction's state and of the link it paid, shared by the decision (settle.ts),
 * the outbox (outbox.ts) and the follow-ups (license-round.ts).
 */

/** Writes the license's state when it changed since read: before a step that must survive a crash. */
export async function saveRound(round: Pick<LicenseRound, 'deps' | 'license' | 'state' | 'readAs'>): Promise<void> {
  const text = JSON.stringify(round.state);
  if (text === round.readAs) return;
  await round.deps.store.saveState(round.license, round.state);
  round.readAs = text;
}

/**
 * A transaction's state: kept under the shop's key (the same for every key of one shop), or, for
 * one recorded before the shop's identity was known, under the license's own.
 */
export async function txOf(round: Pick<LicenseRound, 'deps' | 'shop' | 'license'>, transactionId: string): Promise<TxState | undefined> {
  const { store } = round.deps;
  return (await store.tx(round.shop, transactionId)) ?? (round.shop === round.license ? undefined : await store.tx(round.license, transactionId));
}

export async function saveTx(round: LicenseRound, transactionId: string, state: TxState): Promise<void> {
  await round.deps.store.saveTx(round.shop, transactionId, state);
}

/**
 * An event applied to a transaction in a round: the table (machine.ts) decides, its record is written
 * when it changed, and the work it owes is noted in the license's state (saved with it by the round).
 */
export async function applyTx(round: LicenseRound, transactionId: string, record: TxState | undefined, event: TxEvent): Promise<Outcome> {
  const outcome = transition(record, event, round.deps.clock.now(), round.deps);
  await recordOutcome(round, transactionId, record, outcome);
  return outcome;
}

/** The table's outcome for `record`, written: the record when it changed, then its work noted. */
export async function recordOutcome(round: LicenseRound, transactionId: string, record: TxState | undefined, outcome: Outcome): Promise<void> {
  if (outcome.record && outcome.record !== record) await saveTx(round, transactionId, outcome.record);
  noteWork(round, transactionId, outcome.effects);
}

/** The work the outcome's effects owe, noted in the license's work index (saved with its state). */
export function noteWork(round: Pick<LicenseRound, 'state'>, transactionId: string, effects: Outcome['effects']): void {
  const work = workOf(effects);
  if (work === 'drop') delete round.state.work[transactionId];
  else if (work) round.state.work[transactionId] = work.at;
}

export type Claim = 'paid' | 'pending' | 'failed' | 'expired';

/**
 * Writes the transaction on the link, under the record's lock: a settled or withdrawn link is
 * never changed ('taken', unless this very transaction settled it: a round finishing after a crash).
 * `final`: the status settles the link (paid; a failed attempt when the link's lifetime ended).
 * `confirmedBy`: the moderator who chose this link (review.ts).
 */
export async function claimLink(
  round: { deps: { links: Pick<WatchDeps['links'], 'get' | 'update'>; clock: WatchDeps['clock'] } },
  ref: OpenRef,
  transactionId: string,
  claim: Claim,
  final = claim === 'paid',
  confirmedBy?: string,
): Promise<'claimed' | 'taken'> {
  const now = round.deps.clock.now();
  let outcome = 'taken' as 'claimed' | 'taken';
  const updated = await round.deps.links.update(ref.guildId, ref.linkId, (record) => {
    const payment = record.payment;
    if (payment?.settledAt !== undefined || record.revoked) {
      outcome = sameTransaction(payment?.transactionId, transactionId) && payment?.settledAt !== undefined ? 'claimed' : 'taken';
      return record;
    }
    outcome = 'claimed';
    const matchedAt = payment && sameTransaction(payment.transactionId, transactionId) ? payment.matchedAt : now;
    if (claim !== 'pending' && final) return { ...record, payment: { status: claim, transactionId, matchedAt, settledAt: now, ...(confirmedBy ? { confirmedBy } : {}) } };
    if (claim === 'pending') return { ...record, payment: { status: 'pending', transactionId, matchedAt } };
    if (claim === 'paid') return record;
    const next: PaymentLink = { ...record, attempt: { transactionId, status: claim, at: now } };
    // This transaction was pending on the link and has now failed: the link has no payment again.
    if (sameTransaction(payment?.transactionId, transactionId)) delete next.payment;
    return next;
  });
  return updated ? outcome : 'taken';
}


/** Transaction ids are the same whatever the case of their letters (a post may spell one in capitals). */
export function sameTransaction(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();
}
