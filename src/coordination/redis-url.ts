/**
 * STORAGE_URL=redis://[user:password@]host:port[/db][?prefix=name] names the Redis that several
 * bot processes share (docs/scaling-out.md). Every key the bot writes there starts with the
 * prefix (default `shopbot`), so one Redis database can hold more than one bot, and tests can
 * use a prefix of their own and delete exactly what they wrote.
 */
export interface RedisTarget {
  /** The connection URL without the `prefix` parameter (it may hold a password: never log it). */
  readonly url: string;
  /** Database number (the URL's path), 0 when absent. */
  readonly db: number;
  /** Start of every key and channel name, e.g. `shopbot:`. */
  readonly prefix: string;
  /** host:port/db, for logs and error messages: never the password. */
  readonly display: string;
}

const PREFIX_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export function isRedisUrl(value: string): boolean {
  return /^rediss?:\/\//.test(value);
}

/** The target a redis:// URL names, or a sentence saying what is wrong with it (never echoing it). */
export function parseRedisUrl(value: string): RedisTarget | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: 'is not a valid redis:// URL, e.g. redis://127.0.0.1:6379/0' };
  }
  if (!['redis:', 'rediss:'].includes(url.protocol) || url.hostname === '') {
    return { problem: 'must name a Redis host, e.g. redis://127.0.0.1:6379/0' };
  }
  const path = url.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,2}$/.test(path)) return { problem: 'must end in a database number, e.g. redis://127.0.0.1:6379/0' };
  const db = path === '' ? 0 : Number(path);
  const name = url.searchParams.get('prefix') ?? 'shopbot';
  if (!PREFIX_NAME.test(name)) return { problem: 'prefix= may hold only letters, digits, "_", "." and "-" (at most 64)' };
  url.searchParams.delete('prefix');
  const port = url.port || '6379';
  return { url: url.toString(), db, prefix: `${name}:`, display: `${url.hostname}:${port}/${db}` };
}
