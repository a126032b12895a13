import { existsSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, resolve } from 'node:path';
import { StorageUnreachableError } from './storage-error.js';

/**
 * A SQLite file or folder the bot may not write (a root-owned Docker bind mount, a folder copied
 * by another user): SQLite says only SQLITE_READONLY or SQLITE_CANTOPEN, with no path. This names
 * the file, the user the bot runs as, the owner it found, and what to change.
 */

const NOT_WRITABLE_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_PERM']);

export function isNotWritable(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && NOT_WRITABLE_CODES.has(code);
}

/** The user this process runs as, e.g. "node (uid 1000)". */
function processUser(): { name: string; uid: number } {
  const info = userInfo();
  return { name: info.username, uid: info.uid };
}

/** The file itself if it exists, else the nearest folder above it that does: the one whose owner matters. */
function nearestExisting(path: string): string {
  let current = path;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

export function notWritableError(file: string, cause: unknown): StorageUnreachableError {
  const path = resolve(file);
  const folder = dirname(path);
  const user = processUser();
  const blocking = nearestExisting(existsSync(path) ? path : folder);
  const stats = statSync(blocking, { throwIfNoEntry: false });
  const owner = stats ? `, and ${blocking} belongs to uid ${stats.uid} (mode ${(stats.mode & 0o777).toString(8)})` : '';
  const message =
    `STORAGE_URL's file ${path} cannot be written: the bot runs as user ${user.name} (uid ${user.uid})${owner}. ` +
    `Let that user write the folder and the file (e.g.  chown -R ${user.uid} ${folder}), or point STORAGE_URL at a folder it can write. ` +
    `In Docker: the volume mounted at /app/data must belong to the image's user, uid 1000 (node):  chown -R 1000 <the folder on the host>.`;
  return new StorageUnreachableError(message, { cause });
}
