/**
 * What the insights count and under which names (src/storage/insights.ts keeps them). Every counter
 * is a number in a record of one guild, one license and one UTC day; the record names no member.
 * Counter names are `what|…` with the server's id, or '' for the whole shop: each count is added
 * twice, once for the shop and once for its server, so a server's view reads without summing.
 */

/** The funnel's steps, in order: each counts distinct members per day. */
export const STEPS = ['open', 'view', 'cart', 'link', 'paid'] as const;
export type Step = (typeof STEPS)[number];

/** Where a member's cart started (its first line decides); a gift is counted apart whatever its start. */
export const SOURCES = ['shop', 'panel', 'feed', 'search', 'again', 'gift'] as const;
export type Source = (typeof SOURCES)[number];
export type EntrySource = Exclude<Source, 'gift'>;

export const DAY_MS = 86_400_000;
/** Day records live 800 days: 12 months beside the 12 before, and some room. */
export const KEEP_DAYS = 800;
/** Search words that found nothing live 30 days (a record per day, its own lifetime). */
export const WORD_DAYS = 30;
/** A paid transaction is counted once: its claim lives as long as the watcher remembers a transaction. */
export const PAID_CLAIM_MS = 100 * DAY_MS;

/** Link → payment minutes: the upper bound of each bucket of the daily histogram (the last is open). */
export const TIME_BUCKETS_MIN = [1, 2, 3, 5, 10, 15, 20, 30, 45, 60, 120, 240, 720, 1440, Infinity] as const;

export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** The `count` days ending with `last` (oldest first). */
export function daysEnding(last: string, count: number): string[] {
  const end = dayStart(last);
  return Array.from({ length: count }, (_, index) => dayOf(end - (count - 1 - index) * DAY_MS));
}

/** How long a record of `day` still lives from `now` when it is kept `days` days after the day ends. */
export function ttlFor(day: string, days: number, now: number): number {
  return Math.max(60_000, dayStart(day) + (days + 1) * DAY_MS - now);
}

export const dayKey = (guildId: string, license: string, day: string) => `insights:${guildId}:${license}:${day}`;
export const wordsKey = (guildId: string, day: string) => `insights-words:${guildId}:${day}`;
export const marksKey = (guildId: string, day: string) => `insights-marks:${guildId}:${day}`;
export const saltKey = (day: string) => `insights-salt:${day}`;
export const paidClaimKey = (guildId: string, transactionId: string) => `insights-paid:${guildId}:${transactionId}`;

export const field = {
  members: (step: Step, server = '', product = '') => `m|${step}|${server}|${product}`,
  links: (server = '') => `links|${server}`,
  /** Links issued on this day that were paid later (the expired share: the rest). */
  paidOfIssued: (server = '') => `pi|${server}`,
  orders: (server = '') => `paid|${server}`,
  grosze: (server = '') => `paidg|${server}`,
  sourceOrders: (source: Source, server = '') => `src|${source}|${server}`,
  sourceGrosze: (source: Source, server = '') => `srcg|${source}|${server}`,
  productOrders: (server: string, product: string, variant: string) => `prod|${server}|${product}|${variant}`,
  productGrosze: (server: string, product: string, variant: string) => `prodg|${server}|${product}|${variant}`,
  time: (bucket: number, server = '') => `lt|${bucket}|${server}`,
};

/** Which histogram bucket `minutes` falls in. */
export function timeBucket(minutes: number): number {
  const index = TIME_BUCKETS_MIN.findIndex((bound) => minutes <= bound);
  return index < 0 ? TIME_BUCKETS_MIN.length - 1 : index;
}

/**
 * A search word as it is kept: lower case, mentions and digits-only words gone, at most 32
 * characters; undefined when nothing is left.
 */
export function normalizeQuery(query: string): string | undefined {
  const cleaned = query
    .toLowerCase()
    .replace(/<[@#][!&]?\d+>|@everyone|@here/g, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 0 && !/^\d+$/.test(word))
    .join(' ')
    .replace(/\|/g, ' ')
    .trim()
    .slice(0, 32)
    .trim();
  return cleaned.length > 0 ? cleaned : undefined;
}
