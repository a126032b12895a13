import * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import type { Logger } from '../logger.js';
import { ShownOnceList } from './shown-once.js';

/**
 * Where role work for buyers ends for good: every 4xx Discord answers counts
 * towards its ban of the bot's IP (10 000 invalid requests in 10 minutes), so what Discord refused
 * once, or a guild the bot is no longer in, is never asked again.
 *
 * Keys: `bot-left:<guild>` (the bot was removed from the guild, GUILD_DELETE: its grants and
 * removals there are dropped without a request; deleted when the bot joins again);
 * `role-removals-refused:<guild>` (ended roles Discord refused to take back, final: the newest
 * few, until /shop-admin status has shown them once).
 */

const refusedSchema = z.array(z.object({ userId: z.string(), roleId: z.string(), problem: z.string(), at: z.number() }));
export type RefusedRemoval = z.infer<typeof refusedSchema>[number];

export class RoleWorkEnds {
  readonly #refusedList: ShownOnceList<RefusedRemoval>;

  constructor(
    private readonly keyv: Keyv,
    logger: Logger,
    locks: Locks = new KeyLock(),
  ) {
    this.#refusedList = new ShownOnceList({ keyv, logger, locks, schema: refusedSchema, key: refusedKey });
  }

  async botLeft(guildId: string): Promise<boolean> {
    return (await this.keyv.get(leftKey(guildId))) !== undefined;
  }

  async noteBotLeft(guildId: string, at: number): Promise<void> {
    await this.keyv.set(leftKey(guildId), at);
  }

  async forgetBotLeft(guildId: string): Promise<void> {
    await this.keyv.delete(leftKey(guildId));
  }

  /** Notes a removal Discord refused, for the guild's next status (one read-modify-write under the guild's lock). */
  async noteRefused(guildId: string, refused: RefusedRemoval): Promise<void> {
    await this.#refusedList.note(guildId, refused);
  }

  /** The refused removals not shown yet, taken off the record: a status shows each once. */
  takeRefused(guildId: string): Promise<RefusedRemoval[]> {
    return this.#refusedList.take(guildId);
  }
}

function leftKey(guildId: string): string {
  return `bot-left:${guildId}`;
}
function refusedKey(guildId: string): string {
  return `role-removals-refused:${guildId}`;
}
