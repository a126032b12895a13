import * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import type { Logger } from '../logger.js';
import { parseRecord } from './records.js';

/**
 * Which members of a guild paid with a nick lately: a link paid on sound evidence only (never a free
 * checkout, or anyone could hold back a player's roles for 90 days; never a payment staff confirmed
 * or one of a member casting a net of many nicks, or a copycat's win would hold back the real
 * player's roles: services/rewards.ts, `onPayment`), so a
 * role for buyers is given only to the member whose nick it is (the store tells which nick paid,
 * never who typed it: nicks are public). Written by services/rewards.ts when a payment settles.
 *
 * Key: `nick-use:<guild>:<nick>` (the nick in ASCII lower case: no Unicode folding, so the Kelvin
 * sign is not a K), one record per guild and nick holding the newest MAX_MEMBERS members, each with
 * the last time they checked out with it, newest first; kept NICK_USE_DAYS after the last write.
 * Two members are enough to say "not only this member's", so dropping the oldest never changes an answer.
 */

export const NICK_USE_DAYS = 90;
const NICK_USE_MS = NICK_USE_DAYS * 86_400_000;
/** Members kept per nick: the newest ones (two would do; a few more for the operator reading the record). */
const MAX_MEMBERS = 5;

const usesSchema = z.array(z.object({ userId: z.string(), at: z.number() }));
type NickUse = z.infer<typeof usesSchema>[number];

/** A nick compared as Minecraft compares them: ASCII letters without case, nothing else folded. */
export function nickKeyPart(nick: string): string {
  return nick.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

export class NickUses {
  readonly #locks: Locks;

  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    locks: Locks = new KeyLock(),
  ) {
    this.#locks = locks;
  }

  /** The member paid with `nick` at `at`: one read and one write, under the record's lock. */
  async record(guildId: string, nick: string, userId: string, at: number): Promise<void> {
    const key = useKey(guildId, nick);
    await this.#locks.run(key, async () => {
      const others = (await this.#uses(key)).filter((use) => use.userId !== userId && use.at > at - NICK_USE_MS);
      const uses: NickUse[] = [{ userId, at }, ...others].slice(0, MAX_MEMBERS);
      await this.keyv.set(key, uses, NICK_USE_MS);
    });
  }

  /** Whether a member other than `userId` paid with `nick` since `since`. */
  async usedByOthers(guildId: string, nick: string, userId: string, since: number): Promise<boolean> {
    return (await this.#uses(useKey(guildId, nick))).some((use) => use.userId !== userId && use.at >= since);
  }

  async #uses(key: string): Promise<NickUse[]> {
    return parseRecord(usesSchema, await this.keyv.get(key), () => [], this.logger, key);
  }
}

function useKey(guildId: string, nick: string): string {
  return `nick-use:${guildId}:${nickKeyPart(nick)}`;
}
