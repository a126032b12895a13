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
 * Nothing is ever deleted from either side, and the source is only read.
 */

/** The kinds of records the bot keeps, for the counts an operator sees at the end. */
export const RECORD_KINDS = ['carts', 'nicks', 'guildSettings', 'linkRecords', 'linkIndexes', 'checkoutTimes', 'other'] as const;
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
  /** Records the target already had exactly as the source (an earlier run copied them). */
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
  replace?: boolean;
  /** Told before the copy starts: what is copied where, and what the target holds. */
  onStart?: (plan: { source: string; target: string; sourceRecords: number; targetRecords: number }) => void;
  onProgress?: (copied: number, total: number) => void;
}): Promise<MigrationCounts> {
  if (options.from.trim() === options.to.trim() && options.from.trim() !== '') {
    throw new MigrationError('--from and --to name the same storage: nothing to copy');
  }
  const source = await openRecordStore(options.from, '--from', 'source');
  let target: RecordStore | undefined;
  try {
    target = await openRecordStore(options.to, '--to', 'target');
    const sourceRecords = await source.count();
    if (sourceRecords === 0) throw new MigrationError(`--from holds no shop bot records (${source.description}): is it the STORAGE_URL the bot used?`);
    const targetRecords = await target.count();
    options.onStart?.({ source: source.description, target: target.description, sourceRecords, targetRecords });

    if (targetRecords > 0 && !options.replace) {
      const check = await copy(source, target, { write: false });
      if (check.replaced > 0) {
        throw new MigrationError(
          `The target already holds ${group(check.replaced)} records that differ from the source's (the bot may have run on it since an earlier copy): ` +
            'nothing was written. Run again with --replace to overwrite those with the source\'s values (nothing else in the target is touched).',
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
    identical: 0,
  };
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
      if (before === undefined) counts.created += 1;
      else counts.replaced += 1;
      changes.push(record);
    }
    if (options.write && changes.length > 0) await target.write(changes);
    options.onProgress?.(counts.total + counts.expired);
  }
  return counts;
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
