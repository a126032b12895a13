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
}

export function readDate(value: unknown, now: number): number | undefined {
  const at = parsePurchaseDate(value);
  return at !== undefined && at <= now + CLOCK_SKEW_MS ? at : undefined;
}

export function placeRows(round: LicenseRound, rows: readonly BuyerRow[], before: ServerPoll | undefined, now: number): Placed {
  const fresh = !before || before.polledAt === 0 || now - before.polledAt > baselineAfterMs(round.deps.pollMs);
  const placed: Placed = { madeAt: new Map(), dated: new Set(), dateless: undefined };
  const dateless: Record<string, number> = {};
  for (const row of rows) {
    if (placed.madeAt.has(row.transactionId)) continue;
    const dated = readDate(row.date, now);
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
