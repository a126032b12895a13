/**
 * The cart rules of the store API (see docs/spaceis-api.md, "Cart rules"),
 * as pure functions: no I/O, no Discord. Every change to a cart goes through here, so the bot
 * refuses a rule-breaking cart with a clear reason before the store ever sees it.
 */
import type { PricedOption } from './pricing.js';

export const MAX_LINES = 20;
export const MIN_QUANTITY = 1;
export const MAX_QUANTITY = 99;

export interface CartLine {
  /** Exactly as the variants endpoint returned it: an opaque string, never rebuilt. */
  variantId: string;
  quantity: number;
  serverId: string;
  categoryId: string;
  productId: string;
  serverName: string;
  productName: string;
  variantName: string;
  /**
   * The variant's prices when the line was added (or last added to): what "was 10,50 zł, now 12,00 zł"
   * compares with (src/cart/price-changes.ts), and the estimate shown when the shop cannot be reached.
   * Lines added before the bot remembered prices have none: their changes are unknown, never asked about.
   */
  addedPrices?: PricedOption[];
}

export interface Cart {
  /** Full id of the license the lines come from (src/security/license-id.ts): every line of a cart belongs to one license. */
  license: string;
  lines: CartLine[];
}

export interface CartPolicy {
  /** Full id of the license the guild sells from now. */
  license: string;
  /** Items from several servers in one cart; off unless the shop (and the guild) allows it. */
  multiServer: boolean;
}

export type RuleViolation =
  | { code: 'cart-full'; max: number }
  | { code: 'other-server'; serverName: string }
  | { code: 'other-license' }
  | { code: 'quantity-range'; min: number; max: number }
  | { code: 'already-at-max'; max: number }
  | { code: 'line-missing' }
  | { code: 'empty' };

export type CartChange =
  | { ok: true; cart: Cart; line: CartLine; capped: boolean }
  | { ok: false; violation: RuleViolation };

export function emptyCart(license: string): Cart {
  return { license, lines: [] };
}

/** A quantity as a member typed it: digits only, else 0 (which the rules then refuse with a reason). */
export function parseQuantity(typed: string): number {
  const text = typed.trim();
  return /^\d{1,3}$/.test(text) ? Number(text) : 0;
}

export function isValidQuantity(quantity: number): boolean {
  return Number.isInteger(quantity) && quantity >= MIN_QUANTITY && quantity <= MAX_QUANTITY;
}

const quantityRange: RuleViolation = { code: 'quantity-range', min: MIN_QUANTITY, max: MAX_QUANTITY };

/**
 * Adds `quantity` units of an item. A variant already in the cart gets its quantity raised
 * (the API accepts a variant once), capped at MAX_QUANTITY with `capped` set so the buyer is told.
 */
export function addItem(
  cart: Cart,
  item: Omit<CartLine, 'quantity'>,
  quantity: number,
  policy: CartPolicy,
): CartChange {
  if (!isValidQuantity(quantity)) return { ok: false, violation: quantityRange };
  if (cart.lines.length > 0 && cart.license !== policy.license) {
    return { ok: false, violation: { code: 'other-license' } };
  }
  const base: Cart = cart.lines.length === 0 ? emptyCart(policy.license) : cart;

  const existing = base.lines.find((line) => line.variantId === item.variantId);
  if (existing) {
    if (existing.quantity >= MAX_QUANTITY) return { ok: false, violation: { code: 'already-at-max', max: MAX_QUANTITY } };
    const wanted = existing.quantity + quantity;
    // The line keeps where it came from: only the quantity changes, and the prices the member just saw.
    const line: CartLine = { ...existing, quantity: Math.min(wanted, MAX_QUANTITY), ...(item.addedPrices ? { addedPrices: item.addedPrices } : {}) };
    return { ok: true, cart: replaceLine(base, line), line, capped: wanted > MAX_QUANTITY };
  }

  if (base.lines.length >= MAX_LINES) return { ok: false, violation: { code: 'cart-full', max: MAX_LINES } };
  const otherServer = policy.multiServer ? undefined : base.lines.find((line) => line.serverId !== item.serverId);
  if (otherServer) return { ok: false, violation: { code: 'other-server', serverName: otherServer.serverName } };

  const line: CartLine = { ...item, quantity };
  return { ok: true, cart: { ...base, lines: [...base.lines, line] }, line, capped: false };
}

export function setQuantity(cart: Cart, variantId: string, quantity: number): CartChange {
  if (!isValidQuantity(quantity)) return { ok: false, violation: quantityRange };
  const existing = cart.lines.find((line) => line.variantId === variantId);
  if (!existing) return { ok: false, violation: { code: 'line-missing' } };
  const line = { ...existing, quantity };
  return { ok: true, cart: replaceLine(cart, line), line, capped: false };
}

export function removeLine(cart: Cart, variantId: string): Cart {
  return { ...cart, lines: cart.lines.filter((line) => line.variantId !== variantId) };
}

/**
 * The last check before the payment-link request: the cart may have been filled under other
 * settings (multi-server carts switched off since, another license configured), so the whole
 * cart is checked again against today's policy.
 */
export function checkoutViolation(cart: Cart, policy: CartPolicy): RuleViolation | undefined {
  if (cart.lines.length === 0) return { code: 'empty' };
  if (cart.license !== policy.license) return { code: 'other-license' };
  if (cart.lines.length > MAX_LINES) return { code: 'cart-full', max: MAX_LINES };
  if (cart.lines.some((line) => !isValidQuantity(line.quantity))) return quantityRange;
  const first = cart.lines[0];
  if (!policy.multiServer && first && cart.lines.some((line) => line.serverId !== first.serverId)) {
    return { code: 'other-server', serverName: first.serverName };
  }
  return undefined;
}

/** The `items` of a payment-link request: variant ids byte for byte, quantities, nothing else. */
export function paymentItems(cart: Cart): { variantId: string; quantity: number }[] {
  const seen = new Set<string>();
  const items: { variantId: string; quantity: number }[] = [];
  for (const line of cart.lines) {
    if (seen.has(line.variantId)) continue; // defensive: a variant may appear only once
    seen.add(line.variantId);
    items.push({ variantId: line.variantId, quantity: line.quantity });
  }
  return items;
}

function replaceLine(cart: Cart, line: CartLine): Cart {
  return { ...cart, lines: cart.lines.map((current) => (current.variantId === line.variantId ? line : current)) };
}
