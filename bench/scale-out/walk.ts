/**
 * A member's walk through the shop up to Add to cart (all seven kinds, or one), and the p99 first
 * callback per kind.
 */
import type { BenchMember, Sample } from '../members.js';
import type { Shelf } from '../journey-plans.js';
import { round, summarize } from '../stats.js';
import { SCALE_KINDS, type Kind } from './options.js';

/** A member of the pool: its guild, its server (carts hold one server's items), its own walk per round. */
export interface PoolMember {
  member: BenchMember;
  index: number;
  shelves: Shelf[];
}

export async function walkOnce(pool: PoolMember, round: number, pace: () => Promise<void>, only?: Kind): Promise<void> {
  const { member, index, shelves } = pool;
  const shelf = shelves[(index + round * 3) % shelves.length]!;
  const variant = shelf.variants[(index + round) % shelf.variants.length]!;
  const quantity = 1 + ((index + round) % 5);
  const steps: Record<Kind, () => Promise<unknown>> = {
    shop: () => member.slash('shop', 'shop'),
    server: () => member.choose('server', shelf.server),
    category: () => member.choose('category', shelf.category),
    product: () => member.choose('product', shelf.product),
    variant: () => member.choose('variant', variant),
    quantity: () => member.choose('quantity', `${quantity} ×`),
    add: () => member.press('add', 'Add to cart'),
  };
  if (only) {
    await pace();
    await steps[only]();
    return;
  }
  for (const kind of SCALE_KINDS) {
    await pace();
    await steps[kind]();
  }
}

export function p99ByKind(samples: Sample[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const kind of SCALE_KINDS) {
    const mine = samples.filter((sample) => sample.step === kind).map((sample) => sample.ack);
    if (mine.length > 0) out[kind] = round(summarize(mine).p99, 2);
  }
  return out;
}
