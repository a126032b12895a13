import { isRedisUrl, parseRedisUrl } from '../coordination/redis-url.js';

/**
 * The rule for a storage URL (STORAGE_URL, and migrate-storage's --from and --to): sqlite://<file>,
 * or redis://host:port/db[?prefix=name]. Returns what is wrong, without the setting's name and
 * never repeating the URL (it may hold Redis' password); undefined when nothing is.
 */
export function storageUrlProblem(value: string): string | undefined {
  if (isRedisUrl(value)) {
    const target = parseRedisUrl(value);
    return 'problem' in target ? target.problem : undefined;
  }
  if (!value.startsWith('sqlite://') || value.length === 'sqlite://'.length) {
    return 'must be sqlite://<file> (e.g. sqlite://data/store.sqlite) or redis://host:port/db (e.g. redis://127.0.0.1:6379/0)';
  }
  return undefined;
}
