import { linkSync, mkdirSync, readFileSync, readlinkSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { isRedisUrl } from '../coordination/redis-url.js';
import { isNotWritable, notWritableError } from './storage-access.js';

/**
 * One bot per SQLite file. Two bots on one file (a second `npm start`, pm2 beside a terminal, a
 * redeploy that overlaps) both answered every member and both watched payments, and SQLite's own
 * lock never noticed: each write is short. The bot that starts first writes a lease beside the file
 * (`<file>.holder`: its host, process id, since when) and renews it; a second bot finds it and
 * refuses to start. This is not SQLite's lock: a backup or another tool holding the file a moment
 * is still waited out by the storage itself.
 *
 * A lease ends LEASE_MS after it was last renewed, so a holder that crashed (no chance to remove it)
 * blocks another machine's start for that long at most. On the holder's own machine a lease whose
 * process is gone is taken at once. On Redis there is no lease: several processes share it by design.
 */

/** How long a lease holds without renewal: a crashed holder elsewhere blocks starts this long at most. */
export const LEASE_MS = 30_000;
/** How often the holder renews: three renewals per lease, so one slow disk write never lets it lapse. */
const RENEW_MS = 10_000;

interface Holder {
  host: string;
  pid: number;
  /** The process-id space the pid belongs to (Linux: /proc/self/ns/pid): containers sharing a host name each have their own. */
  pids?: string;
  since: string;
  renewedAt: string;
}

/** This process's pid space, when the system names it; a pid is compared only within one. */
function pidSpace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

export class StorageHeldError extends Error {
  constructor(file: string, holder: Holder) {
    super(
      `Another bot already uses STORAGE_URL's file ${file}: process ${holder.pid} on ${holder.host}, since ${holder.since}. ` +
        'Two bots on one file would both answer every member and both watch payments, so this one does not start. ' +
        `Stop the other one first (a bot that crashed holds the file ${LEASE_MS / 1000} s at most), or point STORAGE_URL at another file. ` +
        'To run several bot processes, give them one Redis: STORAGE_URL=redis://host:port/db (docs/scaling-out.md).',
    );
    this.name = 'StorageHeldError';
  }
}

export interface SqliteLease {
  /** Stops renewing and removes the lease if it is still this process's. */
  release(): void;
}

export interface LeaseOptions {
  now?: () => number;
  /** Another bot took the lease over (it found this one's lapsed): this process must stop. */
  onLost?: (holder: Holder) => void;
}

/** Takes the lease of STORAGE_URL's SQLite file, or throws StorageHeldError; undefined on Redis and in memory. */
export function takeSqliteLease(storageUrl: string, options: LeaseOptions = {}): SqliteLease | undefined {
  if (isRedisUrl(storageUrl)) return undefined;
  const file = storageUrl.replace(/^sqlite:\/\//, '');
  if (file === ':memory:') return undefined;
  const now = options.now ?? Date.now;
  const path = `${resolve(file)}.holder`;
  const since = new Date(now()).toISOString();
  const pids = pidSpace();
  const own = (renewedAt: number): Holder => ({ host: hostname(), pid: process.pid, ...(pids ? { pids } : {}), since, renewedAt: new Date(renewedAt).toISOString() });
  // Written whole to a file of its own first: a reader never sees half a lease.
  const draft = `${path}.${process.pid}`;
  const writeDraft = () => writeFileSync(draft, `${JSON.stringify(own(now()))}\n`);
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeDraft();
  } catch (error) {
    throw isNotWritable(error) ? notWritableError(file, error) : error;
  }
  try {
    linkSync(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = readHolder(path);
    if (holder && !lapsed(holder, now())) throw new StorageHeldError(resolve(file), holder);
    renameSync(draft, path);
  }
  unlinkQuietly(draft);

  const isMine = (holder: Holder | undefined) => holder?.host === hostname() && holder.pid === process.pid && holder.since === since;
  const renewal = setInterval(() => {
    const holder = readHolder(path);
    if (!isMine(holder)) {
      clearInterval(renewal);
      if (holder) options.onLost?.(holder);
      return;
    }
    try {
      writeDraft();
      renameSync(draft, path);
    } catch {
      // A failed renewal is tried again in RENEW_MS; the lease still holds for LEASE_MS.
    }
  }, RENEW_MS);
  renewal.unref();
  return {
    release() {
      clearInterval(renewal);
      if (isMine(readHolder(path))) unlinkQuietly(path);
    },
  };
}

function readHolder(path: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    if (typeof parsed.host !== 'string' || typeof parsed.pid !== 'number' || typeof parsed.since !== 'string' || typeof parsed.renewedAt !== 'string') return undefined;
    return parsed as Holder;
  } catch {
    return undefined;
  }
}

/** A lease nobody holds any more: not renewed within LEASE_MS, or its process on this machine is gone (or is this one, restarted under the same id). */
function lapsed(holder: Holder, now: number): boolean {
  const renewed = Date.parse(holder.renewedAt);
  if (!Number.isFinite(renewed) || now - renewed > LEASE_MS) return true;
  // Only a process of this machine and pid space can be asked whether it still runs.
  if (holder.host !== hostname() || holder.pids !== pidSpace()) return false;
  return holder.pid === process.pid || !processExists(holder.pid);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
