import * as z from 'zod';
import type Keyv from 'keyv';
import type { CartLine } from '../cart/rules.js';
import type { Logger } from '../logger.js';
import { cartSourceSchema } from './payment-link-record.js';
import { parseRecord } from './records.js';

const cartLineSchema = z.object({
  variantId: z.string().min(1),
  quantity: z.number().int(),
  serverId: z.string(),
  categoryId: z.string(),
  productId: z.string(),
  serverName: z.string(),
  productName: z.string(),
  variantName: z.string(),
  addedPrices: z.array(z.object({ method: z.string(), name: z.string(), amountGrosze: z.number().int(), sms: z.boolean() })).optional(),
}) satisfies z.ZodType<CartLine>;

const storedCartSchema = z.object({
  license: z.string(),
  lines: z.array(cartLineSchema),
  /** Set when lines were dropped behind the member's back; shown once, on their next /cart. */
  notice: z.enum(['license-changed']).optional(),
  /** When the cart was last changed; a record from before carts expired has none and counts as changed now. */
  touchedAt: z.number().optional(),
  /** How the member came to the shop when the cart's first line went in (the insights' sources). */
  source: cartSourceSchema.optional(),
});

export type StoredCart = z.infer<typeof storedCartSchema>;

/**
 * One cart record per member per guild: its shape, its key, and nothing else. What a change means
 * (the member's lock, the cart rules, expiry, the license check) is the cart service's
 * (src/services/cart-service.ts), the only writer besides migrations and tests.
 */
export class CartRepository {
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
  ) {}

  /** The stored record, or an empty cart of no license when there is none (or it no longer validates). */
  async read(guildId: string, userId: string): Promise<StoredCart> {
    const key = cartKey(guildId, userId);
    return parseRecord<StoredCart>(storedCartSchema, await this.keyv.get(key), () => ({ license: '', lines: [] }), this.logger, key);
  }

  /**
   * Writes the record as given, to be deleted by the store after `ttlMs` (the cart service gives the
   * cart's expiry: Redis deletes it itself, SQLite's sweep does); a cart with nothing in it and
   * nothing to tell is deleted instead.
   */
  async write(guildId: string, userId: string, cart: StoredCart, ttlMs?: number): Promise<void> {
    const key = cartKey(guildId, userId);
    if (cart.lines.length === 0 && !cart.notice) await this.keyv.delete(key);
    else await this.keyv.set(key, cart, ttlMs);
  }
}

function cartKey(guildId: string, userId: string): string {
  return `cart:${guildId}:${userId}`;
}

/** The lock key of a member's cart: the record's own key, so every process serializes on the same name. */
export function cartLockKey(guildId: string, userId: string): string {
  return cartKey(guildId, userId);
}
