import type { Counters, InsightsStore } from '../../storage/insights.js';
import { dayKey, daysEnding, dayOf, field, SOURCES, STEPS, TIME_BUCKETS_MIN, WORD_DAYS, wordsKey, type Source, type Step } from './keys.js';

/** The periods an admin can ask for, and how many days each covers. */
export const PERIODS = { '7d': 7, '30d': 30, '90d': 90, '12m': 365 } as const;
export type Period = keyof typeof PERIODS;

/** A search word is shown once this many distinct members (counted per day) searched it. */
export const WORD_MEMBERS_MIN = 3;

export interface ProductRow {
  server: string;
  product: string;
  orders: number;
  grosze: number;
}

export interface InsightsReport {
  period: Period;
  /** The server the numbers are for; '' for the whole shop. */
  server: string;
  /** The period's days, oldest first (UTC). */
  days: string[];
  paid: { grosze: number; orders: number; previousGrosze: number; previousOrders: number };
  funnel: { step: Step; members: number }[];
  /** Every product paid in the period, by value (the view shows the first five), with the period before's value. */
  products: (ProductRow & { previousGrosze: number; previousOrders: number })[];
  sources: { source: Source; orders: number; grosze: number }[];
  /** Link → payment: median and 90th percentile as a bucket's upper bound in minutes (Infinity: over a day). */
  times: { paid: number; medianMin: number | undefined; p90Min: number | undefined; issued: number; unpaidShare: number | undefined };
  /** No-result search words with at least WORD_MEMBERS_MIN members, most searched first. */
  words: { word: string; members: number }[];
  /** Per day: paid grosze and links issued (the chart). */
  daily: { day: string; paidGrosze: number; orders: number; linksIssued: number; products: ProductRow[] }[];
}

/**
 * Reads a period and the one before it (one read of every day record, and of the search words'
 * last 30 days) and sums them. Nothing here names a member: the records hold none.
 */
export async function readReport(store: InsightsStore, request: { guildId: string; license: string; period: Period; server: string; now: number }): Promise<InsightsReport> {
  const { guildId, license, period, server } = request;
  const count = PERIODS[period];
  const today = dayOf(request.now);
  const all = daysEnding(today, count * 2);
  const days = all.slice(count);
  const wordDays = daysEnding(today, Math.min(count, WORD_DAYS));
  const records = await store.read([...all.map((day) => dayKey(guildId, license, day)), ...wordDays.map((day) => wordsKey(guildId, day))]);
  const previous = records.slice(0, count);
  const current = records.slice(count, count * 2);
  const words = records.slice(count * 2);
  const sum = (list: Counters[], name: string) => list.reduce((total, record) => total + (record[name] ?? 0), 0);

  const products = productRows(current, server);
  const before = new Map(productRows(previous, server).map((row) => [`${row.server}|${row.product}`, row]));
  const histogram = TIME_BUCKETS_MIN.map((_, bucket) => sum(current, field.time(bucket, server)));
  const issued = sum(current, field.links(server));
  const wordTotals = new Map<string, number>();
  for (const record of words) for (const [word, members] of Object.entries(record)) wordTotals.set(word, (wordTotals.get(word) ?? 0) + members);

  return {
    period,
    server,
    days,
    paid: {
      grosze: sum(current, field.grosze(server)),
      orders: sum(current, field.orders(server)),
      previousGrosze: sum(previous, field.grosze(server)),
      previousOrders: sum(previous, field.orders(server)),
    },
    funnel: STEPS.map((step) => ({ step, members: sum(current, field.members(step, server)) })),
    products: products
      .map((row) => {
        const old = before.get(`${row.server}|${row.product}`);
        return { ...row, previousGrosze: old?.grosze ?? 0, previousOrders: old?.orders ?? 0 };
      })
      .sort((a, b) => b.grosze - a.grosze || b.orders - a.orders),
    sources: SOURCES.map((source) => ({ source, orders: sum(current, field.sourceOrders(source, server)), grosze: sum(current, field.sourceGrosze(source, server)) })).filter((row) => row.orders > 0),
    times: {
      paid: histogram.reduce((a, b) => a + b, 0),
      medianMin: percentile(histogram, 0.5),
      p90Min: percentile(histogram, 0.9),
      issued,
      unpaidShare: issued > 0 ? Math.max(0, issued - sum(current, field.paidOfIssued(server))) / issued : undefined,
    },
    words: [...wordTotals]
      .filter(([, members]) => members >= WORD_MEMBERS_MIN)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([word, members]) => ({ word, members })),
    daily: days.map((day, index) => {
      const record = current[index]!;
      return { day, paidGrosze: record[field.grosze(server)] ?? 0, orders: record[field.orders(server)] ?? 0, linksIssued: record[field.links(server)] ?? 0, products: productRows([record], server) };
    }),
  };
}

/** Paid products summed over records (a product's variants together), for one server or all. */
function productRows(records: readonly Counters[], server: string): ProductRow[] {
  const rows = new Map<string, ProductRow>();
  for (const record of records) {
    for (const [name, value] of Object.entries(record)) {
      const parts = name.split('|');
      if (parts[0] !== 'prod' && parts[0] !== 'prodg') continue;
      const [, serverId = '', product = ''] = parts;
      if (server && serverId !== server) continue;
      const id = `${serverId}|${product}`;
      const row = rows.get(id) ?? { server: serverId, product, orders: 0, grosze: 0 };
      if (parts[0] === 'prod') row.orders += value;
      else row.grosze += value;
      rows.set(id, row);
    }
  }
  return [...rows.values()];
}

function percentile(histogram: readonly number[], share: number): number | undefined {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return undefined;
  let seen = 0;
  for (const [bucket, count] of histogram.entries()) {
    seen += count;
    if (seen >= total * share) return TIME_BUCKETS_MIN[bucket];
  }
  return Infinity;
}

/** The change from `before` to `now`, as a fraction (undefined when there was nothing before). */
export function change(now: number, before: number): number | undefined {
  return before > 0 ? (now - before) / before : undefined;
}
