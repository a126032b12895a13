import * as z from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import type { Logger } from '../logger.js';
import { parseRecord } from './records.js';

/**
 * Roles for buyers held back for staff (services/rewards/granting.ts: the nick is not only the
 * buyer's, or the buyer asked for links for many nicks), listed where staff look (/shop-admin
 * status, /links user) with their Give role button, whether or not the guild has a log channel.
 * `posted` says the log post was made: until then the payment's roles step is offered again, like
 * any payment step, and ends with it (services/payment-watch/tell.ts; NOTIFY_ATTEMPTS in machine.ts).
 *
 * Key: `held-roles:<guild>`, the newest MAX_HELD entries, kept HELD_DAYS after the last write; an
 * entry leaves when staff give the role (RoleRewards.giveHeldBack). One read and one write per
 * role held back, under the record's lock; nothing for a payment whose roles are given.
 */

export const HELD_DAYS = 90;
const HELD_MS = HELD_DAYS * 86_400_000;
/** Entries kept per guild: the newest. */
export const MAX_HELD = 50;

const heldSchema = z.array(
  z.object({
    linkId: z.string(),
    roleId: z.string(),
    userId: z.string(),
    nick: z.string(),
    at: z.number(),
    manyNicks: z.number().optional(),
    posted: z.boolean().optional(),
  }),
);
export type HeldRole = z.infer<typeof heldSchema>[number];

export class HeldRoles {
  readonly #locks: Locks;

  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    locks: Locks = new KeyLock(),
  ) {
    this.#locks = locks;
  }

  /** Newest first. */
  async list(guildId: string): Promise<HeldRole[]> {
    const key = heldKey(guildId);
    return parseRecord(heldSchema, await this.keyv.get(key), () => [], this.logger, key);
  }

  /** The role held back for this link (again: the entry is replaced, its `posted` kept). */
  async add(guildId: string, entry: HeldRole): Promise<void> {
    await this.#change(guildId, (held) => {
      const before = held.find((one) => same(one, entry));
      return [{ ...entry, ...(before?.posted ? { posted: true } : {}) }, ...held.filter((one) => !same(one, entry))].slice(0, MAX_HELD);
    });
  }

  async markPosted(guildId: string, linkId: string, roleId: string): Promise<void> {
    await this.#change(guildId, (held) => held.map((one) => (same(one, { linkId, roleId }) ? { ...one, posted: true } : one)));
  }

  /** Staff gave the role (or there is nothing left to give): no longer listed. */
  async forget(guildId: string, linkId: string, roleId: string): Promise<void> {
    await this.#change(guildId, (held) => held.filter((one) => !same(one, { linkId, roleId })));
  }

  async #change(guildId: string, change: (held: HeldRole[]) => HeldRole[]): Promise<void> {
    const key = heldKey(guildId);
    await this.#locks.run(key, async () => {
      const next = change(await this.list(guildId));
      if (next.length === 0) await this.keyv.delete(key);
      else await this.keyv.set(key, next, HELD_MS);
    });
  }
}

const same = (a: Pick<HeldRole, 'linkId' | 'roleId'>, b: Pick<HeldRole, 'linkId' | 'roleId'>) => a.linkId === b.linkId && a.roleId === b.roleId;

function heldKey(guildId: string): string {
  return `held-roles:${guildId}`;
}
