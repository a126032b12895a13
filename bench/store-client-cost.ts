/**
 * What one store request costs the bot's process: the store client asking the local store
 * for payment links (POST /v4/cart/paymentUrl) and for the latest purchases (the payment watcher's
 * poll), through its default transport (undici's request) and through `fetch`, turn about, CPU time
 * per request. The local store runs in this process too: its share is the same on both sides, so the
 * difference is the client's.
 */
import { StoreClient } from '../src/spaceis/client.js';
import { FakeSpaceIs } from '../test/fakes/spaceis/fake-spaceis.js';
import { findServer, findVariant } from '../test/fakes/spaceis/fixtures.js';
import { round } from './stats.js';

export interface StoreClientCost {
  requests: number;
  /** Process CPU per request (client and local store), µs. */
  undiciUs: number;
  fetchUs: number;
}

const CONCURRENCY = 20;

export async function measureStoreClientCost(requests = 3000, rounds = 3): Promise<StoreClientCost> {
  const store = await FakeSpaceIs.start({ rateLimit: 100_000_000 });
  try {
    const variant = findVariant(store.shop, 'VIP', '30 dni');
    const server = findServer(store.shop, 'Survival');
    const clients = {
      undici: new StoreClient({ baseUrl: store.url, apiKey: store.apiKey }),
      fetch: new StoreClient({ baseUrl: store.url, apiKey: store.apiKey, fetch: globalThis.fetch }),
    };
    const one = (client: StoreClient, index: number) =>
      index % 2 === 0 ? client.createPaymentUrl({ items: [{ variantId: variant.variant.id, quantity: 1 }], nick: `Bench_${index}` }) : client.latestBuyers(server.id, 10);
    const cpuPerRequest = async (client: StoreClient, count: number): Promise<number> => {
      const before = process.cpuUsage();
      for (let start = 0; start < count; start += CONCURRENCY) {
        await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count - start) }, (_unused, offset) => one(client, start + offset)));
      }
      const used = process.cpuUsage(before);
      return (used.user + used.system) / count;
    };
    // Warm both, then take turns.
    await cpuPerRequest(clients.undici, 500);
    await cpuPerRequest(clients.fetch, 500);
    let undici = 0;
    let fetched = 0;
    for (let turn = 0; turn < rounds; turn++) {
      undici += await cpuPerRequest(clients.undici, requests);
      fetched += await cpuPerRequest(clients.fetch, requests);
    }
    return { requests: requests * rounds, undiciUs: round(undici / rounds, 0), fetchUs: round(fetched / rounds, 0) };
  } finally {
    await store.close();
  }
}
