import type Keyv from 'keyv';
import type { Logger } from '../logger.js';
import type { Locks } from '../coordination/coordination.js';
import type { DayEntry, LinkDayIndex } from './link-day-index.js';
import { idListSchema, memberKey, recentKey, recordKey, urlKeyOfHash, type PaymentLink } from './payment-link-record.js';
import { parseRecord } from './records.js';

/** What pruning needs of a record: where it is indexed. Its URL by hash only, so nothing sealed is opened. */
export type PrunedLink = Pick<PaymentLink, 'guildId' | 'id' | 'userId' | 'createdAt'> & { urlHash: string };
/** The repository's own record read, so a damaged record is logged and skipped the same way everywhere. */
type ReadRecord = (guildId: string, id: string) => Promise<PrunedLink | undefined>;

/**
 * Deletes payment-link records created before a cutoff, with their URL index entry and their place
 * in the member's and the guild's recent index. Walks only the days that start before the cutoff
 * (see link-day-index.ts), so the work is proportional to what is deleted (plus one partial day),
 * never a scan of all guilds.
 */
export class LinkPruning {
  constructor(
    private readonly keyv: Keyv,
    private readonly locks: Locks,
    private readonly days: LinkDayIndex,
    private readonly logger: Logger,
    private readonly read: ReadRecord,
  ) {}

  /** Deletes every record created before `cutoff`; returns how many were deleted. */
  async olderThan(cutoff: number): Promise<number> {
    let deleted = 0;
    for (const day of await this.days.days()) {
      if (Date.parse(day) >= cutoff) break;
      deleted += await this.pruneDay(day, cutoff);
    }
    return deleted;
  }

  private async pruneDay(day: string, cutoff: number): Promise<number> {
    const old = await this.days.rewriteDay(day, async (entries) => {
      const records = await Promise.all(entries.map(([guildId, id]) => this.read(guildId, id)));
      const old: PrunedLink[] = [];
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

  private async deleteRecord(link: PrunedLink): Promise<void> {
    await this.keyv.delete(recordKey(link.guildId, link.id));
    const byUrl = urlKeyOfHash(link.guildId, link.urlHash);
    // Another record may own the URL index entry (a store that returned the same URL twice): leave it.
    if ((await this.keyv.get(byUrl)) === link.id) await this.keyv.delete(byUrl);
  }

  /** One write per member and per guild, however many of their links were deleted. */
  private async removeFromIndexes(links: PrunedLink[]): Promise<void> {
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

  private async changeIds(key: string, change: (ids: string[]) => string[]): Promise<void> {
    await this.locks.run(key, async () => {
      const next = change(parseRecord(idListSchema, await this.keyv.get(key), () => [], this.logger, key));
      if (next.length > 0) await this.keyv.set(key, next);
      else await this.keyv.delete(key);
    });
  }
}
