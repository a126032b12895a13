import * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import type { Logger } from '../logger.js';
import { OncePerId } from './once-per-id.js';
import { parseRecord } from './records.js';

/**
 * What the weekly insights digest (src/services/insights/digest.ts) keeps:
 *
 * - `insights-digest-guilds`: the guilds whose admins named a digest channel, each with its time
 *   zone: a round reads this one record and nothing per guild until a guild's Monday 09:00 comes,
 *   so a guild without the digest costs nothing at all.
 * - `insights-digest:<guild>:<Monday>`: the week's post, claimed before it is made (once-per-id,
 *   under a lock shared by every process on Redis): neither a restart nor a second process posts
 *   a week twice. A crash between the claim and the post loses that week's digest rather than
 *   making two.
 */

/** Longer than a week, so a claim outlives every round of its Monday. */
export const DIGEST_CLAIM_MS = 8 * 24 * 60 * 60_000;
const REGISTRY = 'insights-digest-guilds';
const registrySchema = z.record(z.string(), z.string());

export class InsightsDigestStore {
  readonly #claims: OncePerId;

  /** `locks`: shared by every process on one Redis (src/coordination); this process's own otherwise. */
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    private readonly locks: Locks = new KeyLock(),
  ) {
    this.#claims = new OncePerId(keyv, 'insights-digest', locks);
  }

  /** Every guild with the digest on, and its time zone. */
  async guilds(): Promise<Record<string, string>> {
    return parseRecord(registrySchema, await this.keyv.get(REGISTRY), () => ({}), this.logger, REGISTRY);
  }

  /** The guild joins the registry with its time zone (`zone`), or leaves it (undefined). */
  async include(guildId: string, zone: string | undefined): Promise<void> {
    await this.locks.run(REGISTRY, async () => {
      const before = await this.guilds();
      if (before[guildId] === zone) return;
      const after = { ...before };
      if (zone === undefined) delete after[guildId];
      else after[guildId] = zone;
      if (Object.keys(after).length > 0) await this.keyv.set(REGISTRY, after);
      else await this.keyv.delete(REGISTRY);
    });
  }

  /** True for the first claim of the guild's week (`monday`: its local date), false after, in any process. */
  claim(guildId: string, monday: string): Promise<boolean> {
    return this.#claims.claim(`${guildId}:${monday}`, DIGEST_CLAIM_MS);
  }
}
