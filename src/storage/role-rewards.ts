import * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import type { Logger } from '../logger.js';
import { LINK_RETENTION_DAYS } from './payment-links.js';
import { dayOf } from './payment-link-record.js';
import { parseRecord, stringListSchema, stringTripleListSchema } from './records.js';

/**
 * Roles for buyers (/shop-admin rewards): which role a paid link's product or variant earns in a
 * guild, and the roles the bot gave, so a timed one is taken back when its time is up.
 *
 * Keys: `rewards:<guild>` (the guild's rewards, one small list); `role-grant:<guild>:<user>:<role>`
 * (a role the bot gave: when it ends, or never); `role-granted:<guild>:<link>:<role>` (a paid link's
 * role was handled once, kept as long as link records); `role-expiry:<day>` (the grants that end on
 * that UTC day) and `role-expiry-days` (the days with such entries, oldest first), so the removal
 * pass reads only what is due; `role-power-told:<guild>:<role>` (the admins were told the role
 * carries power over the server: one post, not one per buyer).
 */

/** A guild has at most this many rewards: one autocomplete page, one list. */
export const MAX_REWARDS_PER_GUILD = 25;
export const REWARD_DAYS = { min: 1, max: 3650 } as const;

const snowflake = z.string().regex(/^\d{5,20}$/);

const rewardSchema = z.object({
  /** A short id, the same for the same item and role (adding them again replaces the reward). */
  id: z.string(),
  /** Any variant of this product, or (with `variantId`) that one variant. */
  productId: z.string(),
  variantId: z.string().optional(),
  /** Names as the offer had them when the reward was added: the list and the log read them. */
  serverName: z.string(),
  productName: z.string(),
  variantName: z.string().optional(),
  roleId: snowflake,
  /** How long the role is kept; null: for good. */
  days: z.number().int().min(REWARD_DAYS.min).max(REWARD_DAYS.max).nullable(),
  addedBy: z.string(),
  addedAt: z.number(),
});
export type Reward = z.infer<typeof rewardSchema>;
const rewardsSchema = z.array(rewardSchema);

const grantSchema = z.object({
  /** When the role is taken back; null: never (a reward for good, or a timed one on top of it). */
  expiresAt: z.number().nullable(),
  grantedAt: z.number(),
  /**
   * Since when the role has been timed without a break (the first purchase; `grantedAt` moves with
   * each extension): a role staff gave by hand after it is theirs (services/rewards/expiry.ts).
   * Grants written before it: `grantedAt`.
   */
  timedSince: z.number().optional(),
  /** The link that gave or last extended it. */
  linkId: z.string(),
  /**
   * Discord refused to take the role back when its time was up (the admins were told once): final,
   * never sent again (src/services/rewards/expiry.ts); the grant is kept so a rebuy stays timed.
   */
  removalFailed: z.object({ at: z.number(), problem: z.string() }).optional(),
  /**
   * Links whose days this grant already counts but whose grant Discord did not answer (their retry
   * must not add the days again, even after another link extended the grant). A few at most.
   */
  unconfirmed: z.array(z.string()).optional(),
});
export type RoleGrant = z.infer<typeof grantSchema>;

/**
 * What became of a paid link's role: given (or extended), already held from elsewhere, failed
 * (reported once), not given because the role carries power over the server (`powerful`), or held
 * back because the link's nick is not only this member's (`withheld`: staff may still give it).
 */
export type GrantOutcome = 'granted' | 'held' | 'failed' | 'powerful' | 'withheld';
const markerSchema = z.object({
  at: z.number(),
  outcome: z.enum(['granted', 'held', 'failed', 'powerful', 'withheld']),
  /** Withheld: the days the link earned, for the member of staff who gives it. */
  days: z.number().nullable().optional(),
  /** Given by a member of staff (the log post's Give role button). */
  by: z.string().optional(),
});
export type GrantMarker = z.infer<typeof markerSchema>;

/** One timed grant in a day's expiry index. */
export type ExpiryEntry = [guildId: string, userId: string, roleId: string];
const entriesSchema = stringTripleListSchema();
const daysSchema = stringListSchema();
const DAYS_KEY = 'role-expiry-days';
const MARKER_TTL_MS = LINK_RETENTION_DAYS * 86_400_000;

