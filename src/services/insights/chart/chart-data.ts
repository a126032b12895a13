/**
 * The chart's input checked and laid out day by day: one slot per calendar day from the first day
 * given to the last, a day the caller left out drawn as zero (a day with nothing counted may simply
 * have no row). Anything a chart cannot honestly show is refused with a message that names it,
 * rather than drawn wrong: a date that does not exist, a negative or non-finite number, a day given
 * twice, a span longer than the longest period the insights offer.
 */

/** The longest span drawn: 12 months, a leap year's 366 days. */
export const MAX_CHART_DAYS = 366;

export interface ChartInputDay {
  day: string;
  paidGrosze: number;
  linksIssued: number;
}

export interface ChartSeries {
  /** Calendar days, first to last, as UTC midnights (milliseconds). */
  days: number[];
  paidGrosze: number[];
  linksIssued: number[];
}

const DAY_MS = 86_400_000;

/** A YYYY-MM-DD date as its UTC midnight, or undefined for text that is not a real date. */
export function parseDay(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  // Date.UTC rolls 2026-02-30 over to 2 March: a real date reads back the same.
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? time : undefined;
}

function checkCount(value: number, what: string, day: string): void {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`chart: ${what} of ${day} is ${value}, not a number of zero or more`);
}

/** The days in calendar order with the gaps filled; empty when no day was given. */
export function chartSeries(input: readonly ChartInputDay[]): ChartSeries {
  const byTime = new Map<number, ChartInputDay>();
  for (const entry of input) {
    const time = parseDay(entry.day);
    if (time === undefined) throw new RangeError(`chart: "${entry.day}" is not a date written YYYY-MM-DD`);
    checkCount(entry.paidGrosze, 'the paid amount', entry.day);
    checkCount(entry.linksIssued, 'the links issued', entry.day);
    if (byTime.has(time)) throw new RangeError(`chart: ${entry.day} is given twice`);
    byTime.set(time, entry);
  }
  const series: ChartSeries = { days: [], paidGrosze: [], linksIssued: [] };
  if (byTime.size === 0) return series;
  const times = [...byTime.keys()];
  const first = Math.min(...times);
  const last = Math.max(...times);
  const span = Math.round((last - first) / DAY_MS) + 1;
  if (span > MAX_CHART_DAYS) throw new RangeError(`chart: ${span} days from first to last, at most ${MAX_CHART_DAYS} are drawn`);
  for (let index = 0; index < span; index += 1) {
    const time = first + index * DAY_MS;
    const entry = byTime.get(time);
    series.days.push(time);
    series.paidGrosze.push(entry?.paidGrosze ?? 0);
    series.linksIssued.push(entry?.linksIssued ?? 0);
  }
  return series;
}
