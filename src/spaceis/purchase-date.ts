import type { BuyerRow } from './client.js';
import type { ServerPoll } from '../storage/payment-watch.js';

/**
 * When a purchase was made, read from the store's `date` field (docs/spaceis-api.md, "Payments").
 * Nothing official says how it is written, so this reads what the community clients show and what a
 * PHP backend plausibly sends, and nothing else:
 * - ISO 8601 with an offset or `Z` (`2026-11-22T12:00:00+01:00`): exact;
 * - `YYYY-MM-DD HH:mm[:ss]` (also with `T`) without an offset: **assumed** to be the shop's local
 *   time, Europe/Warsaw (SpaceIs is a Polish service); DST is applied as Warsaw applies it;
 * - a number: Unix seconds, or milliseconds when it is that large.
 * Anything else is `undefined`: the caller then counts the purchase as made when it first saw it.
 */

/** How far the store's clock may be from the bot's: a date later than now by more is no date. */
export const STORE_CLOCK_SKEW_MS = 60_000;

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?$/;
/** Unix seconds this large are past the year 5138: such a number is milliseconds. */
const SECONDS_LIMIT = 1e11;

export const SHOP_TIME_ZONE = 'Europe/Warsaw';

export function parsePurchaseDate(value: unknown): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    return value < SECONDS_LIMIT ? Math.round(value * 1000) : Math.round(value);
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d{9,13}$/.test(text)) return parsePurchaseDate(Number(text));
  if (ISO_WITH_OFFSET.test(text)) {
    const ms = Date.parse(text);
    return Number.isFinite(ms) ? ms : undefined;
  }
  const local = LOCAL.exec(text);
  if (!local) return undefined;
  const [year, month, day, hour, minute, second] = local.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // The wall time must exist as written (no 31 February).
  if (new Date(wall).getUTCDate() !== day) return undefined;
  return fromZonedWallTime(wall, SHOP_TIME_ZONE);
}

/**
 * The instant whose wall-clock time in `timeZone` is `wall` (given as if it were UTC). The zone's
 * offsets half a day either side are tried: a wall time repeated when the clocks go back in autumn
 * reads as its earliest instant (a purchase is never placed later than it can have been made); one
 * skipped by the spring change reads as the instant an hour later.
 */
export function fromZonedWallTime(wall: number, timeZone: string): number {
  const HALF_DAY = 12 * 3_600_000;
  const offsets = new Set([offsetAt(wall - HALF_DAY, timeZone), offsetAt(wall + HALF_DAY, timeZone)]);
  const exact = [...offsets].map((offset) => wall - offset).filter((instant) => instant + offsetAt(instant, timeZone) === wall);
  if (exact.length > 0) return Math.min(...exact);
  let instant = wall - offsetAt(wall, timeZone);
  instant = wall - offsetAt(instant, timeZone);
  return instant;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * When each listed transaction was made (docs/spaceis-api.md, "Payments": dates): its own date when
 * readable and not in the future (no link is ever taken as paid by a purchase "made" after it was
 * listed); else the time of the poll before the one that first listed it; on a fresh look (the last
 * poll longer than `baselineMs` ago), 0: before any open link. `hoursAhead`: rows dated whole hours ahead, the shop's dates not in Warsaw time.
 */
export interface RowTimes {
  madeAt: Map<string, number>;
  dated: Set<string>;
  dateless: Record<string, number> | undefined;
  hoursAhead: number | undefined;
}

export function readDate(value: unknown, now: number): number | undefined {
  const at = parsePurchaseDate(value);
  return at !== undefined && at <= now + STORE_CLOCK_SKEW_MS ? at : undefined;
}

export function placeRows(rows: readonly BuyerRow[], before: ServerPoll | undefined, now: number, pollMs: number, baselineMs: number): RowTimes {
  const fresh = !before || before.polledAt === 0 || now - before.polledAt > baselineMs;
  const times: RowTimes = { madeAt: new Map(), dated: new Set(), dateless: undefined, hoursAhead: undefined };
  const dateless: Record<string, number> = {};
  for (const row of rows) {
    if (times.madeAt.has(row.transactionId)) continue;
    const dated = readDate(row.date, now);
    if (dated !== undefined) {
      times.madeAt.set(row.transactionId, dated);
      times.dated.add(row.transactionId);
      continue;
    }
    times.hoursAhead ??= wholeHoursAhead(parsePurchaseDate(row.date), now, pollMs);
    dateless[row.transactionId] = before?.dateless?.[row.transactionId] ?? (fresh || !before ? 0 : before.polledAt);
    times.madeAt.set(row.transactionId, dateless[row.transactionId]!);
  }
  if (Object.keys(dateless).length > 0) times.dateless = dateless;
  return times;
}

/** About a whole number of hours ahead (within a poll interval and the skew): the store's zone is not Europe/Warsaw. */
function wholeHoursAhead(at: number | undefined, now: number, pollMs: number): number | undefined {
  if (at === undefined) return undefined;
  const hours = Math.round((at - now) / 3_600_000);
  return hours >= 1 && hours <= 14 && Math.abs(at - now - hours * 3_600_000) <= pollMs + STORE_CLOCK_SKEW_MS ? hours : undefined;
}
