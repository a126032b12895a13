/**
 * Indicative prices for the buyer. The store computes every real amount itself; these figures
 * only help the buyer choose, and the views label them as estimates.
 */

export interface PricedOption {
  method: string;
  name: string;
  amountGrosze: number;
  sms: boolean;
}

export interface PricedVariant {
  id: string;
  prices: PricedOption[];
}

/** The cheapest non-SMS price (SMS cannot pay for a cart), or undefined when the variant cannot be bought. */
export function lowestPrice(variant: PricedVariant): number | undefined {
  let lowest: number | undefined;
  for (const price of variant.prices) {
    if (price.sms) continue;
    if (lowest === undefined || price.amountGrosze < lowest) lowest = price.amountGrosze;
  }
  return lowest;
}

export function isPurchasable(variant: PricedVariant): boolean {
  return lowestPrice(variant) !== undefined;
}

export interface MethodTotal {
  method: string;
  name: string;
  totalGrosze: number;
}

export type CartEstimate =
  | { kind: 'totals'; totals: MethodTotal[] }
  | { kind: 'no-common-method' }
  | { kind: 'prices-unavailable' };

/**
 * Totals for each payment method that every line can be paid with (SMS excluded), cheapest first.
 * Variants of one product may differ in methods, so a method missing on any line is left out.
 */
export function estimateCart(
  lines: { variantId: string; quantity: number }[],
  variantsById: ReadonlyMap<string, PricedVariant>,
): CartEstimate {
  let totals: Map<string, MethodTotal> | undefined;
  for (const line of lines) {
    const variant = variantsById.get(line.variantId);
    if (!variant) return { kind: 'prices-unavailable' };
    const lineTotals = new Map<string, MethodTotal>();
    for (const price of variant.prices) {
      if (price.sms || lineTotals.has(price.method)) continue;
      const previous = totals ? totals.get(price.method) : { method: price.method, name: price.name, totalGrosze: 0 };
      if (!previous) continue;
      lineTotals.set(price.method, { ...previous, totalGrosze: previous.totalGrosze + price.amountGrosze * line.quantity });
    }
    totals = lineTotals;
  }
  const result = [...(totals?.values() ?? [])].sort((a, b) => a.totalGrosze - b.totalGrosze || a.name.localeCompare(b.name));
  return result.length > 0 ? { kind: 'totals', totals: result } : { kind: 'no-common-method' };
}
