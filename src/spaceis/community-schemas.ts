/**
 * What the bot reads of the shop's community endpoints (docs/spaceis-api.md, "Goals and top
 * supporters"): a server's goals and its richest buyers. Known only from the community SDK, so read
 * the way latest_buyers is (payment-schemas.ts): a row that does not read is dropped, a field that
 * does not read is undefined, unknown fields are stripped.
 */
import * as z from 'zod';

function lenient<T extends z.ZodType>(schema: T) {
  return schema.nullish().catch(undefined).transform((value) => value ?? undefined);
}

const text = lenient(z.string());
/** A number or a numeric string ("12.5", "12,5"). */
const decimal = lenient(
  z.union([z.number().finite(), z.string().regex(/^\s*-?\d+([.,]\d+)?\s*$/).transform((value) => Number(value.trim().replace(',', '.')))]),
);
const wholeNumber = lenient(z.union([z.number().int().nonnegative(), z.string().regex(/^\s*\d+\s*$/).transform((value) => Number(value))]));

/** One goal of `GET /v4/server/{server}/goals`: a goal without a name or a percentage is dropped. */
export const goalRowSchema = z.object({
  id: lenient(z.union([z.string(), z.number()]).transform(String)),
  name: z.string().trim().min(1),
  /** An integer as far as the SDK says; whether it can pass 100 is unknown (shown clamped). */
  percentage: z.union([z.number().finite(), z.string().regex(/^\s*-?\d+([.,]\d+)?\s*$/).transform((value) => Number(value.trim().replace(',', '.')))]),
  formattedText: text,
});
export type GoalRow = z.output<typeof goalRowSchema>;

/** One row of `GET /v4/server/{server}/richest`: a row without a nick is dropped. `amount` is read but its unit is undocumented. */
export const richestRowSchema = z.object({
  nick: z.string().trim().min(1),
  amount: decimal,
  totalBuys: wholeNumber,
});
export type RichestRow = z.output<typeof richestRowSchema>;

/** A list (or an object holding it under one of `keys`), each row parsed on its own; undefined when there is no list. */
function rows<S extends z.ZodType>(schema: S, keys: readonly string[]) {
  return z.unknown().transform((data, ctx): z.output<S>[] => {
    const record = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
    const list = Array.isArray(data) ? data : keys.map((key) => record?.[key]).find(Array.isArray);
    if (!list) {
      ctx.addIssue({ code: 'custom', message: 'not a list' });
      return z.NEVER;
    }
    return list.flatMap((row) => {
      const parsed = schema.safeParse(row);
      return parsed.success ? [parsed.data as z.output<S>] : [];
    });
  });
}

export const goalListSchema = rows(goalRowSchema, ['goals', 'items']);
export const richestListSchema = rows(richestRowSchema, ['richest', 'buyers', 'items']);
