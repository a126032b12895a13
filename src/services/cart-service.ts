import { addItem, emptyCart, removeLine, setQuantity, type Cart, type CartChange, type CartLine, type CartPolicy, type RuleViolation } from '../cart/rules.js';
import type { Clock } from '../clock.js';
import type { Locks } from '../coordination/coordination.js';
import { KeyLock } from '../coordination/key-lock.js';
import { sameLicense } from '../security/license-id.js';
import { cartLockKey, type CartRepository, type StoredCart } from '../storage/carts.js';
import type { CartSource } from '../storage/payment-link-record.js';
import type { NickRepository } from '../storage/nicks.js';
import { shortRef } from './short-ref.js';

/**
 * Every change to a member's cart, in one place below Discord. The service owns what a change
 * means: the member's lock (simultaneous presses on one cart apply in turn, in every process), the
 * cart rules (src/cart/rules.ts), the license check (a cart filled from another shop's license is emptied
 * with a notice), expiry (CART_EXPIRY_DAYS) and the side effects of a change (a first line opens
 * the member's DM channel in the background). Handlers call one operation and show its outcome.
 *
 * A cart line is named by the short reference of its variant (`lineRef`), as components carry it.
 */

/** Whose cart: one per member per guild. */
export interface CartOwner {
  guildId: string;
  userId: string;
}

/** Something to put in a cart: where it sits in the offer and its names, without a quantity. */
export type CartItem = Omit<CartLine, 'quantity'>;

/** The cart as /cart shows it. */
export interface CartReading {
  lines: CartLine[];
  /** Lines were dropped since the member last looked (the guild's license changed): told once. */
  notice: 'license-changed' | undefined;
  /** The nick the member checks out with, when the cart has lines (shown as a hint). */
  nick: string | undefined;
}

/** One wanted item of `addMany`: added (with the line as it stands now), or refused by a rule. */
export type AddOutcome = { kind: 'added'; line: CartLine; capped: boolean } | { kind: 'refused'; violation: RuleViolation };

export type QuantityChange = { kind: 'changed'; line: CartLine } | { kind: 'refused'; line: CartLine } | { kind: 'gone' };

export interface CartServiceOptions {
  repository: CartRepository;
  nicks: NickRepository;
  clock: Clock;
  /** Shared by every process on one Redis (src/coordination); this process's own otherwise. */
  locks?: Locks;
  /** A cart nobody changed for this many days reads as empty (CART_EXPIRY_DAYS). */
  expiryDays?: number;
  /** A member's cart went from empty to one line or more (the DM warm-up: see payment-links/dm-warmer.ts). */
  onCartStarted?: (userId: string) => void;
  /**
   * Whether lines kept under license `stored` belong to the shop license `current` sells from: another
   * key of the same shop, say, after the operator rotated it (the store directory's `sameShop`).
   * Asked only when the two differ. Without it, only the same license (or its older short name) is.
   */
  sameShop?: (stored: string, current: string) => Promise<boolean>;
}

const DAY_MS = 86_400_000;

/** What a change under the lock returns: the cart to save (none: leave it) and the caller's result. */
type Change<R> = (cart: StoredCart) => Promise<{ cart?: StoredCart; result: R }> | { cart?: StoredCart; result: R };

export class CartService {
  readonly #repository: CartRepository;
  readonly #nicks: NickRepository;
  readonly #clock: Clock;
  readonly #locks: Locks;
  readonly #expiryMs: number;
  readonly #onCartStarted: (userId: string) => void;
  readonly #sameShop: (stored: string, current: string) => Promise<boolean>;

  constructor(options: CartServiceOptions) {
    this.#repository = options.repository;
    this.#nicks = options.nicks;
    this.#clock = options.clock;
    this.#locks = options.locks ?? new KeyLock();
    this.#expiryMs = (options.expiryDays ?? 30) * DAY_MS;
    this.#onCartStarted = options.onCartStarted ?? (() => undefined);
    this.#sameShop = options.sameShop ?? (async (stored, current) => sameLicense(stored, current));
  }

