import * as z from 'zod';
import type Keyv from 'keyv';
import type { Logger } from '../logger.js';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import { GroupCommit } from './group-commit.js';
import { LinkDayIndex } from './link-day-index.js';
import { LinkDayRepairs } from './link-day-repairs.js';
import type { SecretBox } from '../security/secret-box.js';
import { LinkPruning, type PrunedLink } from './link-pruning.js';
import { PaymentLinkSeal } from './payment-link-seal.js';
import { claimed, dayOf, idListSchema, memberKey, newLinkId, recentKey, recordKey, storedLinkSchema, urlHashOf, urlKey, type NewPaymentLink, type PaymentClaim, type PaymentLink, type ReadableLink, type StoredLink } from './payment-link-record.js';
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
 *
 * With ENCRYPTION_KEY set, a record's URL is written sealed (payment-link-record.ts, `StoredLink`):
 * every read opens it (AES-256-GCM of a few hundred bytes, microseconds beside the storage read),
 * and a URL that does not open reads as `url: undefined`, which a change written back keeps sealed
 * as it was. A record written in the clear (before sealing, or without the key) is read as it is and
 * sealed at its next change; one never changed again leaves with the retention period.
 */
export type { NewPaymentLink, PaymentClaim, PaymentLink, ReadableLink } from './payment-link-record.js';
export { unrecordedLink } from './payment-link-record.js';

/** How long records are kept: long enough to answer "what did I order last month?", not forever. */
export const LINK_RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;
/** The guild's newest links, for autocomplete without a member: one small read, bounded whatever the guild's size. */
export const RECENT_LIMIT = 50;
/** Links written in one statement at most: a crowd's moment is a few dozen; each link is about 1 KB with its indexes. */
const LINKS_WRITTEN_TOGETHER = 100;
/** Records read at once when walking a member's index. */
const READ_BATCH = 10;
/** Records read in one statement by `getEach`: a bounded statement, whatever the number of open links. */
const READ_MANY = 100;

