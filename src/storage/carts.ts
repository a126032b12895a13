import { z } from 'zod';
import type Keyv from 'keyv';
import { emptyCart, type Cart } from '../cart/rules.js';
import { systemClock, type Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { sameLicense } from '../security/license-id.js';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
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
});

const storedCartSchema = z.object({
  license: z.string(),
  lines: z.array(cartLineSchema),
  /** Set when lines were dropped behind the member's back; shown once, on their next /cart. */
  notice: z.enum(['license-changed']).optional(),
  /** When the cart was last changed; a record from before carts expired has none and counts as changed now. */
  touchedAt: z.number().optional(),
});

export type StoredCart = z.infer<typeof storedCartSchema>;

const DAY_MS = 86_400_000;

/**
 * One cart per member per guild, kept across restarts. A cart nobody changed for `expiryDays`
 * (CART_EXPIRY_DAYS) reads as empty, and its record goes at the member's next change.
 */
export class CartRepository {
  readonly #locks: Locks;
  readonly #clock: Clock;
  readonly #expiryMs: number;

  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    /** `locks`: shared by every process on one Redis (src/coordination); this process's own otherwise. */
    options: { clock?: Clock; expiryDays?: number; locks?: Locks } = {},
  ) {
    this.#locks = options.locks ?? new KeyLock();
    this.#clock = options.clock ?? systemClock;
    this.#expiryMs = (options.expiryDays ?? 30) * DAY_MS;
  }

  async get(guildId: string, userId: string): Promise<StoredCart> {
    const key = cartKey(guildId, userId);
    const stored = parseRecord<StoredCart>(storedCartSchema, await this.keyv.get(key), () => emptyCart(''), this.logger, key);
    if (stored.touchedAt !== undefined && this.#clock.now() - stored.touchedAt > this.#expiryMs) return emptyCart(stored.license);
    return stored;
  }

  /**
   * Read-modify-write under the member's lock, so simultaneous clicks on one cart apply in turn.
   * `change` returns the new cart (or undefined to leave it as is) and a result for the caller.
   */
  async update<R>(
    guildId: string,
    userId: string,
    change: (cart: StoredCart) => Promise<{ cart?: StoredCart; result: R }> | { cart?: StoredCart; result: R },
  ): Promise<R> {
    const key = cartKey(guildId, userId);
    return this.#locks.run(key, async () => {
      const current = await this.get(guildId, userId);
      const { cart, result } = await change(current);
      if (cart) await this.save(key, cart);
      return result;
    });
  }

  /**
   * `update` for the guild's current license: a cart filled from another license (the admins
   * changed it since) is emptied first and marked, so the member is told why on their next /cart.
   */
  async updateFor<R>(
    license: string,
    guildId: string,
    userId: string,
    change: (cart: StoredCart) => Promise<{ cart?: StoredCart; result: R }> | { cart?: StoredCart; result: R },
  ): Promise<R> {
    return this.update<R>(guildId, userId, async (stored) => {
      const current = forLicense(stored, license);
      const outcome = await change(current);
      return { cart: outcome.cart ?? (current === stored ? undefined : current), result: outcome.result };
    });
  }

  private async save(key: string, cart: StoredCart): Promise<void> {
    if (cart.lines.length === 0 && !cart.notice) await this.keyv.delete(key);
    else await this.keyv.set(key, { ...cart, touchedAt: this.#clock.now() });
  }
}

/** The cart as it stands under `license`: lines of another license are dropped, with a notice. */
export function forLicense(stored: StoredCart, license: string): StoredCart {
  if (stored.license === license) return stored;
  // Saved before licenses had full ids (named by fingerprint): the same license, now named in full.
  if (sameLicense(stored.license, license)) return { ...stored, license };
  if (stored.lines.length === 0) return { ...stored, license };
  return { license, lines: [], notice: 'license-changed' };
}

export function asCart(stored: StoredCart): Cart {
  return { license: stored.license, lines: stored.lines };
}

function cartKey(guildId: string, userId: string): string {
  return `cart:${guildId}:${userId}`;
}
