/**
 * What the bot reads of the store's payments (docs/spaceis-api.md, "Payments"): the latest buyers of
 * a server and one transaction's details. Read leniently, because only part of it is documented
 * officially: a row or a field that does not read is dropped, never an error, and unknown fields
 * are stripped. The buyer's e-mail (`methodParameter`) and anything else not listed here is dropped
 * at parse time (`z.object` strips unknown keys), so it never leaves the client: not in memory, a
 * log line, storage or a message.
 */
import * as z from 'zod';
import { idSchema, looseBoolean } from './schemas.js';

/** A field that may be missing, null or of another type: read when it is what it should be, else undefined. */
function lenient<T extends z.ZodType>(schema: T) {
  return schema.nullish().catch(undefined).transform((value) => value ?? undefined);
}

const text = lenient(z.string());
const wholeNumber = lenient(
  z.union([z.number().int().nonnegative(), z.string().regex(/^\s*\d+\s*$/).transform((value) => Number(value))]),
);
const dateValue = lenient(z.union([z.string(), z.number()]));

/**
 * One row of `GET /v4/server/{server}/latest_buyers` (community SDK): the transaction id is the only
 * field the bot cannot do without; a row without one is dropped.
 */
export const buyerRowSchema = z
  .object({
    transactionId: idSchema,
    nick: text,
    method: text,
    /** Grosze. */
    amount: wholeNumber,
    productName: text,
    variantName: text,
    date: dateValue,
  });

export type BuyerRow = z.output<typeof buyerRowSchema>;

/** `data` of latest_buyers: a list, or (read as well) an object holding the list as `buyers` or `items`. */
export function parseBuyerRows(data: unknown): BuyerRow[] | undefined {
  const list = Array.isArray(data) ? data : isRecord(data) ? (Array.isArray(data.buyers) ? data.buyers : Array.isArray(data.items) ? data.items : undefined) : undefined;
  if (!list) return undefined;
  return list.flatMap((row) => {
    const parsed = buyerRowSchema.safeParse(row);
    return parsed.success ? [parsed.data] : [];
  });
}

/** `data` of latest_buyers, as rows (see parseBuyerRows); not a list at all is an unreadable answer. */
export const buyerListSchema = z.unknown().transform((data, ctx) => {
  const rows = parseBuyerRows(data);
  if (rows) return rows;
  ctx.addIssue({ code: 'custom', message: 'latest buyers is not a list' });
  return z.NEVER;
});

const transactionItemSchema = z.object({
  /** Opaque, compared byte for byte with the link's variant ids. */
  variantId: idSchema,
  quantity: z.union([z.number().int().positive(), z.string().regex(/^\s*\d+\s*$/).transform((value) => Number(value))]),
  productId: lenient(idSchema),
  serverId: lenient(idSchema),
  productName: text,
  variantName: text,
  unitAmount: wholeNumber,
  amount: wholeNumber,
  usesDiscountCode: lenient(looseBoolean),
});

export type TransactionItem = z.output<typeof transactionItemSchema>;

/** The four statuses the official documentation lists; anything else reads as `unknown` (followed like `pending`). */
export type TransactionStatus = 'pending' | 'paid' | 'fail' | 'expired' | 'unknown';

const statusSchema = z
  .string()
  .transform((value): TransactionStatus => {
    const status = value.trim().toLowerCase();
    if (status === 'failed') return 'fail';
    return status === 'pending' || status === 'paid' || status === 'fail' || status === 'expired' ? status : 'unknown';
  })
  .catch('unknown');

/**
 * `data` of `GET /v4/transaction/info/{transactionId}` (official). `items` is kept only when every
 * entry reads: a list with an unreadable item could look like a smaller order, and so match a link
 * it does not belong to. `methodParameter` (the buyer's e-mail) is not listed, so it is stripped.
 */
export const transactionInfoSchema = z
  .object({
    status: statusSchema,
    type: text,
    /** A single-variant purchase names its variant here; a cart purchase has `null` and `items`. */
    variantId: lenient(idSchema),
    quantity: wholeNumber,
    /** The whole transaction, grosze (official); the insights' paid value. */
    amount: wholeNumber,
    nick: text,
    items: z
      .array(z.unknown())
      .nullish()
      .catch(undefined)
      .transform((items) => {
        if (!items) return undefined;
        const parsed = items.map((item) => transactionItemSchema.safeParse(item));
        return parsed.every((item) => item.success) ? parsed.map((item) => item.data!) : undefined;
      }),
    date: dateValue,
    createdAt: dateValue,
    created_at: dateValue,
  })
  .transform(({ createdAt, created_at: createdAtSnake, date, ...info }) => ({ ...info, date: date ?? createdAt ?? createdAtSnake }));

export type TransactionInfo = z.output<typeof transactionInfoSchema>;

/** What a transaction paid, grosze: the whole and each variant's (as the store answered; absent when it did not say). */
export function transactionAmounts(info: TransactionInfo): { totalGrosze: number; items: { variantId: string; grosze: number }[] } | undefined {
  const items = info.items?.flatMap((item) => (item.amount === undefined ? [] : [{ variantId: item.variantId, grosze: item.amount }])) ?? [];
  const total = info.amount ?? (items.length > 0 ? items.reduce((sum, item) => sum + item.grosze, 0) : undefined);
  if (total === undefined) return undefined;
  return { totalGrosze: total, items: items.length > 0 ? items : info.variantId ? [{ variantId: info.variantId, grosze: total }] : [] };
}

/** The variants and quantities a transaction paid for, or undefined when the answer does not say. */
export function transactionItems(info: TransactionInfo): { variantId: string; quantity: number }[] | undefined {
  if (info.items && info.items.length > 0) return info.items.map(({ variantId, quantity }) => ({ variantId, quantity }));
  if (info.variantId) return [{ variantId: info.variantId, quantity: info.quantity ?? 1 }];
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
