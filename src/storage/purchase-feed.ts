import { z } from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import type { Logger } from '../logger.js';
import { parseRecord } from './records.js';

/**
 * What the purchase feed (src/services/purchase-feed.ts) keeps:
 *
 * - `feed-guilds`: the guilds whose admins switched the feed on, so a payment watcher round knows
 *   which licenses and servers to read without visiting every guild.
 * - `feed-posted:<guild>`: the store's transaction ids the feed has posted (or claimed for posting)
 *   in that guild, newest last, at most POSTED_KEPT: a restart or a second process never posts one twice.
 *
 * Nothing here holds a nick, an amount or a URL.
 */

/** More than a full latest_buyers page (30 rows) for each of many servers: an id leaves the list long after it left the store's. */
export const POSTED_KEPT = 1_000;

const listSchema = z.array(z.string());
const REGISTRY = 'feed-guilds';
const postedKey = (guildId: string) => `feed-posted:${guildId}`;

export class PurchaseFeedStore {
  /** `locks`: shared by every process on one Redis (src/coordination); this process's own otherwise. */
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    private readonly locks: Locks = new KeyLock(),
  ) {}

  async guilds(): Promise<string[]> {
    return this.#read(REGISTRY);
  }

  /** The guild joins (`on`) or leaves the feed's registry. */
  async include(guildId: string, on: boolean): Promise<void> {
    await this.locks.run(REGISTRY, async () => {
      const before = await this.guilds();
      const has = before.includes(guildId);
      if (has === on) return;
      const after = on ? [...before, guildId] : before.filter((known) => known !== guildId);
      if (after.length > 0) await this.keyv.set(REGISTRY, after);
      else await this.keyv.delete(REGISTRY);
    });
  }

  /**
   * Under the guild's lock (shared on Redis): of `transactionIds`, those never posted in the guild,
   * which are remembered as posted before `post` runs with them. A crash after the claim loses a
   * post rather than making two.
   */
  async claim(guildId: string, transactionIds: readonly string[], post: (fresh: string[]) => Promise<void>): Promise<void> {
    await this.locks.run(postedKey(guildId), async () => {
      const posted = await this.#read(postedKey(guildId));
      const known = new Set(posted);
      const fresh = [...new Set(transactionIds)].filter((id) => !known.has(id));
      if (fresh.length === 0) return;
      await this.keyv.set(postedKey(guildId), [...posted, ...fresh].slice(-POSTED_KEPT));
      await post(fresh);
    });
  }

  async #read(key: string): Promise<string[]> {
    return parseRecord(listSchema, await this.keyv.get(key), () => [], this.logger, key);
  }
}
