import type { Logger } from '../logger.js';
import type { PaymentLink } from '../storage/payment-links.js';

/**
 * What the bot learns once a payment link's transaction reaches a final status at the store
 * (docs/spaceis-api.md, "transaction/info"). The payment watcher emits each settled link exactly
 * once across restarts and processes (the record's state changes under its lock, and only the
 * change emits); the member's DM, the log channel, metrics and buyers' roles listen. A listener
 * that fails is logged and never stops the others.
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
   * could have paid (issue 28: a guess is not a fact); absent when exactly one member's links could match.
   */
  confirmedBy?: string;
}

/**
 * A listener's answer: nothing (or 'done') when its step is finished, 'retry' when Discord did not
 * answer and the same event must be offered to it again later (the payment watcher keeps the step as
 * not done and offers it again on a later round, with backoff).
 */
export type PaymentListener = (event: SettledPayment) => Promise<void | 'done' | 'retry'>;

export class PaymentEvents {
  readonly #listeners: PaymentListener[] = [];

  constructor(private readonly logger: Logger) {}

  on(listener: PaymentListener): void {
    this.#listeners.push(listener);
  }

  /** Runs every listener in turn; resolves when all are done (failures logged). */
  async emit(event: SettledPayment): Promise<void> {
    for (const listener of this.#listeners) {
      try {
        await listener(event);
      } catch (error) {
        this.logger.error({ err: error, link: event.link.id, status: event.status }, 'a payment listener failed');
      }
    }
  }
}
