import { z } from 'zod';
import type Keyv from 'keyv';
import type { Logger } from '../logger.js';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import { LinkDayIndex, type DayEntry } from './link-day-index.js';
import {
  dayOf,
  memberKey,
  newLinkId,
  paymentLinkSchema,
  recentKey,
  recordKey,
  urlKey,
  type NewPaymentLink,
  type PaymentLink,
} from './payment-link-record.js';
import { parseRecord } from './records.js';
import { isStorageError } from './storage-error.js';

/**
 * Every payment link the bot hands out is kept, so moderators can answer "is this link real,
 * what did I order?". Records live per guild, with small indexes: by member (newest first,
 * so a page is a slice, not a scan), by the exact URL (for verification), the guild's most
 * recent links (for autocomplete), and by UTC day of creation (so pruning reads only what it
 * deletes). Records are kept for LINK_RETENTION_DAYS.
 *
 * The record and its indexes are one write; noting its day in the lists pruning walks is a second
 * one (see `create`). When only that second write fails, the link keeps its id and the day is
 * noted on the next prune pass (`repairIndexes`).
 */
export type { NewPaymentLink, PaymentLink } from './payment-link-record.js';
export { unrecordedLink } from './payment-link-record.js';

const idListSchema = z.array(z.string());
/** Days (and their guild) whose link could not be noted in the day lists: `[day, guildId]`. */
const repairsSchema = z.array(z.tuple([z.string(), z.string()]));
const REPAIRS_KEY = 'link-day-repairs';

/** How long records are kept: long enough to answer "what did I order last month?", not forever. */
export const LINK_RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;
/** The guild's newest links, for autocomplete without a member: one small read, bounded whatever the guild's size. */
export const RECENT_LIMIT = 50;
/** Records read at once when walking a member's index. */
const READ_BATCH = 10;

