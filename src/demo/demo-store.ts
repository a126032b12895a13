/**
 * The demo shop as a store: answers the SpaceIs API's requests in-process from demo-shop.json.
 *
 * Why a `fetch` and not a stub of the client: everything above the HTTP layer (the StoreClient's
 * envelope and schema checks, the license gate, the offer cache, the cart rules, the views) runs
 * exactly as for a real shop, so the demo shows what a buyer would really see. Only the store's
 * answers differ, and no request ever leaves the process.
 */
import { randomBytes } from 'node:crypto';
import demoShop from './demo-shop.json' with { type: 'json' };

// In a file of its own: the bot names the demo's license everywhere, and loads the demo only when a guild uses it.
export { DEMO_LICENSE } from './license.js';

/** Names of what the demo sells, as a member sees them (tests, screens and the README use them). */
export const demoLandmarks = {
  vip30: { server: 'Survival', category: 'Rangi', product: 'VIP', variant: '30 dni' },
  smsOnly: { server: 'Survival', category: 'Rangi', product: 'VIP', variant: '7 dni (SMS)' },
  noPrice: { server: 'Survival', category: 'Rangi', product: 'SVIP', variant: 'Edycja limitowana (wyprzedana)' },
  coins: { server: 'Survival', category: 'Waluta', product: 'Pakiet monet' },
  skyRank: { server: 'SkyBlock', category: 'Rangi wyspy', product: 'Ranga Żeglarz', variant: '30 dni' },
} as const;

interface DemoVariant {
  id: string;
  name: string;
  prices: { amount: string; method: string; type: string }[];
}
interface DemoAnswers {
  servers: { data: { id: string; slug: string; name: string }[] };
  server: Record<string, unknown>;
  variants: Record<string, { data: { product: { name: string }; variants: DemoVariant[] } }>;
}

const answers = demoShop as unknown as DemoAnswers;

/** A variant of the demo offer with the names a page about an order shows. */
export interface DemoItem {
  serverName: string;
  productName: string;
  variantName: string;
  /** The lowest non-SMS price in grosze, if the variant has one. */
  lowestGrosze: number | undefined;
}

const items = new Map<string, DemoItem>();
for (const [path, answer] of Object.entries(answers.variants)) {
  const serverName = answers.servers.data.find((server) => path.startsWith(`${server.id}/`))?.name ?? '';
  for (const variant of answer.data.variants) {
    const amounts = variant.prices.filter((price) => price.type !== 'sms').map((price) => Math.round(Number(price.amount) * 100));
    items.set(variant.id, {
      serverName,
      productName: answer.data.product.name,
      variantName: variant.name,
      lowestGrosze: amounts.length > 0 ? Math.min(...amounts) : undefined,
    });
  }
}

export function demoItem(variantId: string): DemoItem | undefined {
  return items.get(variantId);
}

/** An order the demo "took": what its pay page shows. */
export interface DemoOrder {
  nick: string;
  items: { variantId: string; quantity: number }[];
  createdAt: number;
}

export interface DemoStoreOptions {
  /** Keeps the order and returns the pay page's URL for it (starting the page's listener if need be). */
  issue(reference: string, order: DemoOrder): Promise<string>;
  now(): number;
}

/** A `fetch` that answers the store API's routes from the demo file. */
export function demoFetch(options: DemoStoreOptions): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? 'GET').toUpperCase();
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (method === 'POST' && url.pathname === '/v4/cart/paymentUrl') return paymentUrl(options, String(init?.body ?? ''));
    if (method !== 'GET' || parts[0] !== 'v4') return reply(404, failure('not found'));
    if (parts.length === 2 && parts[1] === 'servers') return reply(200, answers.servers);
    if (parts[1] !== 'server') return reply(404, failure('not found'));
    const server = answers.servers.data.find((candidate) => candidate.id === parts[2] || candidate.slug === parts[2]);
    if (!server) return reply(404, failure('server not found'));
    if (parts.length === 3) return reply(200, answers.server[server.id]);
    if (parts.length === 8 && parts[3] === 'category' && parts[5] === 'product' && parts[7] === 'variants') {
      const found = answers.variants[`${server.id}/${parts[4]}/${parts[6]}`];
      return found ? reply(200, found) : reply(404, failure('product not found'));
    }
    return reply(404, failure('not found'));
  };
}

/** The store's cart rules that the bot does not check itself: known variants, sane quantities. */
async function paymentUrl(options: DemoStoreOptions, text: string): Promise<Response> {
  let body: { items?: unknown; nick?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return reply(422, failure('The given data was invalid.'));
  }
  const list = Array.isArray(body.items) ? (body.items as { variantId?: unknown; quantity?: unknown }[]) : [];
  if (list.length === 0 || typeof body.nick !== 'string') return reply(422, failure('The given data was invalid.'));
  const orderItems: DemoOrder['items'] = [];
  for (const item of list) {
    if (typeof item.variantId !== 'string' || !items.has(item.variantId)) return reply(422, failure('invalid variant'));
    if (!Number.isInteger(item.quantity) || (item.quantity as number) < 1) return reply(422, failure('The given data was invalid.'));
    orderItems.push({ variantId: item.variantId, quantity: item.quantity as number });
  }
  // 128 random bits: a member cannot reach another member's page by guessing.
  const reference = randomBytes(16).toString('base64url');
  const payUrl = await options.issue(reference, { nick: body.nick, items: orderItems, createdAt: options.now() });
  return reply(200, { success: true, type: 'response', data: { paymentUrl: payUrl } });
}

function failure(message: string): unknown {
  return { success: false, type: 'error', message };
}

function reply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
