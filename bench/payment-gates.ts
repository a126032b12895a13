/**
 * The gates of the payments phase (storage that costs what is due, invalid requests to Discord)
 * and of the store webhook phase (docs/store-webhook.md), held like every other gate (targets.ts).
 */
import type { Gate, Json } from './report-shape.js';
import { ms } from './stats.js';

const defined = (...values: unknown[]) => values.every((value) => typeof value === 'number' && Number.isFinite(value));
const manyLicenses = (r: Json): Json[] => ((r.payments?.licenses ?? []) as Json[]).filter((row) => row.licenses >= 1000);
const worst = (rows: Json[], figure: (row: Json) => number | undefined): number | undefined => {
  const figures = rows.map(figure).filter((value): value is number => typeof value === 'number' && Number.isFinite(value));
  return figures.length > 0 ? Math.max(...figures) : undefined;
};
const checkouts = (row: Json): Json[] => [row.checkoutListed, row.checkoutJoining].filter(Boolean);
const rowName = (row: Json) => `${row.licenses} on ${row.storage}`;

export const PAYMENT_GATES: readonly Gate[] = [
  // Storage costs what is due, not what exists. Before: a due license rewrote the
  // whole slot of the due-time index (about 110 KB per license at 10 000 licenses), and a checkout read
  // the list of every license (670 KB at 10 000) and rewrote it when its license joined.
  {
    name: 'payments: bytes written per license due, worst round (1 000 licenses or more)',
    limit: 8192,
    unit: 'B',
    figure: (r) => worst(manyLicenses(r), (row) => row.maxBytesWrittenPerDueLicense),
    detail: (r) => manyLicenses(r).map((row) => `${rowName(row)}: ${row.maxBytesWrittenPerDueLicense} B (mean ${row.bytesWrittenPerDueLicense} B, ${row.duePerTick} due a round)`).join('; '),
  },
  {
    name: 'payments: registry records read and written per checkout (1 000 licenses or more)',
    limit: 12,
    unit: 'records',
    figure: (r) => worst(manyLicenses(r), (row) => worst(checkouts(row), (cost) => cost.reads + cost.writes)),
    detail: (r) => manyLicenses(r).map((row) => `${rowName(row)}: ${checkouts(row).map((cost) => `${cost.reads} + ${cost.writes}`).join(', ')}`).join('; '),
  },
  {
    name: 'payments: registry bytes read and written by one checkout, the largest (1 000 licenses or more)',
    limit: 24_576,
    unit: 'B',
    figure: (r) => worst(manyLicenses(r), (row) => worst(checkouts(row), (cost) => cost.maxBytesRead + cost.maxBytesWritten)),
    detail: (r) => manyLicenses(r).map((row) => `${rowName(row)}: ${checkouts(row).map((cost) => `${cost.maxBytesRead} + ${cost.maxBytesWritten} B`).join(', ')}`).join('; '),
  },
  // Discord bans a bot's IP for 10 000 invalid requests in 10 minutes.
  {
    name: 'payments and roles: invalid requests to Discord from background work, most in 10 minutes',
    limit: 99,
    unit: 'requests',
    figure: (r) => (defined(r.payments?.invalidRequests?.maxPerTenMinutes) ? r.payments.invalidRequests.maxPerTenMinutes : undefined),
    detail: (r) => `${r.payments.invalidRequests.grants} timed roles ending in guilds the bot left or where Discord refuses, ${r.payments.invalidRequests.paidLinksRefused} paid links whose log posts are refused: ${r.payments.invalidRequests.perWindow.join(', ')} per 10 minutes`,
  },
  // A sale with the webhook connected and healthy loses nothing; forged ids never hold back a real payment.
  {
    name: 'store webhook: a sale of 100 payments in a minute, webhook healthy, payments lost',
    limit: 0,
    unit: 'payments',
    figure: (r) => (defined(r.storeWebhook?.paidToDm?.withWebhook?.missing) ? r.storeWebhook.paidToDm.withWebhook.missing : undefined),
    detail: (r) => `${r.storeWebhook.paidToDm.withWebhook.payments} payments: p50 ${ms(r.storeWebhook.paidToDm.withWebhook.ms.median)} ms, max ${ms(r.storeWebhook.paidToDm.withWebhook.ms.max)} ms; polling only: ${r.storeWebhook.paidToDm.withoutWebhook.missing} lost, max ${ms(r.storeWebhook.paidToDm.withoutWebhook.ms.max)} ms`,
  },
  {
    name: 'store webhook: the store’s post → DM edited among 500 forged ids, max',
    limit: 5000,
    unit: 'ms',
    figure: (r) => (defined(r.storeWebhook?.flood?.ms?.max) ? (r.storeWebhook.flood.missing > 0 ? Number.POSITIVE_INFINITY : r.storeWebhook.flood.ms.max) : undefined),
    detail: (r) => `${r.storeWebhook.flood.payments} payments, ${r.storeWebhook.flood.missing} lost; p50 ${ms(r.storeWebhook.flood.ms.median)} ms; ${r.storeWebhook.flood.forgedIds} forged ids`,
  },
  {
    name: 'store webhook: store requests per hour per server, webhook connected and healthy',
    limit: 15,
    unit: 'requests',
    figure: (r) => {
      const rows = (r.storeWebhook?.requestsPerHour ?? []) as Json[];
      const connected = rows.filter((row) => row.webhook && !row.feed);
      return connected.length > 0 ? Math.max(...connected.map((row) => row.allPerServer as number)) : undefined;
    },
    detail: (r) => `without the webhook: ${((r.storeWebhook.requestsPerHour ?? []) as Json[]).find((row) => !row.webhook && !row.feed)?.allPerServer ?? '?'} per server`,
  },
];
