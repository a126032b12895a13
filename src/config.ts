import { isIP } from 'node:net';
import * as z from 'zod';
import { storageUrlProblem } from './storage/storage-url.js';
import { parseEncryptionKey } from './security/secret-box.js';

/**
 * The bot's whole configuration comes from the environment, validated here once.
 * A bad start must tell the operator every problem at once, in one readable message,
 * and never print a secret's value.
 */

const SECRET_VARIABLES = new Set(['DISCORD_TOKEN', 'SPACEIS_API_KEY', 'ENCRYPTION_KEY']);

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOG_FORMATS = ['json', 'pretty'] as const;

function parsedUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** This machine: the only place a plain http:// request may go (a local test server, a tunnel's local end). */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * An API the bot sends a secret to (the bot token, a license key): https://, or http:// to this
 * machine only, so neither ever crosses a network in clear.
 */
const apiUrl = z
  .string()
  .trim()
  .superRefine((value, context) => {
    const url = parsedUrl(value);
    if (!url || !['http:', 'https:'].includes(url.protocol)) {
      context.addIssue({ code: 'custom', message: 'must be an http(s) URL, e.g. https://api.spaceis.pl' });
    } else if (url.protocol === 'http:' && !isLoopback(url.hostname.toLowerCase())) {
      context.addIssue({
        code: 'custom',
        message: 'must use https://: the bot sends its secrets there, so it takes http:// only for this machine (localhost, 127.0.0.1, [::1])',
      });
    }
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** A base URL members' browsers open (the demo pay page's links): nothing secret goes there, so http:// anywhere is fine. */
const publicUrl = z
  .string()
  .trim()
  .refine(
    (value) => {
      const url = parsedUrl(value);
      return url !== undefined && ['http:', 'https:'].includes(url.protocol) && url.search === '' && url.hash === '' && !url.username && !url.password;
    },
    "must be an absolute http(s) URL that members' browsers open, e.g. https://shop.example.com or http://203.0.113.7:8787 (no ?query or #fragment)",
  )
  .transform((value) => value.replace(/\/+$/, ''));

/** An address to listen on: an IP address or a host name of this machine. */
const listenAddress = z
  .string()
  .trim()
  .refine(
    (value) => isIP(value) !== 0 || /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/.test(value),
    "must be an address to listen on: 127.0.0.1 (this machine only, the default), 0.0.0.0 (every network interface) or one of this machine's addresses",
  );

/** A required setting; "missing" reads better than zod's "expected string, received undefined". */
function required(hint: string) {
  return z.string({ error: `is required (${hint})` }).trim().min(1, `is required (${hint})`);
}

/** A whole number from `min` to `max`, written in the environment as text (surrounding spaces allowed). */
function wholeNumber(min: number, max: number, message: string) {
  return z
    .string()
    .trim()
    .regex(/^\d+$/, message)
    .transform(Number)
    .refine((value) => value >= min && value <= max, message);
}

/** A switch written `on` or `off` (any case, surrounding spaces allowed), read as true or false. */
function onOff(message: string) {
  return z
    .string()
    .trim()
    .transform((value) => value.toLowerCase())
    .refine((value) => value === 'on' || value === 'off', message)
    .transform((value) => value === 'on');
}

/**
 * SHARDS: `auto` (every shard Discord recommends, or all SHARD_COUNT of them, in this process) or the
 * shard ids this process runs, e.g. `0,1`.
 */
const shardList = z
  .string()
  .trim()
  .transform((value, ctx): 'auto' | number[] => {
    if (value.toLowerCase() === 'auto') return 'auto';
    const parts = value.split(',').map((part) => part.trim());
    if (parts.some((part) => !/^\d+$/.test(part))) {
      ctx.addIssue({ code: 'custom', message: 'must be auto or a comma-separated list of shard ids (whole numbers), e.g. 0,1' });
      return z.NEVER;
    }
    const ids = parts.map(Number);
    const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
    if (repeated !== undefined) {
      ctx.addIssue({ code: 'custom', message: `lists shard ${repeated} more than once` });
      return z.NEVER;
    }
    return ids;
  });

/**
 * DEFAULT_LICENSE_GUILDS: the Discord servers allowed to sell from the default license, as a
 * comma-separated list of their ids (snowflakes); empty entries (a trailing comma) are skipped.
 */
const guildList = z
  .string()
  .transform((value, ctx): string[] => {
    const ids = value.split(',').map((part) => part.trim()).filter((part) => part !== '');
    const bad = ids.find((id) => !/^\d{17,20}$/.test(id));
    if (bad !== undefined || ids.length === 0) {
      const what = bad === undefined ? 'it lists none' : `"${bad}" is not one`;
      ctx.addIssue({ code: 'custom', message: `must be a comma-separated list of Discord server ids (17 to 20 digits: Developer Mode → right-click the server → Copy Server ID); ${what}` });
      return z.NEVER;
    }
    return [...new Set(ids)];
  });

/**
 * The store's base URL: the client adds /v4 to every path itself, so a base that already ends in /v4
 * would 404 on the first request; refused here with the reason instead.
 */
const storeApiUrl = apiUrl.refine((value) => !/\/v4$/i.test(value), {
  message: 'must not end in /v4: the bot adds /v4 to every request itself, so write the address without it, e.g. https://api.spaceis.pl',
});

/** Settings `npm run register-commands` shares with the bot: the same rules, the same messages. */
export const DEFAULT_DISCORD_API_URL = 'https://discord.com/api';

const discordSettings = {
  DISCORD_TOKEN: required('the bot token from the Discord developer portal'),
  DISCORD_API_URL: apiUrl.default(DEFAULT_DISCORD_API_URL),
};

const configShape = {
  ...discordSettings,
  SPACEIS_API_URL: storeApiUrl.default('https://api.spaceis.pl'),
  /** The default license; a guild's own license (/shop-admin license) takes precedence. */
  SPACEIS_API_KEY: z.string().trim().min(1).optional(),
  /** The Discord servers that may sell from SPACEIS_API_KEY; unset: every server the bot is in. */
  DEFAULT_LICENSE_GUILDS: guildList.optional(),
  /** Seals guilds' license keys at rest. Needed only once an admin stores a guild license. */
  ENCRYPTION_KEY: z
    .string()
    .trim()
    .refine((value) => parseEncryptionKey(value) !== undefined, {
      message: 'must be 32 random bytes as base64 or hex: generate one with  openssl rand -base64 32',
    })
    .optional(),
  /** sqlite://<file> (one process, the default) or redis://host:port/db (several processes share it; docs/scaling-out.md). */
  STORAGE_URL: z
    .string()
    .trim()
    .default('sqlite://data/store.sqlite')
    .superRefine((value, context) => {
      const problem = storageUrlProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  /** The demo shop's pay page listens on DEMO_HOST at this port, once a guild uses the demo (0: any free port). */
  DEMO_PORT: wholeNumber(0, 65535, 'must be a port number (0–65535)').default(8787),
  /** Where the demo pay page listens: this machine only unless set (0.0.0.0 in the Docker image). */
  DEMO_HOST: listenAddress.default('127.0.0.1'),
  /** The base of the demo's Pay links, as members' browsers reach the page; unset: the address it listens on. */
  DEMO_PUBLIC_URL: publicUrl.optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  /** json: one JSON object per line (services, log collectors); pretty: lines a person reads in a terminal. */
  LOG_FORMAT: z.enum(LOG_FORMATS, { message: `must be ${LOG_FORMATS.join(' or ')}: json (one JSON object per line, the default) or pretty (lines to read in a terminal)` }).default('json'),
  /** A cart nobody changed for this many days is emptied: carts of members who left must not be kept forever. */
  CART_EXPIRY_DAYS: wholeNumber(1, 3650, 'must be a whole number of days from 1 to 3650').default(30),
  /** Port of the health and metrics listener (GET /healthz/live, /healthz/ready, /metrics); unset: no listener. */
  HEALTH_PORT: wholeNumber(1, 65535, 'must be a port number from 1 to 65535').optional(),
  /** Address the health listener binds to; 127.0.0.1 (this machine only) unless set. */
  HEALTH_HOST: z.string().trim().min(1).optional(),
  /** Which shards this process runs; several processes each take a slice (see SHARD_COUNT). */
  SHARDS: shardList.default('auto'),
  /** Shards across all processes; unset with SHARDS=auto: Discord's recommended count. */
  SHARD_COUNT: wholeNumber(1, Number.MAX_SAFE_INTEGER, 'must be a whole number of shards, at least 1').optional(),
  /**
   * How often the payment watcher asks each server's latest buyers while its license has open links
   * (seconds, at least 15: every request draws on the license's rate limit, shared with the shop's website).
   */
  PAYMENT_POLL_SECONDS: wholeNumber(15, 3600, 'must be a whole number of seconds from 15 to 3600').default(30),
  /** Voucher codes `/shop-admin vouchers generate` may ask for per Discord server per day (against a misused admin account). */
  VOUCHER_CODES_PER_DAY: wholeNumber(1, 10_000, 'must be a whole number of codes from 1 to 10000').default(50),
  /**
   * The Guild Messages intent, which the store webhook's posts need: asked for at login (intents
   * belong to the session, so it is every guild's or none's); off, every message of every guild
   * stops reaching the bot and /shop-admin store-webhook connect says the operator has it off.
   */
  STORE_WEBHOOK_INTENT: onOff('must be on or off: on lets admins connect the store webhook (the bot then receives every message of its servers), off turns that off').default(true),
  /**
   * Counting what members do for /shop-admin insights and the weekly digest (src/services/insights):
   * off, nothing is counted (the bench measures the walk with it on and off), and the insights say so.
   */
  INSIGHTS: onOff('must be on or off: on counts what members do through the bot for /shop-admin insights, off counts nothing').default(true),
  /** Discord's global limit is 50 requests/s per bot, not per process: each of N processes takes its share. */
  DISCORD_GLOBAL_RPS: wholeNumber(1, 10_000, 'must be a whole number of requests per second from 1 to 10000 (Discord allows 50 per bot: with N processes, 50/N each)').default(50),
};

/** Every setting the bot reads, by name: docs/running/settings.md has a row for each (a test holds it to that). */
export const SETTING_NAMES = Object.keys(configShape) as readonly (keyof typeof configShape)[];

const configSchema = z
  .object(configShape)
  // Only once both shard settings read well by themselves: one problem is reported once.
  .refine((config) => config.SHARDS === 'auto' || config.SHARD_COUNT !== undefined, {
    path: ['SHARD_COUNT'],
    message: 'is required when SHARDS lists shard ids: the number of shards across all processes, e.g. SHARDS=0,1 with SHARD_COUNT=4',
    when: shardSettingsRead,
  })
  .refine((config) => config.SHARDS === 'auto' || config.SHARD_COUNT === undefined || config.SHARDS.every((id) => id < config.SHARD_COUNT!), {
    path: ['SHARDS'],
    error: (issue) => {
      const { SHARDS: ids, SHARD_COUNT: count } = issue.input as { SHARDS: number[]; SHARD_COUNT: number };
      return `lists shard ${ids.filter((id) => id >= count).join(', ')}, but shard ids run from 0 to SHARD_COUNT - 1 (${count - 1})`;
    },
    when: shardSettingsRead,
  });

function shardSettingsRead(payload: { issues: readonly { path?: readonly PropertyKey[] }[] }): boolean {
  return !payload.issues.some((issue) => issue.path?.[0] === 'SHARDS' || issue.path?.[0] === 'SHARD_COUNT');
}

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Empty strings count as "not set", so a blank line in .env falls back to the default. */
function withoutBlanks(env: NodeJS.ProcessEnv): Record<string, string> {
  const cleaned: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== '') cleaned[name] = value;
  }
  return cleaned;
}

export function loadConfig(env: NodeJS.ProcessEnv): Config {
  return parseSettings(configSchema, env);
}

export type DiscordSettings = z.infer<z.ZodObject<typeof discordSettings>>;

/** What `npm run register-commands` needs (the token and Discord's address), read by the bot's own rules. */
export function loadDiscordSettings(env: NodeJS.ProcessEnv): DiscordSettings {
  return parseSettings(z.object(discordSettings), env);
}

function parseSettings<T>(schema: z.ZodType<T>, env: NodeJS.ProcessEnv): T {
  const result = schema.safeParse(withoutBlanks(env));
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'environment');
    // zod quotes received values in some messages; a secret's value must never be echoed.
    const message = SECRET_VARIABLES.has(name) ? issue.message.replace(/".*"/g, '…') : issue.message;
    return `${name} ${message}`;
  });
  throw new ConfigError(problems);
}
