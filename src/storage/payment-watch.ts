import { z } from 'zod';
import type Keyv from 'keyv';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import type { Logger } from '../logger.js';
import { LINK_RETENTION_DAYS } from './payment-links.js';
import { parseRecord } from './records.js';

/**
 * What the payment watcher (src/services/payment-watch/) keeps, per license, so that a restart or a
 * second process carries on where it stopped and never handles a transaction twice:
 *
 * - `pay-licenses`: the licenses that have open links or payments to follow: what a round visits,
 *   so nothing is read for licenses with neither.
 * - `pay-open:<license>`: the open links (issued by the bot, not matched, not withdrawn, within
 *   their lifetime), each with what matching needs (nick, items, when issued, the member), so a round reads one
 *   record per license instead of every guild's links. Written at checkout, pruned when a link is
 *   matched, withdrawn or expired.
 * - `pay-state:<license>`: when each server was polled and is due next, the payments still
 *   `pending` at the store with when to ask again (their follow-up schedule), and whether the
 *   license's API has the payment endpoints at all.
 * - `pay-tx:<license>:<transaction>`: each transaction handled (matched to a link, or looked at and
 *   found to belong to none), kept longer than link records are.
 *
 * Nothing here holds a URL, an e-mail or anything else about the buyer but the nick the link was issued for.
 */

const DAY_MS = 86_400_000;
/** Handled transactions are remembered longer than the links they could match are kept. */
export const HANDLED_TTL_MS = (LINK_RETENTION_DAYS + 10) * DAY_MS;

const openEntrySchema = z.object({
  guildId: z.string(),
  linkId: z.string(),
  nick: z.string(),
  createdAt: z.number(),
  items: z.array(z.object({ variantId: z.string(), quantity: z.number().int(), serverId: z.string() })),
  /** The member the link was issued to (issue 28: purchases are matched per member). Entries written before it was kept lack it: their record says. */
  userId: z.string().optional(),
});
export type OpenLink = z.infer<typeof openEntrySchema>;
const openListSchema = z.array(openEntrySchema);

const followUpSchema = z.object({
  transactionId: z.string(),
  guildId: z.string(),
  linkId: z.string(),
  /** Asked this many times since it was matched. */
  attempt: z.number().int(),
  nextAt: z.number(),
  /** When it was matched: following stops after a while. */
  since: z.number(),
});
export type FollowUp = z.infer<typeof followUpSchema>;

const serverPollSchema = z.object({
  polledAt: z.number(),
  nextAt: z.number(),
  /** Transactions listed without a readable date, with when the watcher first saw each (still listed ones only). */
  dateless: z.record(z.string(), z.number()).optional(),
});
export type ServerPoll = z.infer<typeof serverPollSchema>;

const watchStateSchema = z.object({
  servers: z.record(z.string(), serverPollSchema).default({}),
  follow: z.array(followUpSchema).default([]),
  /** The license's API answered 404 to a payments endpoint: not asked again before `retryAt`. */
  unsupported: z.object({ since: z.number(), retryAt: z.number(), message: z.string().optional() }).optional(),
});
export type WatchState = z.infer<typeof watchStateSchema>;

const handledSchema = z.object({ at: z.number(), guildId: z.string().optional(), linkId: z.string().optional() });
const licenseListSchema = z.array(z.string());

const REGISTRY = 'pay-licenses';
const openKey = (license: string) => `pay-open:${license}`;
const stateKey = (license: string) => `pay-state:${license}`;
const handledKey = (license: string, transactionId: string) => `pay-tx:${license}:${transactionId}`;

export const emptyWatchState = (): WatchState => ({ servers: {}, follow: [] });

export class PaymentWatchStore {
  /** `locks`: shared by every process on one Redis (src/coordination); this process's own otherwise. */
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    private readonly locks: Locks = new KeyLock(),
  ) {}

  /** The licenses with open links or payments to follow. */
  async licenses(): Promise<string[]> {
    return this.#read(licenseListSchema, REGISTRY, () => []);
  }

  /**
   * A link the bot just issued starts being watched. The license joins the registry under the same
   * lock a round retires it under, so a link added while the license is being retired is never lost.
   */
  async addOpen(license: string, entry: OpenLink): Promise<void> {
    await this.locks.run(openKey(license), async () => {
      const entries = await this.openLinks(license);
      await this.keyv.set(openKey(license), [...entries.filter((open) => !sameLink(open, entry)), entry]);
      await this.#changeRegistry((licenses) => (licenses.includes(license) ? licenses : [...licenses, license]));
    });
  }

  async openLinks(license: string): Promise<OpenLink[]> {
    return this.#read(openListSchema, openKey(license), () => []);
  }

  /** Stops watching these links (matched, withdrawn or expired). */
  async closeLinks(license: string, links: readonly Pick<OpenLink, 'guildId' | 'linkId'>[]): Promise<void> {
    if (links.length === 0) return;
    await this.locks.run(openKey(license), async () => {
      const entries = await this.openLinks(license);
      const kept = entries.filter((entry) => !links.some((link) => sameLink(entry, link)));
      if (kept.length === entries.length) return;
      if (kept.length > 0) await this.keyv.set(openKey(license), kept);
      else await this.keyv.delete(openKey(license));
    });
  }

  /**
   * Takes the license out of the registry when it has no open link and (`stillFollowing` false) no
   * payment to follow; checked again under the lock links are added under. True when retired.
   */
  async retireIfIdle(license: string, stillFollowing: boolean): Promise<boolean> {
    if (stillFollowing) return false;
    return this.locks.run(openKey(license), async () => {
      if ((await this.openLinks(license)).length > 0) return false;
      await this.#changeRegistry((licenses) => licenses.filter((known) => known !== license));
      return true;
    });
  }

  async state(license: string): Promise<WatchState> {
    return this.#read(watchStateSchema, stateKey(license), emptyWatchState);
  }

  /** Written by the license's one watcher at a time (runAlone), so without a lock. */
  async saveState(license: string, state: WatchState): Promise<void> {
    await this.keyv.set(stateKey(license), state);
  }

  async handled(license: string, transactionId: string): Promise<boolean> {
    return (await this.keyv.get(handledKey(license, transactionId))) !== undefined;
  }

  /** Remembers a transaction as handled: matched to `link`, or (no link) looked at and found to belong to none. */
  async markHandled(license: string, transactionId: string, at: number, link?: Pick<OpenLink, 'guildId' | 'linkId'>): Promise<void> {
    const record: z.infer<typeof handledSchema> = { at, ...(link ? { guildId: link.guildId, linkId: link.linkId } : {}) };
    await this.keyv.set(handledKey(license, transactionId), record, HANDLED_TTL_MS);
  }

  async #changeRegistry(change: (licenses: string[]) => string[]): Promise<void> {
    await this.locks.run(REGISTRY, async () => {
      const before = await this.licenses();
      const after = change(before);
      if (after.length === before.length && after.every((license, index) => license === before[index])) return;
      if (after.length > 0) await this.keyv.set(REGISTRY, after);
      else await this.keyv.delete(REGISTRY);
    });
  }

  async #read<T>(schema: z.ZodType<T>, key: string, fallback: () => T): Promise<T> {
    return parseRecord(schema, await this.keyv.get(key), fallback, this.logger, key);
  }
}

function sameLink(a: Pick<OpenLink, 'guildId' | 'linkId'>, b: Pick<OpenLink, 'guildId' | 'linkId'>): boolean {
  return a.guildId === b.guildId && a.linkId === b.linkId;
}
