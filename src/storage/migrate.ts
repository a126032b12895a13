import { createdAtOf, indexPair, mergedRaw, recordKeysToOrder, sourceAdds, type IndexPair } from './index-merge.js';
import { MigrationError, openRecordStore, PAGE_SIZE, type RecordStore, type StoredRecord } from './migration-stores.js';

export { MigrationError } from './migration-stores.js';

/**
 * Copies every record of one installation's storage (STORAGE_URL) into another: what
 * `npm run migrate-storage -- --from sqlite://… --to redis://…` runs (src/migrate-storage.ts).
 *
 * Records are copied as stored: the string Keyv serialized (value and absolute expiry), under the
 * key layout openStorage uses (keyv-store.ts): `shopbot:<key>` in SQLite's `keyv` table,
 * `<prefix>::<key>` on Redis. Copying the stored string rather than re-encoding the value keeps
 * every record byte for byte, so a record already copied is recognised as identical, and a second
 * run changes nothing. A record that expires (checkout times, demo orders) keeps its expiry: Redis
 * gets the remaining time as the key's TTL; one already expired is skipped.
 *
 * Nothing is ever deleted from either side, and the source is only read. An index list (a member's
 * links, the guild's recent links, the day index: index-merge.ts) that both sides hold is merged,
 * never overwritten: the target keeps the ids it added since an earlier copy.
 */

