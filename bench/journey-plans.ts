/* Who buys what in the journey phases and the checkout crowd: plans over the shop fixture's shelves. */
import type { ShopFixture } from '../test/fakes/spaceis/fake-spaceis.js';
import type { JourneyPlan, Pick } from './members.js';
import { RANGE_PRODUCT } from './shop-fixture.js';

export interface Shelf {
  server: string;
  category: string;
  product: string;
  variants: string[];
}

export function shelves(shop: ShopFixture, serverName: string): Shelf[] {
  const server = shop.servers.find((candidate) => candidate.name === serverName);
  if (!server) throw new Error(`no server ${serverName}`);
  return server.categories.flatMap((category) =>
    category.products.map((product) => ({
      server: server.name,
      category: category.name,
      product: product.name,
      // Members pick from the first page of the variant menu.
      variants: product.variants.slice(0, 25).map((variant) => variant.name),
    })),
  );
}

function pickFrom(shelf: Shelf, member: number, quantity: number) {
  return { server: shelf.server, category: shelf.category, product: shelf.product, variant: shelf.variants[member % shelf.variants.length]!, quantity };
}

/**
 * Everyone in the main server: every member opens the 300-variant coin pack first (the same product
 * within one cache period), then two of the server's 20 other products.
 */
export function mainServerPlans(shop: ShopFixture, members: number, nickPrefix: string): JourneyPlan[] {
  const all = shelves(shop, 'Survival');
  const range = all.find((shelf) => shelf.product === RANGE_PRODUCT)!;
  const others = all.filter((shelf) => shelf !== range);
  return Array.from({ length: members }, (_unused, index) => ({
    picks: [
      pickFrom(range, index, 1 + (index % 5)),
      pickFrom(others[index % others.length]!, index, 1 + ((index + 1) % 5)),
      pickFrom(others[(index + 7) % others.length]!, index, 1 + ((index + 2) % 5)),
    ],
    nick: `${nickPrefix}_${index}`,
  }));
}

/** Members spread over all servers, three neighbouring products each. */
export function spreadPlans(shop: ShopFixture, members: number, nickPrefix: string): JourneyPlan[] {
  return Array.from({ length: members }, (_unused, index) => {
    const server = shop.servers[index % shop.servers.length]!;
    const list = shelves(shop, server.name);
    return {
      picks: [0, 1, 2].map((k) => pickFrom(list[(index + k) % list.length]!, index + k, 1 + ((index + k) % 5))),
      nick: `${nickPrefix}_${index}`,
    };
  });
}

/** The checkout crowd's carts: one line each, in the main server. */
export function crowdPicks(shop: ShopFixture, members: number): Pick[] {
  return mainServerPlans(shop, members, 'Tlum').map((plan) => plan.picks[1]!);
}
