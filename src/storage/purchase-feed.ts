import * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import type { Logger } from '../logger.js';
import { OncePerId } from './once-per-id.js';
import { parseRecord } from './records.js';

/**
 * What the purchase feed (src/services/purchase-feed.ts) keeps:
 *
 * - `feed-guilds`: the guilds whose admins switched the feed on, so a payment watcher round knows
 *   which licenses and servers to read without visiting every guild.
 * - `feed-posted:<guild>:<transaction>`: one record per transaction the feed posted (or claimed
 *   for posting) in that guild, kept POSTED_TTL_MS (src/storage/once-per-id.ts): however many
 *   servers and purchases, nothing is forgotten while the store still lists it, so a restart or a
 *   second process never posts one twice.
 *
 * Nothing here holds a nick, an amount or a URL.
 */

/** Far longer than a row stays among a server's 30 latest buyers on any shop the feed is worth having on. */
export const POSTED_TTL_MS = 30 * 24 * 60 * 60_000;
/** Claims this process remembers made (so a row still listed costs no storage read each round). */
const KNOWN_KEPT = 50_000;

const listSchema = z.array(z.string());
const REGISTRY = 'feed-guilds';

export class PurchaseFeedStore {
  readonly #posted: OncePerId;
  /** `<guild>:<transaction>` claimed (by anyone) as far as this process knows, oldest first. */
  readonly #known = new Set<string>();

  /** `locks`: shared by every process on one Redis (src/coordination); this process's own otherwise. */
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    private readonly locks: Locks = new KeyLock(),
  ) {
    this.#posted = new OncePerId(keyv, 'feed-posted', locks);
  }

  async guilds(): Promise<string[]> {
    return parseRecord(listSchema, await this.keyv.get(REGISTRY), () => [], this.logger, REGISTRY);
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
   * Of `transactionIds`, those never posted in the guild, each claimed (one record per id, under
   * its lock: shared on Redis) before they are returned for posting. A crash after the claim loses
   * a post rather than making two. Ids this process saw claimed cost no storage read.
   */
  async claim(guildId: string, transactionIds: readonly string[]): Promise<string[]> {
    const fresh: string[] = [];
    for (const id of new Set(transactionIds)) {
      const key = `${guildId}:${id}`;
      if (this.#known.has(key)) continue;
      if (await this.#posted.claim(key, POSTED_TTL_MS)) fresh.push(id);
      this.#remember(key);
    }
    return fresh;
  }

  #remember(key: string): void {
    this.#known.add(key);
    if (this.#known.size <= KNOWN_KEPT) return;
    const oldest = this.#known.values().next();
    if (!oldest.done) this.#known.delete(oldest.value);
  }
}