export class PaymentLinkRepository {
  readonly #locks: Locks;
  readonly #days: LinkDayIndex;
  /** Days this process could not note, even in the stored repair list: noted on the next prune pass. */
  readonly #unnoted = new Map<string, [day: string, guildId: string]>();

  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    /** Shared by every process on one Redis (src/coordination); this process's own otherwise. */
    locks: Locks = new KeyLock(),
  ) {
    this.#locks = locks;
    this.#days = new LinkDayIndex(keyv, this.#locks, logger);
  }

  /**
   * Keeps a new link: its record, its URL index entry, its place in the member's and the guild's
   * recent index and in its day's index, written together in one statement (see sqlite-adapter.ts;
   * on Redis one MULTI): checkouts crowd in, and every write holds up the interactions behind it.
   * A failure there rejects, and nothing was written. The guild's first link of a day then notes the
   * day in the lists pruning walks; once the record is written, a failure of that step no longer
   * fails the link: it keeps its id (the one the member is shown), and the day is remembered and
   * noted on the next prune pass (`repairIndexes`).
   */
  async create(link: NewPaymentLink): Promise<PaymentLink> {
    const record: PaymentLink = { ...link, id: await this.freshId(link.guildId) };
    const member = memberKey(record.guildId, record.userId);
    const recent = recentKey(record.guildId);
    const day = dayOf(record.createdAt);
    await this.#locks.run(member, () =>
      this.#locks.run(recent, () =>
        this.#locks.run(this.#days.lockKey(day, record.guildId), async () => {
          const [memberIds, recentIds, dayWrites] = await Promise.all([
            this.ids(member),
            this.ids(recent),
            this.#days.addition(day, [record.guildId, record.id]),
          ]);
          await this.keyv.setMany([
            { key: recordKey(record.guildId, record.id), value: record },
            { key: urlKey(record.guildId, record.url), value: record.id },
            { key: member, value: [record.id, ...memberIds] },
            { key: recent, value: [record.id, ...recentIds].slice(0, RECENT_LIMIT) },
            ...dayWrites,
          ]);
        }),
      ),
    );
    try {
      await this.#days.noteDay(day, record.guildId);
    } catch (error) {
      if (!isStorageError(error)) throw error;
      await this.#rememberUnnoted(day, record, error.key);
    }
    return record;
  }

  /**
   * Notes in the day lists every day a link was written on but could not be noted (see `create`):
   * those stored in the repair list, and those this process only holds in memory. Runs at the start
   * of every prune pass; a failure leaves them to the next one. Returns how many were noted.
   */
  async repairIndexes(): Promise<number> {
    const stored = await this.repairsStored();
    const pending = new Map(this.#unnoted);
    for (const [day, guildId] of stored) pending.set(`${day} ${guildId}`, [day, guildId]);
    if (pending.size === 0) return 0;
    for (const [name, [day, guildId]] of pending) {
      await this.#days.noteDay(day, guildId);
      this.#unnoted.delete(name);
    }
    if (stored.length > 0) {
      await this.#locks.run(REPAIRS_KEY, async () => {
        const left = (await this.repairsStored()).filter(([day, guildId]) => !pending.has(`${day} ${guildId}`));
        if (left.length > 0) await this.keyv.set(REPAIRS_KEY, left);
        else await this.keyv.delete(REPAIRS_KEY);
      });
    }
    this.logger.info({ days: pending.size }, 'payment-link day index repaired');
    return pending.size;
  }

  /**
   * A link was written but its day could not be noted: remembered in this process and, if storage
   * takes it, in the stored repair list, so a restart before the next prune pass does not lose it.
   */
  async #rememberUnnoted(day: string, link: PaymentLink, failedKey: string | undefined): Promise<void> {
    this.#unnoted.set(`${day} ${link.guildId}`, [day, link.guildId]);
    let stored = true;
    try {
      await this.#locks.run(REPAIRS_KEY, async () => {
        const repairs = await this.repairsStored();
        if (repairs.some(([other, guildId]) => other === day && guildId === link.guildId)) return;
        await this.keyv.set(REPAIRS_KEY, [...repairs, [day, link.guildId]]);
      });
    } catch (error) {
      if (!isStorageError(error)) throw error;
      stored = false;
    }
    this.logger.warn(
      { link: link.id, guild: link.guildId, day, storage: { operation: 'write', key: failedKey }, repairStored: stored },
      'payment link recorded, but its day index could not be written: repaired on the next prune pass',
    );
  }

  private async repairsStored(): Promise<[string, string][]> {
    return parseRecord(repairsSchema, await this.keyv.get(REPAIRS_KEY), () => [], this.logger, REPAIRS_KEY);
  }

  async get(guildId: string, id: string): Promise<PaymentLink | undefined> {
    const key = recordKey(guildId, id);
    const raw: unknown = await this.keyv.get(key);
    if (raw === undefined) return undefined;
    return parseRecord(paymentLinkSchema.optional(), raw, () => undefined, this.logger, key);
  }

  async update(guildId: string, id: string, change: (link: PaymentLink) => PaymentLink): Promise<PaymentLink | undefined> {
    return this.#locks.run(recordKey(guildId, id), async () => {
      const current = await this.get(guildId, id);
      if (!current) return undefined;
      const next = change(current);
      await this.keyv.set(recordKey(guildId, id), next);
      return next;
    });
  }

  /**
   * Marks the link withdrawn by `by` at `at`. A link withdrawn before keeps its first withdrawal
   * (`already`), so two moderators racing see one of them win. Undefined when there is no such link.
   */
  async revoke(guildId: string, id: string, by: string, at: number): Promise<{ link: PaymentLink; already: boolean } | undefined> {
    let already = false;
    const link = await this.update(guildId, id, (current) => {
      already = current.revoked !== undefined;
      return already ? current : { ...current, revoked: { by, at } };
    });
    return link && { link, already };
  }

  /** The record whose URL is exactly `url` (whole string, byte for byte), if this guild's bot issued it. */
  async findByUrl(guildId: string, url: string): Promise<PaymentLink | undefined> {
    const id = z.string().safeParse(await this.keyv.get(urlKey(guildId, url)));
    if (!id.success) return undefined;
    const record = await this.get(guildId, id.data);
    return record?.url === url ? record : undefined;
  }

  /** A page of one member's links, newest first. */
  async listForMember(guildId: string, userId: string, offset: number, limit: number): Promise<{ links: PaymentLink[]; total: number }> {
    const ids = await this.memberIds(guildId, userId);
    const page = ids.slice(offset, offset + limit);
    const links = await Promise.all(page.map((id) => this.get(guildId, id)));
    return { links: links.filter((link): link is PaymentLink => link !== undefined), total: ids.length };
  }

  /**
   * One member's links created at or after `since`, newest first, at most `max`. Reads the member's
   * index in batches and stops at the first older link, so it costs what it returns.
   */
  async listForMemberSince(guildId: string, userId: string, since: number, max: number): Promise<PaymentLink[]> {
    const ids = await this.memberIds(guildId, userId);
    const found: PaymentLink[] = [];
    for (let offset = 0; offset < ids.length; offset += READ_BATCH) {
      const batch = await this.getMany(guildId, ids.slice(offset, offset + READ_BATCH));
      for (const link of batch) {
        if (link.createdAt < since || found.length >= max) return found;
        found.push(link);
      }
    }
    return found;
  }

  /** The guild's most recent links (up to 50, or `limit`), newest first. */
  async listRecent(guildId: string, limit = RECENT_LIMIT): Promise<PaymentLink[]> {
    return this.getMany(guildId, (await this.ids(recentKey(guildId))).slice(0, limit));
  }

  /**
   * The prune pass: notes the days left to repair (see `create`), then deletes records older than
   * the retention period; returns how many were deleted.
   */
  async prune(now: number): Promise<number> {
    await this.repairIndexes();
    return this.pruneOlderThan(now - LINK_RETENTION_DAYS * DAY_MS);
  }

  /**
   * Deletes every record created before `cutoff` with its URL index entry and its place in the
   * member's and the guild's recent index. Walks only the days that start before the cutoff, so
   * the work is proportional to what is deleted (plus one partial day), never a scan of all guilds.
   */
  async pruneOlderThan(cutoff: number): Promise<number> {
    let deleted = 0;
    for (const day of await this.#days.days()) {
      if (Date.parse(day) >= cutoff) break;
      deleted += await this.pruneDay(day, cutoff);
    }
    return deleted;
  }

  private async pruneDay(day: string, cutoff: number): Promise<number> {
    const old = await this.#days.rewriteDay(day, async (entries) => {
      const records = await Promise.all(entries.map(([guildId, id]) => this.get(guildId, id)));
      const old: PaymentLink[] = [];
      const keep: DayEntry[] = [];
      entries.forEach((entry, index) => {
        const link = records[index];
        // An entry whose record is already gone is dropped; a newer one (the day the cutoff falls in) stays.
        if (link && link.createdAt < cutoff) old.push(link);
        else if (link) keep.push(entry);
      });
      for (const link of old) await this.deleteRecord(link);
      return { keep, result: old };
    }).then((perGuild) => perGuild.flat());
    await this.removeFromIndexes(old);
    return old.length;
  }

  private async deleteRecord(link: PaymentLink): Promise<void> {
    await this.keyv.delete(recordKey(link.guildId, link.id));
    const byUrl = urlKey(link.guildId, link.url);
    // Another record may own the URL index entry (a store that returned the same URL twice): leave it.
    if ((await this.keyv.get(byUrl)) === link.id) await this.keyv.delete(byUrl);
  }

  /** One write per member and per guild, however many of their links were deleted. */
  private async removeFromIndexes(links: PaymentLink[]): Promise<void> {
    const gone = new Map<string, Set<string>>();
    for (const link of links) {
      for (const key of [memberKey(link.guildId, link.userId), recentKey(link.guildId)]) {
        const ids = gone.get(key) ?? new Set<string>();
        ids.add(link.id);
        gone.set(key, ids);
      }
    }
    for (const [key, ids] of gone) await this.changeIds(key, (current) => current.filter((id) => !ids.has(id)));
  }

  private async getMany(guildId: string, ids: string[]): Promise<PaymentLink[]> {
    const links = await Promise.all(ids.map((id) => this.get(guildId, id)));
    return links.filter((link): link is PaymentLink => link !== undefined);
  }

  private async changeIds(key: string, change: (ids: string[]) => string[]): Promise<void> {
    await this.#locks.run(key, async () => {
      const next = change(await this.ids(key));
      if (next.length > 0) await this.keyv.set(key, next);
      else await this.keyv.delete(key);
    });
  }

  private async ids(key: string): Promise<string[]> {
    return parseRecord(idListSchema, await this.keyv.get(key), () => [], this.logger, key);
  }

  private async memberIds(guildId: string, userId: string): Promise<string[]> {
    return this.ids(memberKey(guildId, userId));
  }

  private async freshId(guildId: string): Promise<string> {
    for (;;) {
      const id = newLinkId();
      if (!(await this.keyv.has(recordKey(guildId, id)))) return id;
    }
  }
}

