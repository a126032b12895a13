import type { TxState } from '../../storage/payment-watch.js';
import type { SettledPayment } from '../payment-events.js';
import type { TxEvent } from './machine.js';
import type { LicenseRound, WatchDeps } from './context.js';
import { transition } from './machine.js';
import { applyTx, claimLink, saveRound, saveTx, txOf } from './tx-state.js';

/**
 * Settled → notified, as a recorded step. A settled transaction keeps a work entry in its license's
 * state until every step of PaymentEvents (the DM edit, the log post, metrics, roles) is done: each
 * step's name is written on the transaction's state when it is done, so a round after a crash, or
 * after Discord failed a step, runs only the steps not done yet. The steps left after an attempt are
 * one retry (schedule.ts, stepRetry: the attempts count on the transaction, a backoff, an end):
 * offered again after the backoff, and given up with a warning after the last attempt. A step
 * Discord refused for good (DMs closed, the log channel closed to the bot, a deleted message:
 * src/discord/refusals.ts) ends at once: recorded as refused with its reason in the same write that
 * ends it, told once (PaymentEvents.refused: the log channel, /shop-admin status), never sent again.
 */
export async function notify(round: LicenseRound, transactionId: string): Promise<void> {
  const { deps } = round;
  const tx = await txOf(round, transactionId);
  if (!tx || tx.state !== 'settled' || !tx.link) {
    delete round.state.work[transactionId];
    return;
  }
  let record = await deps.links.get(tx.link.guildId, tx.link.linkId);
  if (record && (record.payment?.transactionId !== transactionId || record.payment.settledAt === undefined)) {
    // Written as settled here, but the link's record not yet (a crash between the two): write it now.
    const claim = tx.status === 'paid' ? 'paid' : tx.status === 'expired' ? 'expired' : 'failed';
    if ((await claimLink(round, tx.link, transactionId, claim, true, tx.confirmedBy)) === 'taken') {
      // The link went meanwhile (another transaction, a moderator): the transaction is decided again.
      await applyTx(round, transactionId, tx, { kind: 'link-lost', taken: true });
      return;
    }
    record = await deps.links.get(tx.link.guildId, tx.link.linkId);
  }
  const payment = record?.payment;
  if (!record || !payment || payment.status === 'pending' || payment.settledAt === undefined) {
    round.log.warn({ transaction: transactionId }, 'payment watch: a settled payment’s link is gone; nobody to tell');
    await applyTx(round, transactionId, tx, { kind: 'link-lost', taken: false });
    return;
  }
  const event: SettledPayment = { link: record, status: payment.status, transactionId, at: payment.settledAt, ...(tx.confirmedBy ? { confirmedBy: tx.confirmedBy } : {}), ...(tx.amounts ? { amounts: tx.amounts } : {}) };
  const { done, left } = await runSteps(deps, tx, event, (next) => saveTx(round, transactionId, next));
  // Every step ended: notified. Some left: offered again with backoff, or given up after NOTIFY_ATTEMPTS passes (the table decides).
  const { record: after, effects } = await applyTx(round, transactionId, done, { kind: 'steps-tried', steps: deps.events.steps(), counted: true });
  if (effects.some((effect) => effect.kind === 'log' && effect.what === 'given-up')) {
    round.log.warn({ guild: record.guildId, link: record.id, transaction: transactionId, steps: left }, 'payment watch: Discord kept failing these steps of a settled payment; given up');
  } else if (after?.state === 'settled') {
    round.log.info({ guild: record.guildId, link: record.id, transaction: transactionId, steps: left, attempt: after.attempt }, 'payment watch: steps of a settled payment offered again later');
  }
  await saveRound(round);
}

/**
 * Runs the steps of PaymentEvents not yet recorded on the transaction, recording each one as soon as
 * it is done (`save`): a crash after a step never runs it again. A step Discord refused for good is
 * recorded the same way (in `steps`, and in `refused` with the reason: one write) and owes its
 * telling (`events.refused`) until `told` is written: a crash or a storage failure in between is
 * told by the next round; the step itself is never sent again.
 * `done` is the record with every step recorded so far; what asked to be offered again is `left`.
 * Shared by the rounds (notify) and a moderator's confirmation (review.ts), which runs them at once.
 */
export async function runSteps(
  deps: Pick<WatchDeps, 'events' | 'clock' | 'logger'>,
  tx: TxState,
  event: SettledPayment,
  save: (tx: TxState) => Promise<void>,
): Promise<{ done: TxState; left: string[] }> {
  let current = tx;
  const left: string[] = [];
  // Each outcome is an event of the table (machine.ts), its record written as soon as it is decided.
  const apply = async (next: TxEvent) => {
    const { record } = transition(current, next, deps.clock.now(), NO_FOLLOW_UP);
    if (!record || record === current) return;
    current = record;
    await recordStep(() => save(record));
  };
  for (const name of deps.events.steps()) {
    if (current.steps?.[name] !== undefined) continue;
    const outcome = await deps.events.run(name, event);
    if (outcome === 'retry') {
      left.push(name);
      continue;
    }
    if (outcome === 'done') {
      await apply({ kind: 'step-done', step: name });
      continue;
    }
    await apply({ kind: 'step-refused', step: name, reason: outcome.refused });
    deps.logger.warn(
      { guild: event.link.guildId, link: event.link.id, transaction: event.transactionId, step: name, reason: outcome.refused },
      'payment watch: Discord refused a step of a settled payment for good; recorded, told once, not sent again',
    );
  }
  // Refusals not told yet, this round's and any an earlier round could not finish telling.
  for (const [name, entry] of Object.entries(current.refused ?? {})) {
    if (entry.told !== undefined) continue;
    // Not told (storage, say): offered again with the steps left, and given up with them.
    if (!(await deps.events.refused(event, name, entry.reason))) {
      left.push(`told:${name}`);
      continue;
    }
    await apply({ kind: 'refusal-told', step: name });
  }
  return { done: current, left };
}

/**
 * A step Discord has done is recorded; a write that fails is tried once more at once (a blip of
 * storage), since a step whose record is lost is done again by the next round (a second log post).
 * A second failure throws: the round (or the confirmation) stops there, and the next round retries.
 */
/** The steps' events schedule nothing by the poll interval (steps-tried does, and is applied by the caller). */
const NO_FOLLOW_UP = { pollMs: 0 };

async function recordStep(save: () => Promise<void>): Promise<void> {
  try {
    await save();
  } catch {
    await save();
  }
}