export class RoleRewardRepository {
  readonly #locks: Locks;

  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    /** Shared by every process on one Redis (src/coordination); this process's own otherwise. */
    locks: Locks = new KeyLock(),
  ) {
    this.#locks = locks;
  }

  async rewards(guildId: string): Promise<Reward[]> {
    const key = rewardsKey(guildId);
    return parseRecord(rewardsSchema, await this.keyv.get(key), () => [], this.logger, key);
  }

  /** Read-modify-write of the guild's rewards under its lock; `change` returns undefined to write nothing. */
  async updateRewards(guildId: string, change: (current: Reward[]) => Reward[] | undefined): Promise<{ before: Reward[]; after: Reward[] }> {
    return this.#locks.run(rewardsKey(guildId), async () => {
      const before = await this.rewards(guildId);
      const after = change(before);
      if (!after) return { before, after: before };
      await this.keyv.set(rewardsKey(guildId), rewardsSchema.parse(after));
      return { before, after };
    });
  }

  /** Runs `work` holding the lock of one member's role: every grant, extension and removal of it goes one at a time. */
  withGrant<T>(guildId: string, userId: string, roleId: string, work: () => Promise<T>): Promise<T> {
    return this.#locks.run(grantKey(guildId, userId, roleId), work);
  }

  async grant(guildId: string, userId: string, roleId: string): Promise<RoleGrant | undefined> {
    const key = grantKey(guildId, userId, roleId);
    const raw: unknown = await this.keyv.get(key);
    if (raw === undefined) return undefined;
    return parseRecord(grantSchema.optional(), raw, () => undefined, this.logger, key);
  }

  async marker(guildId: string, linkId: string, roleId: string): Promise<GrantMarker | undefined> {
    const parsed = markerSchema.safeParse(await this.keyv.get(markerKey(guildId, linkId, roleId)));
    return parsed.success ? parsed.data : undefined;
  }

  async mark(guildId: string, linkId: string, roleId: string, marker: GrantMarker): Promise<void> {
    await this.keyv.set(markerKey(guildId, linkId, roleId), marker, MARKER_TTL_MS);
  }

  /**
   * Keeps a member's role as given by `linkId` (hold `withGrant`): the grant and, for a timed grant,
   * its entry in the day it ends, written together. The link's marker is written once Discord gave it.
   */
  async saveGrant(guildId: string, userId: string, roleId: string, grant: RoleGrant): Promise<void> {
    const writes: { key: string; value: unknown; ttl?: number }[] = [{ key: grantKey(guildId, userId, roleId), value: grant }];
    if (grant.expiresAt === null) {
      await this.keyv.setMany(writes);
      return;
    }
    const day = dayOf(grant.expiresAt);
    await this.#locks.run(expiryKey(day), async () => {
      const entries = await this.dayEntries(day);
      const entry: ExpiryEntry = [guildId, userId, roleId];
      const listed = entries.some((other) => sameEntry(other, entry));
      await this.keyv.setMany([...writes, ...(listed ? [] : [{ key: expiryKey(day), value: [...entries, entry] }])]);
    });
    await this.#noteDay(day);
  }

  /** Puts back what a member's grant was before a role change that failed (hold `withGrant`). */
  async restoreGrant(guildId: string, userId: string, roleId: string, previous: RoleGrant | undefined): Promise<void> {
    if (previous) await this.keyv.set(grantKey(guildId, userId, roleId), previous);
    else await this.keyv.delete(grantKey(guildId, userId, roleId));
  }

  /** Rewrites a grant in place (hold `withGrant`): the note of a failed removal. */
  async updateGrant(guildId: string, userId: string, roleId: string, grant: RoleGrant): Promise<void> {
    await this.keyv.set(grantKey(guildId, userId, roleId), grant);
  }

  /**
   * Whether the admins were already told that this role carries power over the server (one post for
   * every buyer after); `told` notes it, `forget` once the role is fine again, so a new edit is told.
   */
  async powerTold(guildId: string, roleId: string): Promise<boolean> {
    return (await this.keyv.get(powerKey(guildId, roleId))) !== undefined;
  }

  async notePowerTold(guildId: string, roleId: string, at: number): Promise<void> {
    await this.keyv.set(powerKey(guildId, roleId), at, MARKER_TTL_MS);
  }

  async forgetPowerTold(guildId: string, roleId: string): Promise<void> {
    await this.keyv.delete(powerKey(guildId, roleId));
  }

  async deleteGrant(guildId: string, userId: string, roleId: string): Promise<void> {
    await this.keyv.delete(grantKey(guildId, userId, roleId));
  }

  /** The days up to `now`'s (UTC) with grants ending on them, oldest first, each with its entries. */
  async dueDays(now: number): Promise<{ day: string; entries: ExpiryEntry[] }[]> {
    const today = dayOf(now);
    const days = (await this.#days()).filter((day) => day <= today);
    const due: { day: string; entries: ExpiryEntry[] }[] = [];
    for (const day of days) due.push({ day, entries: await this.dayEntries(day) });
    return due;
  }

  /** Takes handled entries off a day's index; a day left empty leaves the index of days. */
  async dropFromDay(day: string, handled: readonly ExpiryEntry[]): Promise<void> {
    if (handled.length === 0) return;
    const emptied = await this.#locks.run(expiryKey(day), async () => {
      const left = (await this.dayEntries(day)).filter((entry) => !handled.some((other) => sameEntry(other, entry)));
      if (left.length > 0) await this.keyv.set(expiryKey(day), left);
      else await this.keyv.delete(expiryKey(day));
      return left.length === 0;
    });
    if (!emptied) return;
    await this.#locks.run(DAYS_KEY, async () => {
      // A grant may have been indexed under this day again since: the day stays listed then.
      if ((await this.dayEntries(day)).length > 0) return;
      await this.keyv.set(DAYS_KEY, (await this.#days()).filter((other) => other !== day));
    });
  }

  async dayEntries(day: string): Promise<ExpiryEntry[]> {
    const key = expiryKey(day);
    return parseRecord(entriesSchema, await this.keyv.get(key), () => [], this.logger, key);
  }

  async #days(): Promise<string[]> {
    return parseRecord(daysSchema, await this.keyv.get(DAYS_KEY), () => [], this.logger, DAYS_KEY);
  }

  async #noteDay(day: string): Promise<void> {
    if ((await this.#days()).includes(day)) return;
    await this.#locks.run(DAYS_KEY, async () => {
      const days = await this.#days();
      if (!days.includes(day)) await this.keyv.set(DAYS_KEY, [...days, day].sort());
    });
  }
}

function sameEntry(a: ExpiryEntry, b: ExpiryEntry): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

function rewardsKey(guildId: string): string {
  return `rewards:${guildId}`;
}
function grantKey(guildId: string, userId: string, roleId: string): string {
  return `role-grant:${guildId}:${userId}:${roleId}`;
}
function markerKey(guildId: string, linkId: string, roleId: string): string {
  return `role-granted:${guildId}:${linkId}:${roleId}`;
}
function powerKey(guildId: string, roleId: string): string {
  return `role-power-told:${guildId}:${roleId}`;
}
function expiryKey(day: string): string {
  return `role-expiry:${day}`;
}
