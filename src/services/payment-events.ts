import type { Messages } from '../i18n/en.js';
import type { Logger } from '../logger.js';
import type { PaymentLink } from '../storage/payment-links.js';

/**
 * What the bot learns once a payment link's transaction reaches a final status at the store
 * (docs/spaceis-api.md, "transaction/info"), and the steps that tell Discord about it: the member's
 * DM, the log channel, metrics, buyers' roles. Each step has a name; the payment watcher records
 * each step when it is done and offers the event again, on a later round with backoff, to a step
 * that asked for it ('retry') or threw (src/services/payment-watch/tell.ts). A step Discord
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
interface StepRefused {
  refused: string;
}

/**
 * The steps of a settled payment, in the order they run: the buyers' roles first (the paid DM says
 * when a role waits for staff), the member's DM, the log post, the settled links counter, the gift's
 * recipient told, the store webhook's health (a paid purchase no post named), the insights' count of
 * a paid order. A closed list: the handlers are one record over it (`StepHandlers`), so a step
 * without a handler does not compile, and each step has its name for the admins in every catalogue
 * (`payments.refusedStep`, checked below). The names are what a transaction's record keeps as done
 * or refused: never rename one (a record written before would run it again).
 */
export const PAYMENT_STEPS = ['roles', 'dm', 'log', 'metrics', 'gift', 'store-webhook-health', 'insights'] as const;
export type PaymentStep = (typeof PAYMENT_STEPS)[number];

/** Whether a name read from a stored record is a step this version runs (a record may name one a later or earlier version had). */
export function isPaymentStep(name: string): name is PaymentStep {
  return (PAYMENT_STEPS as readonly string[]).includes(name);
}

/**
 * The steps and the catalogue's names of them (`payments.refusedStep`, with their grammatical cases:
 * src/i18n/grammar-case.ts) are one set of keys: a step without a name, or a name of no step, makes
 * this line a type error.
 */
type StepNames = keyof Messages['payments']['refusedStep'];
type Holds<Check extends true> = Check;
type StepsAreNamed = Holds<[Exclude<PaymentStep, StepNames>, Exclude<StepNames, PaymentStep>] extends [never, never] ? true : false>;

/**
 * A step's answer: nothing (or 'done') when it is finished, 'retry' when Discord did not answer and
 * the same event must be offered to it again later (the payment watcher keeps the step as not done
 * and offers it again on a later round, with backoff), `{ refused }` when Discord's answer is final
 * (asking again would get the same 4xx, each one counted against the bot).
 */
export type StepHandler = (event: SettledPayment) => Promise<void | 'done' | 'retry' | StepRefused>;

/** Every step's handler: one record, passed once by the wiring (PaymentEvents.use). */
export type StepHandlers = Record<PaymentStep, StepHandler>;

/** How one step went: finished ('done'), to be offered the same event again later ('retry'), or refused for good. */
type StepOutcome = 'done' | 'retry' | StepRefused;

/**
 * Who is told, once, of a step refused for good (the log channel and /shop-admin status:
 * src/services/payment-watch/tell.ts, `RefusedPaymentSteps`). The step is a name as the transaction's record keeps
 * it: one a record of another version refused is told by its name.
 */
type RefusalListener = (event: SettledPayment, step: string, reason: string) => Promise<void>;

export class PaymentEvents {
  #handlers: StepHandlers | undefined;
  #refusalListener: RefusalListener | undefined;

  constructor(private readonly logger: Logger) {}

  /**
   * Every step's handler, once, when the bot is put together (app.ts): the steps' owners are built
   * after the watcher that runs them, so they are handed over last.
   */
  use(handlers: StepHandlers): void {
    if (this.#handlers) throw new Error('PaymentEvents: the steps were handed over already');
    this.#handlers = handlers;
  }

  /** Who is told of a step refused for good (one listener: the wiring's). */
  onRefused(listener: RefusalListener): void {
    this.#refusalListener = listener;
  }

  /**
   * Tells the admins of a step refused for good, once: called after the refusal is recorded on the
   * transaction, so a failure here never makes the step run again; false when it could not (logged):
   * the caller keeps owing the telling.
   */
  async refused(event: SettledPayment, step: string, reason: string): Promise<boolean> {
    try {
      await this.#refusalListener?.(event, step, reason);
      return true;
    } catch (error) {
      this.logger.warn({ err: error, step, reason, link: event.link.id }, 'a refused payment step could not be shown to the admins');
      return false;
    }
  }

  /** The steps, in the order they run. */
  steps(): readonly PaymentStep[] {
    return PAYMENT_STEPS;
  }

  /**
   * Runs one step: 'retry' when it asked for it or threw (logged), `{ refused }` when Discord refused
   * it for good. Before the steps are handed over (a round during the bot's start) every step is
   * 'retry': offered again, never recorded as done unrun.
   */
  async run(name: PaymentStep, event: SettledPayment): Promise<StepOutcome> {
    const handler = this.#handlers?.[name];
    if (!handler) {
      this.logger.warn({ step: name, link: event.link.id }, 'a payment step ran before the steps were handed over; offered again later');
      return 'retry';
    }
    try {
      const outcome = await handler(event);
      if (typeof outcome === 'object') return outcome;
      return outcome === 'retry' ? 'retry' : 'done';
    } catch (error) {
      this.logger.error({ err: error, step: name, link: event.link.id, status: event.status }, 'a payment step failed; offered again later');
      return 'retry';
    }
  }

  /** Runs every step but those in `done`, in turn: how each went. */
  async emit(event: SettledPayment, done: ReadonlySet<string> = new Set()): Promise<Map<PaymentStep, StepOutcome>> {
    const outcomes = new Map<PaymentStep, StepOutcome>();
    for (const name of PAYMENT_STEPS) if (!done.has(name)) outcomes.set(name, await this.run(name, event));
    return outcomes;
  }
}
