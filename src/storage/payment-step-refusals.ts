import * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import type { Logger } from '../logger.js';
import { ShownOnceList } from './shown-once.js';

/**
 * A settled payment's Discord steps Discord refused for good (DMs closed, the log
 * channel closed to the bot, a message or channel deleted), kept per guild until /shop-admin status
 * has shown them once: `payment-steps-refused:<guild>`, the newest few. The refusal itself is on the
 * transaction's record (`refused`, src/storage/payment-watch.ts): this list only says it once.
 */
const refusedStepSchema = z.array(z.object({ userId: z.string(), linkId: z.string(), step: z.string(), reason: z.string(), at: z.number() }));
export type RefusedStep = z.infer<typeof refusedStepSchema>[number];

export class PaymentStepRefusals {
  readonly #list: ShownOnceList<RefusedStep>;

  constructor(keyv: Keyv, logger: Logger, locks: Locks) {
    this.#list = new ShownOnceList({ keyv, logger, locks, schema: refusedStepSchema, key: (guildId) => `payment-steps-refused:${guildId}` });
  }

  note(guildId: string, refused: RefusedStep): Promise<void> {
    return this.#list.note(guildId, refused);
  }

  /** The refused steps not shown yet, taken off the record: a status shows each once. */
  take(guildId: string): Promise<RefusedStep[]> {
    return this.#list.take(guildId);
  }
}
