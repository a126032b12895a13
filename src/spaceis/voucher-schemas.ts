/**
 * What the bot reads of the store's voucher answers (docs/spaceis-api.md, "Vouchers"). Both endpoints
 * are known only from the community SDK, so they are read leniently: `state` and `transactionId` may
 * be missing or of another type (the store's acceptance is the 2xx itself), and a generate answer
 * keeps only the codes that are non-empty strings.
 */
import * as z from 'zod';

const optionalText = z
  .union([z.string(), z.number()])
  .nullish()
  .catch(undefined)
  .transform((value) => (value === undefined || value === null || value === '' ? undefined : String(value)));

/** `data` of `POST /v4/voucher`: `{ state, transactionId }` (community SDK; the values of `state` are undocumented). */
export const voucherRedeemSchema = z
  .unknown()
  .transform((data) => (typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {}))
  .pipe(z.object({ state: optionalText, transactionId: optionalText }));

export type VoucherRedeemed = z.output<typeof voucherRedeemSchema>;

/** `data` of `POST /v4/voucher/generate`: `{ codes: [string] }` (community SDK, v4.0.14+); a bare list is read too. */
export const voucherCodesSchema = z.unknown().transform((data, ctx) => {
  const list = Array.isArray(data) ? data : typeof data === 'object' && data !== null && Array.isArray((data as { codes?: unknown }).codes) ? (data as { codes: unknown[] }).codes : undefined;
  if (!list) {
    ctx.addIssue({ code: 'custom', message: 'codes is not a list' });
    return z.NEVER;
  }
  return list.filter((code): code is string => typeof code === 'string' && code.trim() !== '').map((code) => code.trim());
});
