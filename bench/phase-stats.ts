/* What every phase of the bench reports about the bot's answers (per step) and the store it called. */
import type { FakeSpaceIs, ShopFixture } from '../test/fakes/spaceis/fake-spaceis.js';
import type { Sample } from './members.js';
import { RANGE_PRODUCT } from './shop-fixture.js';
import { round, roundSummary, summarize, type Summary } from './stats.js';

export interface StepStats {
  n: number;
  /** How the bot first answered: callback type → count (4 reply, 5 defer, 6 defer update, 7 update, 9 modal). */
  callbackTypes: Record<string, number>;
  firstCallbackMs: Summary;
  settledMs: Summary;
}

export function stepStats(samples: Sample[]): StepStats {
  const callbackTypes: Record<string, number> = {};
  for (const sample of samples) callbackTypes[sample.callbackType] = (callbackTypes[sample.callbackType] ?? 0) + 1;
  return {
    n: samples.length,
    callbackTypes,
    firstCallbackMs: roundSummary(summarize(samples.map((sample) => sample.ack)), 3),
    settledMs: roundSummary(summarize(samples.map((sample) => sample.settled)), 3),
  };
}

/** Steps that only browse and fill the cart, as opposed to checking out (Checkout, the nick form and its payment link). */
const CHECKOUT_STEPS = new Set(['checkout', 'nick']);

export function byStep(samples: Sample[], steps: readonly string[]): Record<string, StepStats> {
  const result: Record<string, StepStats> = {};
  for (const step of steps) {
    const mine = samples.filter((sample) => sample.step === step);
    if (mine.length > 0) result[step] = stepStats(mine);
  }
  result['browse+cart'] = stepStats(samples.filter((sample) => !CHECKOUT_STEPS.has(sample.step)));
  result.all = stepStats(samples);
  return result;
}

type StoreRoute = 'servers' | 'server' | 'variants' | 'paymentUrl' | 'other';
function storeRoute(method: string, path: string): StoreRoute {
  const clean = path.split('?')[0] ?? '';
  if (method === 'GET' && clean === '/v4/servers') return 'servers';
  if (method === 'GET' && /^\/v4\/server\/[^/]+$/.test(clean)) return 'server';
  if (method === 'GET' && /\/variants$/.test(clean)) return 'variants';
  if (method === 'POST' && clean === '/v4/cart/paymentUrl') return 'paymentUrl';
  return 'other';
}

export interface StoreStats {
  total: number;
  perJourney?: number;
  byRoute: Record<string, { requests: number; distinct: number }>;
  /** Requests beyond one per distinct offer key (payment links excluded): what the cache failed to save. */
  duplicateOfferRequests: number;
}

export function storeStats(store: FakeSpaceIs, from: number, journeys?: number): StoreStats {
  const requests = store.requests.slice(from);
  const byRoute: Record<string, { requests: number; paths: Set<string> }> = {};
  for (const request of requests) {
    const route = storeRoute(request.method, request.path);
    const entry = (byRoute[route] ??= { requests: 0, paths: new Set() });
    entry.requests += 1;
    entry.paths.add(request.path);
  }
  let duplicates = 0;
  const out: StoreStats['byRoute'] = {};
  for (const [route, entry] of Object.entries(byRoute)) {
    out[route] = { requests: entry.requests, distinct: entry.paths.size };
    if (route !== 'paymentUrl') duplicates += entry.requests - entry.paths.size;
  }
  return {
    total: requests.length,
    ...(journeys ? { perJourney: round(requests.length / journeys, 3) } : {}),
    byRoute: out,
    duplicateOfferRequests: duplicates,
  };
}

/** Every member opens the coin pack in the paced journeys: how often the store heard about its variants since `from`. */
export function rangeVariantRequests(store: FakeSpaceIs, shop: ShopFixture, from: number): number {
  const rangeProduct = shop.servers.flatMap((server) => server.categories.flatMap((category) => category.products)).find((product) => product.name === RANGE_PRODUCT)!;
  return store.requests
    .slice(from)
    .filter((request) => storeRoute(request.method, request.path) === 'variants' && decodeURIComponent(request.path).includes(rangeProduct.id)).length;
}
