/**
 * Zod schemas for every SpaceIs response the bot reads (shapes: docs/spaceis-api.md, "Offer").
 *
 * The contract leaves many shapes "not shown" and the public clients disagree on details
 * (0/1 vs booleans, numeric vs string ids, number vs string amounts). So the schemas are
 * deliberately tolerant: unknown fields are accepted, anything the bot can live without is
 * optional/nullable, and only what the bot cannot work without is required: ids and names of
 * servers, categories, products and variants, and a price's amount and method.
 *
 * Offers are cached for every license, so objects keep only the fields the bot reads (`z.object`
 * strips the rest): a shop's long descriptions (whole HTML pages, base64, images inlined), its
 * payment providers' details or any field added to the API later never sit in memory.
 */
import * as z from 'zod';

// ---------------------------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------------------------

/** Booleans arrive as true/false or 0/1 (and sometimes as the strings "0"/"1"). */
export const looseBoolean = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])])
  .transform((value) => value === true || value === 1 || value === '1' || value === 'true');

/**
 * Ids are strings, but older endpoints may send integers. A string is kept byte for byte
 * (variant ids are opaque: no trimming, no case folding, no decoding); only a number is
 * converted.
 */
export const idSchema = z
  .union([z.string().min(1), z.number().int().nonnegative()])
  .transform((value) => (typeof value === 'number' ? String(value) : value));

/** A free-text field that may be missing or null. */
const optionalText = z.string().nullish();

/** Numbers that may arrive as numeric strings ("15", "12.5"). */
const looseNumber = z.union([
  z.number().finite(),
  z
    .string()
    .regex(/^\s*-?\d+(?:\.\d+)?\s*$/)
    .transform((value) => Number(value)),
]);

const DECIMAL_AMOUNT = /^(\d+)(?:[.,](\d+))?$/;

/**
 * Converts a PLN amount to integer grosze without floating-point error.
 * Strings are parsed as decimals digit by digit ("10.50" → 1050, "0.1" → 10, "10.505" → 1051,
 * rounding half up on the third decimal); numbers use Math.round(x * 100), which is exact for
 * every amount with at most two decimals that a double can represent. Returns undefined for
 * anything that is not a non-negative amount.
 */
export function toGrosze(amount: number | string): number | undefined {
  if (typeof amount === 'number') {
    return Number.isFinite(amount) && amount >= 0 ? Math.round(amount * 100) : undefined;
  }
  const match = DECIMAL_AMOUNT.exec(amount.trim());
  if (!match) return undefined;
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').padEnd(3, '0');
  const grosze = Number(whole) * 100 + Number(fraction.slice(0, 2));
  const roundUp = Number(fraction[2]) >= 5 ? 1 : 0;
  const result = grosze + roundUp;
  return Number.isSafeInteger(result) ? result : undefined;
}

// ---------------------------------------------------------------------------------------------
// Prices and variants
// ---------------------------------------------------------------------------------------------

/** `sms` sub-fields are "not shown" in the contract; clients show `{ is: 0|1, number, content }`. */
const smsObjectSchema = z.object({
  is: looseBoolean.optional(),
  number: z
    .union([z.string(), z.number()])
    .transform((value) => String(value))
    .nullish(),
  content: optionalText,
});

/** Some payloads might carry `sms` as a bare flag; normalise it to the object form. */
export const smsSchema = z.union([
  smsObjectSchema,
  looseBoolean.transform((is) => ({ is })),
]);

export const priceSchema = z
  .object({
    /** The amount exactly as received (10.5 or "10.50"); use `amountGrosze` for arithmetic. */
    amount: z.union([z.number(), z.string()]),
    /** Gateway name shown to the buyer. */
    name: optionalText,
    /** Method identifier; never substitute `name` for it. */
    method: z.string().min(1),
    /** e.g. `transfer` or `sms`. */
    type: optionalText,
    sms: smsSchema.nullish(),
  })
  .transform((price, ctx) => {
    const amountGrosze = toGrosze(price.amount);
    if (amountGrosze === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `price amount ${JSON.stringify(price.amount)} is not a non-negative PLN amount`,
        path: ['amount'],
      });
      return z.NEVER;
    }
    return { ...price, amountGrosze };
  });

export const variantSchema = z.object({
  /** Opaque: pass back exactly as received as `variantId`. */
  id: idSchema,
  name: z.string(),
  /** A variant may have no price at all; the client must handle that. */
  prices: z.array(priceSchema).nullish().transform((prices) => prices ?? []),
});

