import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import type { PaymentLinkRepository } from '../../storage/payment-links.js';
import type { PaymentStepRefusals, RefusedStep } from '../../storage/payment-step-refusals.js';
import type { TxState } from '../../storage/payment-watch.js';
import type { PaymentEvents, SettledPayment } from '../payment-events.js';
import { claimLink, type LicenseLedger } from './ledger.js';
import type { TxEvent } from './machine.js';

/**
 * Telling Discord: settled → notified, one recorded step at a time (PAYMENT_STEPS' order in
 * src/services/payment-events.ts). Each step's name is written on the transaction's record as soon as
 * it is done, so a round after a crash, or after Discord failed a step, runs only the steps not done.
 * The steps left after a pass are one retry (machine.ts, `stepRetry`: offered again after the
 * backoff, given up after the last attempt, logged once). A step Discord refused for good (DMs
 * closed, the log channel closed to the bot, a deleted message: src/discord/refusals.ts) ends at
 * once: recorded as refused with its reason in the write that ends it, told once, never sent again.
 */

export interface TellDeps {
  events: Pick<PaymentEvents, 'steps' | 'run' | 'refused'>;
  links: Pick<PaymentLinkRepository, 'get' | 'claim'>;
  clock: Clock;
  logger: Logger;
}

/** A settled transaction's steps, in a round: its link's record finished first if a crash left it, then each step not done. */
export async function notify(deps: TellDeps, ledger: LicenseLedger, transactionId: string): Promise<void> {
  const tx = await ledger.tx(transactionId);
  if (!tx || tx.state !== 'settled' || !tx.link) return ledger.dropWork(transactionId);
  let record = await deps.links.get(tx.link.guildId, tx.link.linkId);
  if (record && (record.payment?.transactionId !== transactionId || record.payment.settledAt === undefined)) {
    // Written as settled, but the link's record not yet (a crash between the two): written now.
    const claim = tx.status === 'paid' ? 'paid' : tx.status === 'expired' ? 'expired' : 'failed';
    // The link went meanwhile (another transaction, a moderator): the transaction is decided again.
    if ((await claimLink(deps, tx.link, transactionId, claim, true, tx.confirmedBy)) === 'taken') return void (await ledger.apply(transactionId, tx, { kind: 'link-lost', taken: true }));
    record = await deps.links.get(tx.link.guildId, tx.link.linkId);
  }
  const payment = record?.payment;
  if (!record || !payment || payment.status === 'pending' || payment.settledAt === undefined) {
    ledger.log.warn({ transaction: transactionId }, 'payment watch: a settled payment’s link is gone; nobody to tell');
    return void (await ledger.apply(transactionId, tx, { kind: 'link-lost', taken: false }));
  }
  const event: SettledPayment = { link: record, status: payment.status, transactionId, at: payment.settledAt, ...(tx.confirmedBy ? { confirmedBy: tx.confirmedBy } : {}), ...(tx.amounts ? { amounts: tx.amounts } : {}) };
  const { done, left } = await runSteps(deps, tx, event, async (record, step) => (await ledger.apply(transactionId, record, step)).record);
  // Every step ended: notified. Some left: offered again with backoff, or given up after NOTIFY_ATTEMPTS passes (the table decides).
  const { record: after, effects } = await ledger.apply(transactionId, done, { kind: 'steps-tried', steps: deps.events.steps(), counted: true });
  const where = { guild: record.guildId, link: record.id, transaction: transactionId, steps: left };
  if (effects.some((effect) => effect.kind === 'log' && effect.what === 'given-up')) ledger.log.warn(where, 'payment watch: Discord kept failing these steps of a settled payment; given up');
  else if (after?.state === 'settled') ledger.log.info({ ...where, attempt: after.attempt }, 'payment watch: steps of a settled payment offered again later');
  await ledger.save();
}

/**
 * Runs the steps not yet recorded on the transaction, each recorded as soon as it is done (`write`: the
 * ledger's write of the table's event). A step refused for good is recorded the same way (in `steps`,
 * and in `refused` with the reason: one write) and owes its telling (`events.refused`) until `told` is
 * written: a failure in between is told by the next round; the step itself is never sent again. `done`:
 * the record with every step recorded; `left`: what is to be offered again. Shared by the rounds and a
 * moderator's confirmation (review.ts).
 */
export async function runSteps(
  deps: Pick<TellDeps, 'events' | 'logger'>,
  tx: TxState,
  event: SettledPayment,
  write: (record: TxState, step: TxEvent) => Promise<TxState | undefined>,
): Promise<{ done: TxState; left: string[] }> {
  let current = tx;
  const left: string[] = [];
  const apply = async (step: TxEvent) => {
    current = (await recordStep(() => write(current, step))) ?? current;
  };
  for (const name of deps.events.steps()) {
    if (current.steps?.[name] !== undefined) continue;
    const outcome = await deps.events.run(name, event);
    if (outcome === 'retry') left.push(name);
    else if (outcome === 'done') await apply({ kind: 'step-done', step: name });
    else {
      await apply({ kind: 'step-refused', step: name, reason: outcome.refused });
      const where = { guild: event.link.guildId, link: event.link.id, transaction: event.transactionId, step: name, reason: outcome.refused };
      deps.logger.warn(where, 'payment watch: Discord refused a step of a settled payment for good; recorded, told once, not sent again');
    }
  }
  // Refusals not told yet, this pass's and any an earlier one could not finish telling (storage, say): offered again with the steps left.
  for (const [name, entry] of Object.entries(current.refused ?? {})) {
    if (entry.told !== undefined) continue;
    if (await deps.events.refused(event, name, entry.reason)) await apply({ kind: 'refusal-told', step: name });
    else left.push(`told:${name}`);
  }
  return { done: current, left };
}

/**
 * A step Discord has done is recorded; a write that fails is tried once more at once (a blip of
 * storage), since a step whose record is lost is done again by the next round (a second log post).
 * A second failure throws: the round (or the confirmation) stops there, and the next round retries.
 */
async function recordStep(write: () => Promise<TxState | undefined>): Promise<TxState | undefined> {
  try {
    return await write();
  } catch {
    return write();
  }
}

/**
 * A step refused for good, told once after it was recorded: in the guild's log channel (unless the log
 * post is what was refused: then the bot's log and the status only), and in the guild's next
 * /shop-admin status (`take`: each shown once).
 */
export class RefusedPaymentSteps {
  constructor(
    private readonly o: {
      store: PaymentStepRefusals;
      clock: Clock;
      /** Posts the refusal in the guild's log channel (src/discord/views/log.ts, `payment-step-refused`). */
      post: (guildId: string, refused: Omit<RefusedStep, 'at'>) => Promise<unknown>;
    },
  ) {}

  /** PaymentEvents' refusal listener. */
  async tell({ link }: SettledPayment, step: string, reason: string): Promise<void> {
    const refused = { userId: link.userId, linkId: link.id, step, reason };
    if (step !== 'log') await this.o.post(link.guildId, refused);
    await this.o.store.note(link.guildId, { ...refused, at: this.o.clock.now() });
  }

  /** The refusals the guild's status has not shown yet, taken off the record. */
  take(guildId: string): Promise<RefusedStep[]> {
    return this.o.store.take(guildId);
  }
}
