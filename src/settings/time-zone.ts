/**
 * Time zones by their IANA names ("Europe/Warsaw"), checked with the Intl data Node carries, and a
 * moment read as a wall clock there. Formatters are made once per zone: reading the time of a
 * zone costs a few microseconds after its first use.
 */

export const DEFAULT_TIME_ZONE = 'Europe/Warsaw';

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Far more than the zones guilds use; a flood of names cannot grow the map without end. */
const FORMATTERS_KEPT = 1_000;

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', weekday: 'short', hourCycle: 'h23' });
    if (formatters.size >= FORMATTERS_KEPT) formatters.delete(formatters.keys().next().value!);
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether `name` is a time zone this Node knows (an IANA name such as "Europe/Warsaw" or "UTC"). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export interface WallClock {
  /** The local date, YYYY-MM-DD. */
  date: string;
  /** 0 Sunday … 1 Monday … 6 Saturday. */
  weekday: number;
  hour: number;
}

/** The moment `ms` on the wall clock of `zone`. */
export function wallClock(ms: number, zone: string): WallClock {
  const parts = Object.fromEntries(formatterFor(zone).formatToParts(ms).map((part) => [part.type, part.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, weekday: WEEKDAYS.indexOf(parts.weekday ?? ''), hour: Number(parts.hour) };
}