// ---------------------------------------------------------------------------------------------
// Offer
// ---------------------------------------------------------------------------------------------

export const serverSchema = z.object({
  id: idSchema,
  name: z.string(),
  slug: optionalText,
  imageUrl: optionalText,
  additional: optionalText,
});

export const productDescriptionsSchema = z.object({
  /** Plain text. (`long`, base64 HTML of any size, is never shown and so never kept.) */
  short: optionalText,
});

/** A product as listed inside a server's categories (camelCase in this endpoint). */
export const productSchema = z.object({
  id: idSchema,
  name: z.string(),
  imageUrl: optionalText,
  descriptions: productDescriptionsSchema.nullish(),
  is_promoted: looseBoolean.nullish(),
  promotion_percentage: looseNumber.nullish(),
  /**
   * The contract says every product carries it, but the bot sells through the cart link, so a
   * missing one must not make the whole offer unreadable.
   */
  paymentUrl: optionalText,
});

export const categorySchema = z.object({
  id: idSchema,
  name: z.string(),
  /** Not in the contract, but servers and products have one: shown when a store sends it (any shape is tolerated). */
  imageUrl: optionalText.catch(undefined),
  products: z.array(productSchema).nullish().transform((products) => products ?? []),
});

/** `data` of GET /v4/server/{param}. */
export const serverOfferSchema = z.object({
  server: serverSchema.optional(),
  categories: z.array(categorySchema),
  licenseId: idSchema.nullish(),
});

/** `data.product` of the variants endpoint: snake_case, unlike the server endpoint. */
export const variantsProductSchema = z.object({
  id: idSchema,
  category_id: idSchema.nullish(),
  name: optionalText,
  image_url: optionalText,
  position: looseNumber.nullish(),
  is_promoted: looseBoolean.nullish(),
  promotion_percentage: looseNumber.nullish(),
});

/** `data` of GET /v4/server/{param}/category/{c}/product/{p}/variants. */
export const productVariantsSchema = z.object({
  product: variantsProductSchema,
  variants: z.array(variantSchema),
});

/** `data` of GET /v4/servers. */
export const serverListSchema = z.array(serverSchema);

/** `data` of POST /v4/cart/paymentUrl. */
export const paymentLinkSchema = z.object({
  /**
   * Returned to the caller verbatim. It is only checked to be an absolute http(s) URL so the
   * bot never renders e.g. a `javascript:` link; the string itself is never rewritten.
   */
  paymentUrl: z.string().refine(isHttpUrl, 'paymentUrl is not an absolute http(s) URL'),
});

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Envelope and errors
// ---------------------------------------------------------------------------------------------

/**
 * `{ success, type, data }`; `success`/`type` are optional because not every response has
 * them. `data` is validated separately with the endpoint's own schema.
 */
export const envelopeSchema = z.object({
  success: looseBoolean.optional(),
  type: z.string().optional(),
  data: z.unknown(),
});

/**
 * The parts of an error body we read: `{ success:false, type:'error', message }` or a
 * validation body `{ message, errors: { field: [messages] } }`. An `errors` value that is a
 * single string is normalised to a one-element list.
 */
export const errorBodySchema = z.object({
  success: looseBoolean.optional(),
  type: z.string().optional(),
  message: z.string().optional().catch(undefined),
  errors: z
    .record(z.string(), z.union([z.array(z.string()), z.string()]))
    .transform((errors) =>
      Object.fromEntries(
        Object.entries(errors).map(([field, messages]) => [
          field,
          typeof messages === 'string' ? [messages] : messages,
        ]),
      ),
    )
    .optional()
    .catch(undefined),
});

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

export type Server = z.infer<typeof serverSchema>;
export type Product = z.infer<typeof productSchema>;
export type Category = z.infer<typeof categorySchema>;
export type ServerOffer = z.infer<typeof serverOfferSchema>;
export type Price = z.infer<typeof priceSchema>;
export type Sms = z.infer<typeof smsSchema>;
export type Variant = z.infer<typeof variantSchema>;
export type VariantsProduct = z.infer<typeof variantsProductSchema>;
export type ProductVariants = z.infer<typeof productVariantsSchema>;
export type PaymentLink = z.infer<typeof paymentLinkSchema>;
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The cart cannot pay with SMS, so SMS prices must never be offered for a cart. */
export function isSmsPrice(price: Pick<Price, 'type' | 'sms'>): boolean {
  return price.type?.toLowerCase() === 'sms' || price.sms?.is === true;
}
