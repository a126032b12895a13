import type { Logger } from '../logger.js';
import type { PaymentLink } from '../storage/payment-links.js';

/**
 * What the bot learns once a payment link's transaction reaches a final status at the store
 * (docs/spaceis-api.md, "transaction/info"), and the steps that tell Discord about it: the member's
 * DM, the log channel, metrics, buyers' roles. Each step has a name; the payment watcher records
 * each step when it is done and offers the event again, on a later round with backoff, to a step
 * that asked for it ('retry') or threw (src/services/payment-watch/outbox.ts). A step Discord
 * refused for good (`{ refused }`: src/discord/refusals.ts) ends at once: recorded on the
 * transaction as refused, told once (`onRefused`), never sent again. A step that failed never stops
 * the others.
 */
export interface SettledPayment {
  /** The link as recorded after the change (its `payment` set). */
  link: PaymentLink;
  status: 'paid' | 'failed' | 'expired';
  /** The store's transaction id: shown to moderators, never a secret. */
  transactionId: string;
  /** When the bot learned the final status (the bot's clock). */
  at: number;
  /**
   * A moderator's user id when staff chose this link among several members' links the purchase
   * could have paid (who paid is a guess, not a fact); absent when exactly one member's links could match.
   */
  confirmedBy?: string;
  /** What the store says was paid, grosze (transaction/info): the insights' value of the order; absent when it did not say. */
  amounts?: { totalGrosze: number; items: { variantId: string; grosze: number }[] };
}

/** A step Discord refused for good: why, in Discord's terms (src/discord/refusals.ts, e.g. `dms-closed`). */
export interface StepRefused {
  refused: string;
}

/**
 * A listener's answer: nothing (or 'done') when its step is finished, 'retry' when Discord did not
 * answer and the same event must be offered to it again later (the payment watcher keeps the step as
 * not done and offers it again on a later round, with backoff), `{ refused }` when Discord's answer
 * is final (asking again would get the same 4xx, each one counted against the bot).
 */
export type PaymentListener = (event: SettledPayment) => Promise<void | 'done' | 'retry' | StepRefused>;

/** How one step went: finished ('done'), to be offered the same event again later ('retry'), or refused for good. */
export type StepOutcome = 'done' | 'retry' | StepRefused;

/** Who is told, once, of a step refused for good (the log channel and /shop-admin status: src/services/payment-watch/refused-steps.ts). */
export type RefusalListener = (event: SettledPayment, step: string, reason: string) => Promise<void>;

export class PaymentEvents {
  readonly #steps = new Map<string, PaymentListener>();
  #refusalListener: RefusalListener | undefined;

  constructor(private readonly logger: Logger) {}

  /** Adds a named step; the name is what storage records as done, so it must stay the same across versions. */
  on(name: string, listener: PaymentListener): void {
    if (this.#steps.has(name)) throw new Error(`PaymentEvents: a step named ${name} exists already`);
    this.#steps.set(name, listener);
  }

  /** Who is told of a step refused for good (one listener: the wiring's). */
  onRefused(listener: RefusalListener): void {
    this.#refusalListener = listener;
  }

  /**
   * Tells of a step refused for good, once: called after the refusal is recorded on the transaction,
   * so a failure here (logged) never makes the step run again.
   */
  /** Tells the admins of a refused step; false when it could not (logged): the caller keeps owing it. */
  async refused(event: SettledPayment, step: string, reason: string): Promise<boolean> {
    try {
      await this.#refusalListener?.(event, step, reason);
      return true;
    } catch (error) {
      this.logger.warn({ err: error, step, reason, link: event.link.id }, 'a refused payment step could not be shown to the admins');
      return false;
    }
  }

  /** The steps' names, in the order they run. */
  steps(): string[] {
    return [...this.#steps.keys()];
  }

  /** Runs one step: 'retry' when it asked for it or threw (logged), `{ refused }` when Discord refused it for good. */
  async run(name: string, event: SettledPayment): Promise<StepOutcome> {
    const listener = this.#steps.get(name);
    if (!listener) return 'done';
    try {
      const outcome = await listener(event);
      if (typeof outcome === 'object') return outcome;
      return outcome === 'retry' ? 'retry' : 'done';
    } catch (error) {
      this.logger.error({ err: error, step: name, link: event.link.id, status: event.status }, 'a payment step failed; offered again later');
      return 'retry';
    }
  }

  /** Runs every step but those in `done`, in turn: how each went. */
  async emit(event: SettledPayment, done: ReadonlySet<string> = new Set()): Promise<Map<string, StepOutcome>> {
    const outcomes = new Map<string, StepOutcome>();
    for (const name of this.#steps.keys()) if (!done.has(name)) outcomes.set(name, await this.run(name, event));
    return outcomes;
  }
}
