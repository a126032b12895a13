import type { Clock } from '../../clock.js';
import type { PaymentStepRefusals, RefusedStep } from '../../storage/payment-step-refusals.js';
import type { SettledPayment } from '../payment-events.js';

/**
 * A settled payment's step Discord refused for good, told once after outbox.ts
 * recorded it on the transaction: in the guild's log channel, unless the log post is what was
 * refused (then the bot's log, written by outbox.ts, and the status only), and in the guild's next
 * /shop-admin status (`take`: each shown once, as ended roles Discord refused are).
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
