import type { BuyerRow } from '../../spaceis/client.js';
import { parsePurchaseDate } from '../../spaceis/purchase-date.js';
import type { ServerPoll } from '../../storage/payment-watch.js';
import type { LicenseRound } from './context.js';
import { CLOCK_SKEW_MS } from './matcher.js';
import { baselineAfterMs } from './schedule.js';

/**
 * When each listed transaction was made (docs/spaceis-api.md, "Payments": dates). Its own date when
 * readable and not in the future (later than now plus the allowed skew is no date: a link must
 * never be taken as paid by a purchase "made" after it was listed); else the time of the poll
 * before the one that first listed it, the earliest it can have been made after. A poll that looks
 * at a server afresh (never polled, or not for a while) cannot tell when such a row was made, so
 * it counts as made before any open link (0).
 */
export interface Placed {
  madeAt: Map<string, number>;
  /** Those whose row carried a usable date. */
  dated: Set<string>;
  dateless: Record<string, number> | undefined;
  /** Rows dated a whole number of hours ahead of now: the shop's dates are not Warsaw time (see below). */
  hoursAhead: number | undefined;
}

const HOUR_MS = 3_600_000;

export function readDate(value: unknown, now: number): number | undefined {
  const at = parsePurchaseDate(value);
  return at !== undefined && at <= now + CLOCK_SKEW_MS ? at : undefined;
}

export function placeRows(round: LicenseRound, rows: readonly BuyerRow[], before: ServerPoll | undefined, now: number): Placed {
  const fresh = !before || before.polledAt === 0 || now - before.polledAt > baselineAfterMs(round.deps.pollMs);
  const placed: Placed = { madeAt: new Map(), dated: new Set(), dateless: undefined, hoursAhead: undefined };
  const dateless: Record<string, number> = {};
  for (const row of rows) {
    if (placed.madeAt.has(row.transactionId)) continue;
    const dated = readDate(row.date, now);
    if (dated === undefined) placed.hoursAhead ??= wholeHoursAhead(parsePurchaseDate(row.date), now, round.deps.pollMs);
    if (dated !== undefined) {
      placed.madeAt.set(row.transactionId, dated);
      placed.dated.add(row.transactionId);
      continue;
    }
    const firstSeen = before?.dateless?.[row.transactionId] ?? (fresh || !before ? 0 : before.polledAt);
    dateless[row.transactionId] = firstSeen;
    placed.madeAt.set(row.transactionId, firstSeen);
  }
  if (Object.keys(dateless).length > 0) placed.dateless = dateless;
  return placed;
}

/**
 * A row dated ahead of now by about a whole number of hours (within a poll interval and the allowed
 * skew): the store writes its dates in another zone than the one assumed (Europe/Warsaw, see
 * src/spaceis/purchase-date.ts). Such rows count as undated; the watcher warns once per license.
 */
function wholeHoursAhead(at: number | undefined, now: number, pollMs: number): number | undefined {
  if (at === undefined) return undefined;
  const ahead = at - now;
  const hours = Math.round(ahead / HOUR_MS);
  return hours >= 1 && hours <= 14 && Math.abs(ahead - hours * HOUR_MS) <= pollMs + CLOCK_SKEW_MS ? hours : undefined;
}