  /**
   * Whether what was kept under license `stored` (a cart, a payment link's items) belongs to the shop
   * license `current` sells from: the same license, or another key of the same shop.
   */
  async sameShop(stored: string, current: string): Promise<boolean> {
    return sameLicense(stored, current) || this.#sameShop(stored, current);
  }

  /**
   * The cart for /cart, taking its pending notice in the same step so it is shown exactly once.
   * With the guild's current `license`, a cart of another shop's license is emptied (and that is the notice);
   * without one (no usable license) the cart is shown as it is.
   */
  async read(owner: CartOwner, license: string | undefined): Promise<CartReading> {
    const taken = await this.#change<StoredCart>(owner, license, (cart) =>
      cart.notice ? { cart: { license: cart.license, lines: cart.lines }, result: cart } : { result: cart },
    );
    const nick = taken.lines.length > 0 && license ? await this.#nicks.get(license, owner.userId) : undefined;
    return { lines: taken.lines, notice: taken.notice, nick };
  }

  /** The cart's lines as they stand, without taking a notice. */
  async lines(owner: CartOwner): Promise<CartLine[]> {
    return (await this.#current(owner)).lines;
  }

  /** One line, by its reference; undefined when it left the cart. */
  async line(owner: CartOwner, lineRef: string): Promise<CartLine | undefined> {
    return lineByRef(await this.lines(owner), lineRef);
  }

  /**
   * Adds `quantity` of an item under the guild's policy (a variant already there has its quantity raised).
   * `source`: how the member came to the shop; kept when this is the cart's first line (the insights' sources).
   */
  async add(owner: CartOwner, policy: CartPolicy, item: CartItem, quantity: number, source?: CartSource): Promise<CartChange> {
    let startedEmpty = false;
    const change = await this.#change<CartChange>(owner, policy.license, (stored) => {
      startedEmpty = stored.lines.length === 0;
      const result = addItem(cartOf(stored), item, quantity, policy);
      return result.ok ? { cart: { ...startedWith(stored, source), ...result.cart }, result } : { result };
    });
    if (startedEmpty && change.ok) this.#onCartStarted(owner.userId);
    return change;
  }

  /**
   * Adds several items in one step (Buy again): each checked against the rules and the lines added
   * before it; the cart is saved once, if anything was added. Says, item by item, what happened.
   */
  async addMany(owner: CartOwner, policy: CartPolicy, wanted: readonly { item: CartItem; quantity: number }[], source?: CartSource): Promise<AddOutcome[]> {
    let startedEmpty = false;
    const outcomes = await this.#change<AddOutcome[]>(owner, policy.license, (stored) => {
      let cart = cartOf(stored);
      startedEmpty = cart.lines.length === 0;
      const result = wanted.map(({ item, quantity }): AddOutcome => {
        const change = addItem(cart, item, quantity, policy);
        if (!change.ok) return { kind: 'refused', violation: change.violation };
        cart = change.cart;
        return { kind: 'added', line: change.line, capped: change.capped };
      });
      return result.some((outcome) => outcome.kind === 'added') ? { cart: { ...startedWith(stored, source), ...cart }, result } : { result };
    });
    if (startedEmpty && outcomes.some((outcome) => outcome.kind === 'added')) this.#onCartStarted(owner.userId);
    return outcomes;
  }

  /** Sets a line's quantity (1–99); a quantity outside the range is refused and the line left as it was. */
  async setQuantity(owner: CartOwner, lineRef: string, quantity: number): Promise<QuantityChange> {
    return this.#change<QuantityChange>(owner, undefined, (stored) => {
      const line = lineByRef(stored.lines, lineRef);
      if (!line) return { result: { kind: 'gone' } };
      const change = setQuantity(cartOf(stored), line.variantId, quantity);
      if (!change.ok) return { result: { kind: 'refused', line } };
      return { cart: { ...stored, ...change.cart }, result: { kind: 'changed', line: change.line } };
    });
  }

  /** Removes a line; false when it had already left the cart. */
  async remove(owner: CartOwner, lineRef: string): Promise<boolean> {
    return this.#change<boolean>(owner, undefined, (stored) => {
      const line = lineByRef(stored.lines, lineRef);
      return line ? { cart: { ...stored, ...removeLine(cartOf(stored), line.variantId) }, result: true } : { result: false };
    });
  }

  async clear(owner: CartOwner): Promise<void> {
    await this.#change(owner, undefined, (stored) => ({ cart: { license: stored.license, lines: [] }, result: undefined }));
  }

  /**
   * Checkout's hold on the cart: `work` runs under the member's lock with the cart as it stands under
   * `license`, so a double press waits for the first and then finds the cart already checked out.
   * The cart is emptied when `work` says so (a link was issued), and left exactly as it was otherwise.
   */
  async checkOut<R>(owner: CartOwner, license: string, work: (cart: Cart, source: CartSource | undefined) => Promise<{ empty: boolean; result: R }>): Promise<R> {
    return this.#change<R>(owner, license, async (stored) => {
      const { empty, result } = await work(cartOf(stored), stored.source);
      return empty ? { cart: { license: stored.license, lines: [] }, result } : { result };
    });
  }

  /** The stored cart, read as empty once it has expired. */
  async #current(owner: CartOwner): Promise<StoredCart> {
    const stored = await this.#repository.read(owner.guildId, owner.userId);
    if (stored.touchedAt !== undefined && this.#clock.now() - stored.touchedAt > this.#expiryMs) return emptyCart(stored.license);
    return stored;
  }

  /**
   * Read-modify-write under the member's lock. With a `license`, the cart is first taken as it
   * stands under it (`forLicense`); an emptied cart of another shop is saved even when the change
   * itself saves nothing, so the member's notice is not lost.
   */
  async #change<R>(owner: CartOwner, license: string | undefined, change: Change<R>): Promise<R> {
    return this.#locks.run(cartLockKey(owner.guildId, owner.userId), async () => {
      const stored = await this.#current(owner);
      const current = license === undefined ? stored : forLicense(stored, license, await this.#keptUnder(stored, license));
      const outcome = await change(current);
      const cart = outcome.cart ?? (current === stored ? undefined : current);
      // Written with the expiry as its time to live: the record is deleted when it would read as expired.
      if (cart) await this.#repository.write(owner.guildId, owner.userId, { ...cart, touchedAt: this.#clock.now() }, this.#expiryMs);
      return outcome.result;
    });
  }

  /** Whether the cart's lines still stand under `license`; the shop is asked about only when they would otherwise be dropped. */
  async #keptUnder(stored: StoredCart, license: string): Promise<boolean> {
    if (stored.license === license || stored.lines.length === 0) return true;
    return this.sameShop(stored.license, license);
  }
}

/**
 * The cart as it stands under `license`. Lines of the same shop (`sameShop`: the same license, its
 * older short name, or another key of the same shop) are kept and the cart is named by `license`
 * from now on; lines of another shop are dropped, with a notice.
 */
export function forLicense(stored: StoredCart, license: string, sameShop = sameLicense(stored.license, license)): StoredCart {
  if (stored.license === license) return stored;
  if (sameShop || stored.lines.length === 0) return { ...stored, license };
  return { license, lines: [], notice: 'license-changed' };
}

/** The stored cart, with `source` noted when it has no line yet (a cart's first line decides where it started). */
function startedWith(stored: StoredCart, source: CartSource | undefined): StoredCart {
  if (stored.lines.length > 0 || !source) return stored;
  return { ...stored, source };
}

function cartOf(stored: StoredCart): Cart {
  return { license: stored.license, lines: stored.lines };
}

function lineByRef(lines: readonly CartLine[], ref: string): CartLine | undefined {
  return lines.find((line) => shortRef(line.variantId) === ref);
}
