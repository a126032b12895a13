import { createHash } from 'node:crypto';
import { lowestPrice, type PricedVariant } from './pricing.js';
import type { CartLine } from './rules.js';

/**
 * What changed in the offer since each cart line was added: its lowest price (the cheapest non-SMS
 * method, as the cart's estimate reads it) went up or down, or the variant is gone or can no longer
 * be bought. Pure: the current prices are read by the caller (src/services/cart-prices.ts).
 */

export type LineChange =
  | { kind: 'same' }
  | { kind: 'up' | 'down'; wasGrosze: number; nowGrosze: number }
  /** The shop no longer offers the variant. */
  | { kind: 'gone' }
  /** Still offered, but with no price a cart can be paid with (SMS only, or none). */
  | { kind: 'not-buyable' }
  /** A line added before the cart remembered prices: nothing to compare with. */
  | { kind: 'unknown' };

export interface CartChanges {
  /** By variant id. */
  lines: Map<string, LineChange>;
  /** Some line costs more than when it was added: checkout asks before issuing the link. */
  priceUp: boolean;
  /** Variant ids left out of the payment link (gone or not buyable). */
  leftOut: Set<string>;
}

export function compareWithOffer(lines: readonly CartLine[], current: ReadonlyMap<string, PricedVariant>): CartChanges {
  const changes = new Map<string, LineChange>();
  const leftOut = new Set<string>();
  let priceUp = false;
  for (const line of lines) {
    const change = lineChange(line, current.get(line.variantId));
    changes.set(line.variantId, change);
    if (change.kind === 'gone' || change.kind === 'not-buyable') leftOut.add(line.variantId);
    if (change.kind === 'up') priceUp = true;
  }
  return { lines: changes, priceUp, leftOut };
}

function lineChange(line: CartLine, variant: PricedVariant | undefined): LineChange {
  if (!variant) return { kind: 'gone' };
  const nowGrosze = lowestPrice(variant);
  if (nowGrosze === undefined) return { kind: 'not-buyable' };
  const wasGrosze = line.addedPrices ? lowestPrice({ id: line.variantId, prices: line.addedPrices }) : undefined;
  if (wasGrosze === undefined) return { kind: 'unknown' };
  if (nowGrosze === wasGrosze) return { kind: 'same' };
  return { kind: nowGrosze > wasGrosze ? 'up' : 'down', wasGrosze, nowGrosze };
}

/** The prices the cart remembered, as variants: the estimate when the shop cannot be reached (lines without any are missing). */
export function rememberedPrices(lines: readonly CartLine[]): Map<string, PricedVariant> {
  const variants = new Map<string, PricedVariant>();
  for (const line of lines) if (line.addedPrices) variants.set(line.variantId, { id: line.variantId, prices: line.addedPrices });
  return variants;
}

/** Characters of `offerDigest`: base64url, the shape of a short store reference (it travels in a button's custom id as one). */
export const OFFER_DIGEST_LENGTH = 8;

/**
 * What the "prices went up" question showed, in a few characters: every line (variant, quantity)
 * with its price now. "Continue with the new prices" carries it; when the cart or the prices differ
 * by the time it is pressed (a further rise, a line added), the digests differ and the member is
 * asked again: the link is only ever issued for what the member agreed to.
 */
export function offerDigest(lines: readonly CartLine[], current: ReadonlyMap<string, PricedVariant>): string {
  const parts = lines.map((line) => {
    const variant = current.get(line.variantId);
    return `${line.variantId}:${line.quantity}:${variant ? (lowestPrice(variant) ?? '-') : 'gone'}`;
  });
  return createHash('sha256').update(parts.sort().join('|')).digest('base64url').slice(0, OFFER_DIGEST_LENGTH);
}