/** The kinds of records the bot keeps, for the counts an operator sees at the end. */
export const RECORD_KINDS = ['carts', 'nicks', 'guildSettings', 'linkRecords', 'linkIndexes', 'checkoutTimes', 'licenseShops', 'other'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** Key prefixes as the repositories in src/storage write them. */
export function kindOf(key: string): RecordKind {
  if (key.startsWith('cart:')) return 'carts';
  if (key.startsWith('nick:')) return 'nicks';
  if (key.startsWith('guild:')) return 'guildSettings';
  if (key.startsWith('link:')) return 'linkRecords';
  // payment-link-record.ts and link-day-index.ts: by URL, by member, the guild's recent, by day (and days left to note).
  if (/^(link-url|links-of|links-recent|link-day|link-day-buckets|link-day-guilds):/.test(key) || key === 'link-days' || key === 'link-day-repairs') return 'linkIndexes';
  if (key.startsWith('checkout-times:')) return 'checkoutTimes';
  if (key.startsWith('license-shop:')) return 'licenseShops';
  return 'other';
}

export interface MigrationCounts {
  /** Records copied (or found already copied), by kind. */
  byKind: Record<RecordKind, number>;
  /** Guild settings that hold a guild's own (sealed) license. */
  guildLicenses: number;
  /** All records copied. */
  total: number;
  /** Records of the source already expired: not copied. */
  expired: number;
  /** Records the target did not have. */
  created: number;
  /** Records the target had with another value, now the source's. */
  replaced: number;
  /** Index lists the target had without some of the source's ids, now holding the ids of both. */
  merged: number;
  /** Records the target already had exactly as the source (an earlier run copied them), and index lists already holding every id of the source's. */
  identical: number;
}


/**
 * Copies every record of `from` into `to`. Before writing into a target that already holds
 * records, it checks that none of them differs from the source's: they would be the bot's own
 * newer writes on the target (it ran there since an earlier copy), which a copy would overwrite
 * with older ones. Then nothing is written unless `replace` is set. Records of the target that
 * the source does not have are never touched.
 */
export async function migrateStorage(options: {
  from: string;
  to: string;
  /** What messages call each URL by: the flag or the environment variable it came from (default --from, --to). Never the URL. */
  fromName?: string;
  toName?: string;
  replace?: boolean;
  /** Told before the copy starts: what is copied where, and what the target holds. */
  onStart?: (plan: { source: string; target: string; sourceRecords: number; targetRecords: number }) => void;
  onProgress?: (copied: number, total: number) => void;
}): Promise<MigrationCounts> {
  const { fromName = '--from', toName = '--to' } = options;
  if (options.from.trim() === options.to.trim() && options.from.trim() !== '') {
    throw new MigrationError(`${fromName} and ${toName} name the same storage: nothing to copy`);
  }
  const source = await openRecordStore(options.from, fromName, 'source');
  let target: RecordStore | undefined;
  try {
    target = await openRecordStore(options.to, toName, 'target');
    const sourceRecords = await source.count();
    if (sourceRecords === 0) throw new MigrationError(`${fromName} holds no shop bot records (${source.description}): is it the STORAGE_URL the bot used?`);
    const targetRecords = await target.count();
    options.onStart?.({ source: source.description, target: target.description, sourceRecords, targetRecords });

    if (targetRecords > 0 && !options.replace) {
      const check = await copy(source, target, { write: false });
      if (check.replaced + check.merged > 0) {
        throw new MigrationError(
          `The target already holds ${group(check.replaced + check.merged)} records that differ from the source's (the bot may have run on it since an earlier copy): ` +
            'nothing was written. Run again with --replace to overwrite those with the source\'s values (index lists get the ids of both; nothing else in the target is touched).',
        );
      }
    }
    return await copy(source, target, { write: true, onProgress: (copied) => options.onProgress?.(copied, sourceRecords) });
  } finally {
    await Promise.allSettled([source.close(), target?.close()]);
  }
}

async function copy(source: RecordStore, target: RecordStore, options: { write: boolean; onProgress?: (copied: number) => void }): Promise<MigrationCounts> {
  const counts: MigrationCounts = {
    byKind: Object.fromEntries(RECORD_KINDS.map((kind) => [kind, 0])) as Record<RecordKind, number>,
    guildLicenses: 0,
    total: 0,
    expired: 0,
    created: 0,
    replaced: 0,
    merged: 0,
    identical: 0,
  };
  // Index lists both sides hold differently: merged once every record is copied, when the times
  // that order a member's links can be read whichever page their records came in.
  const merges: { record: StoredRecord; pair: IndexPair }[] = [];
  for await (const page of source.pages(PAGE_SIZE, () => (counts.expired += 1))) {
    const existing = await target.lookup(page.map((record) => record.key));
    const changes: StoredRecord[] = [];
    for (const record of page) {
      const kind = kindOf(record.key);
      counts.byKind[kind] += 1;
      counts.total += 1;
      if (kind === 'guildSettings' && holdsLicense(record.raw)) counts.guildLicenses += 1;
      const before = existing.get(record.key);
      if (before === record.raw) {
        counts.identical += 1;
        continue;
      }
      const pair = before === undefined ? undefined : indexPair(record.key, before, record.raw);
      if (pair && !sourceAdds(pair)) {
        counts.identical += 1;
      } else if (pair) {
        merges.push({ record, pair });
      } else {
        if (before === undefined) counts.created += 1;
        else counts.replaced += 1;
        changes.push(record);
      }
    }
    if (options.write && changes.length > 0) await target.write(changes);
    options.onProgress?.(counts.total + counts.expired);
  }
  for (let start = 0; start < merges.length; start += PAGE_SIZE) {
    const batch = merges.slice(start, start + PAGE_SIZE);
    const keys = [...new Set(batch.flatMap(({ pair }) => recordKeysToOrder(pair)))];
    // A link's creation time from the source's record, else the target's (a link only the target has).
    const [inSource, inTarget] = await Promise.all([lookupAll(source, keys), lookupAll(target, keys)]);
    const createdAt = (key: string) => createdAtOf(inSource.get(key) ?? inTarget.get(key));
    const changes: StoredRecord[] = [];
    for (const { record, pair } of batch) {
      const raw = mergedRaw(pair, createdAt);
      // The source's ids that the target lacked may all fall past the recent list's limit.
      if (raw === pair.targetRaw) {
        counts.identical += 1;
        continue;
      }
      counts.merged += 1;
      changes.push({ ...record, raw });
    }
    if (options.write && changes.length > 0) await target.write(changes);
  }
  return counts;
}

/** `lookup` a page of keys at a time: one statement or round trip stays bounded however long the lists. */
async function lookupAll(store: RecordStore, keys: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let start = 0; start < keys.length; start += PAGE_SIZE) {
    for (const [key, raw] of await store.lookup(keys.slice(start, start + PAGE_SIZE))) found.set(key, raw);
  }
  return found;
}

/** Whether a stored guild settings record holds the guild's own license (its presence only: the sealed value is never read). */
function holdsLicense(raw: string): boolean {
  try {
    const stored = JSON.parse(raw) as { value?: { license?: unknown } };
    return typeof stored.value?.license === 'object' && stored.value.license !== null;
  } catch {
    return false;
  }
}

/** 20431 → "20 431": counts an operator reads at a glance. */
export function group(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}