export class PaymentLinkRepository {
  readonly #locks: Locks;
  readonly #days: LinkDayIndex;
  /** Days whose link was written but could not be noted in the day lists (see `create`). */
  readonly #repairs: LinkDayRepairs;
  /** Deletes what the retention period no longer keeps, with every index entry pointing at it. */
  readonly #pruning: LinkPruning;
  /** The URL as stored: sealed with ENCRYPTION_KEY, or in the clear without it (payment-link-seal.ts). */
  readonly #seal: PaymentLinkSeal;
  /** New links of one guild and day made at the same moment, written together (`create`). */
  readonly #creations = new GroupCommit<ReadableLink, undefined>((_guildDay, records) => this.#writeTogether(records), LINKS_WRITTEN_TOGETHER);

  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    /** Shared by every process on one Redis (src/coordination); this process's own otherwise. */
    locks: Locks = new KeyLock(),
    /** Seals the URLs written (ENCRYPTION_KEY); undefined: they are kept in the clear, as before sealing existed. */
    secretBox?: SecretBox,
  ) {
    this.#seal = new PaymentLinkSeal(logger, secretBox);
    this.#locks = locks;
    this.#days = new LinkDayIndex(keyv, this.#locks, logger);
    this.#repairs = new LinkDayRepairs(keyv, this.#locks, this.#days, logger);
    this.#pruning = new LinkPruning(keyv, this.#locks, this.#days, logger, (guildId, id) => this.#prunable(guildId, id));
  }

  /**
   * Keeps a new link: its record, its URL index entry, its place in the member's and the guild's
   * recent index and in its day's index, written together in one statement (see sqlite-adapter.ts;
   * on Redis one MULTI). A failure there rejects, and nothing was written. The guild's first link of
   * a day then notes the day in the lists pruning walks; once the record is written, a failure of
   * that step no longer fails the link: it keeps its id (the one the member is shown), and the day is
   * remembered and noted on the next prune pass (`repairIndexes`).
   *
   * Checkouts crowd in, and the guild's lists are every checkout's: links of one guild and day made
   * at the same moment are written together (group-commit.ts, `#writeTogether`), each still under
   * its member's lock.
   */
  async create(link: NewPaymentLink): Promise<ReadableLink> {
    const record: ReadableLink = { ...link, id: await this.freshId(link.guildId) };
    const day = dayOf(record.createdAt);
    await this.#locks.run(memberKey(record.guildId, record.userId), () => this.#creations.join(`${record.guildId} ${day}`, record));
    try {
      await this.#days.noteDay(day, record.guildId);
    } catch (error) {
      if (!isStorageError(error)) throw error;
      await this.#repairs.remember(day, record, error.key);
    }
    return record;
  }

  /**
   * New links of one guild and day, in the order they came, written in one statement under the
   * guild's locks (its recent list, its day), each in its member's list. Every caller holds its
   * member's lock while waiting (create): two links of one member are never in one batch.
   */
  async #writeTogether(records: ReadableLink[]): Promise<undefined[]> {
    const { guildId, createdAt } = records[0]!;
    const recent = recentKey(guildId);
    const day = dayOf(createdAt);
    const members = records.map((record) => memberKey(record.guildId, record.userId));
    await this.#locks.run(recent, () =>
      this.#locks.run(this.#days.lockKey(day, guildId), async () => {
        const [lists, dayWrites] = await Promise.all([
          this.keyv.getMany<unknown>([recent, ...members]),
          this.#days.addition(day, records.map((record): [string, string] => [guildId, record.id])),
        ]);
        const idsAt = (index: number, key: string) => parseRecord(idListSchema, lists[index], () => [], this.logger, key);
        const newestFirst = records.map((record) => record.id).reverse();
        await this.keyv.setMany([
          ...records.flatMap((record, index) => [
            { key: recordKey(record.guildId, record.id), value: this.#seal.toStored(record, undefined) },
            { key: urlKey(record.guildId, record.url), value: record.id },
            { key: members[index]!, value: [record.id, ...idsAt(index + 1, members[index]!)] },
          ]),
          { key: recent, value: [...newestFirst, ...idsAt(0, recent)].slice(0, RECENT_LIMIT) },
          ...dayWrites,
        ]);
      }),
    );
    return records.map(() => undefined);
  }

  /**
   * Notes in the day lists every day a link was written on but could not be noted (see `create`).
   * Runs at the start of every prune pass; returns how many were noted.
   */
  async repairIndexes(): Promise<number> {
    return this.#repairs.repair();
  }

  async get(guildId: string, id: string): Promise<PaymentLink | undefined> {
    const stored = await this.#stored(guildId, id);
    return stored && this.#seal.fromStored(stored);
  }

  /**
   * The records of several links, in the order asked (undefined where one is gone), read in one
   * statement per READ_MANY refs instead of one per link: the payment watcher reads every open link
   * of a license each round it is due, and a crowd of checkouts makes hundreds.
   */
  async getEach(refs: readonly { guildId: string; linkId: string }[]): Promise<(PaymentLink | undefined)[]> {
    const found: (PaymentLink | undefined)[] = [];
    for (let start = 0; start < refs.length; start += READ_MANY) {
      const keys = refs.slice(start, start + READ_MANY).map((ref) => recordKey(ref.guildId, ref.linkId));
      const raws: unknown[] = await this.keyv.getMany(keys);
      raws.forEach((raw, index) => {
        const stored = raw === undefined ? undefined : parseRecord<StoredLink | undefined>(storedLinkSchema, raw, () => undefined, this.logger, keys[index]!);
        found.push(stored && this.#seal.fromStored(stored));
      });
    }
    return found;
  }

  /** A transaction's claim on the link's record, under its lock (the record's rule: payment-link-record.ts, `claimed`); 'taken' when the link is gone too. */
  async claim(guildId: string, id: string, claim: PaymentClaim, now: number): Promise<'claimed' | 'taken'> {
    let outcome: 'claimed' | 'taken' = 'taken';
    await this.update(guildId, id, (record) => {
      const next = claimed(record, claim, now);
      outcome = next.outcome;
      return next.record;
    });
    return outcome;
  }

  async update(guildId: string, id: string, change: (link: PaymentLink) => PaymentLink): Promise<PaymentLink | undefined> {
    return this.#locks.run(recordKey(guildId, id), async () => {
      const stored = await this.#stored(guildId, id);
      if (!stored) return undefined;
      const next = change(this.#seal.fromStored(stored));
      await this.keyv.set(recordKey(guildId, id), this.#seal.toStored(next, stored));
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
    const stored = await this.#stored(guildId, id.data);
    if (!stored) return undefined;
    // Sealed, the URL's hash stands for it (SHA-256: equal hashes are equal URLs), so a link sealed
    // with another key is still recognised, and nothing is opened to compare.
    const same = stored.url !== undefined ? stored.url === url : stored.urlHash === urlHashOf(url);
    return same ? this.#seal.fromStored(stored) : undefined;
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
   * Deletes every record created before `cutoff` with everything that points at it (see
   * link-pruning.ts); returns how many were deleted.
   */
  async pruneOlderThan(cutoff: number): Promise<number> {
    return this.#pruning.olderThan(cutoff);
  }

  async #stored(guildId: string, id: string): Promise<StoredLink | undefined> {
    const key = recordKey(guildId, id);
    const raw: unknown = await this.keyv.get(key);
    if (raw === undefined) return undefined;
    return parseRecord<StoredLink | undefined>(storedLinkSchema, raw, () => undefined, this.logger, key);
  }

  async #prunable(guildId: string, id: string): Promise<PrunedLink | undefined> {
    const stored = await this.#stored(guildId, id);
    if (!stored) return undefined;
    return { ...stored, urlHash: stored.urlHash ?? urlHashOf(stored.url ?? '') };
  }

  private async getMany(guildId: string, ids: string[]): Promise<PaymentLink[]> {
    const links = await Promise.all(ids.map((id) => this.get(guildId, id)));
    return links.filter((link): link is PaymentLink => link !== undefined);
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

