import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreClient, type StoreClientOptions, type StoreResponseInfo } from '../../../src/spaceis/client.js';
import { API_MESSAGES, StoreError } from '../../../src/spaceis/errors.js';
import { isSmsPrice, toGrosze } from '../../../src/spaceis/schemas.js';
import { BUYER_EMAIL, FakeSpaceIs } from '../../fakes/spaceis/fake-spaceis.js';
import { findProduct, findServer, findVariant, landmarks } from '../../fakes/spaceis/fixtures.js';

let fake: FakeSpaceIs;
let delays: number[];

function makeClient(overrides: Partial<StoreClientOptions> = {}): StoreClient {
  return new StoreClient({
    baseUrl: fake.url,
    apiKey: fake.apiKey,
    // Never wait for real: record what the client asked for.
    sleep: async (ms) => {
      delays.push(ms);
    },
    // The jitter's draw at its top: each wait is the whole doubling delay, so the figures below are exact.
    random: () => 1,
    ...overrides,
  });
}

/** Runs `promise`, expecting a StoreError, and returns it. */
async function storeError(promise: Promise<unknown>): Promise<StoreError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  return error as StoreError;
}

function variantOf(product: string, variant: string, scope = {}) {
  return findVariant(fake.shop, product, variant, scope);
}

beforeEach(async () => {
  fake = await FakeSpaceIs.start();
  delays = [];
});

afterEach(async () => {
  await fake.close();
});

describe('requests', () => {
  it('sends the bearer key and Accept on GETs, without a body or Content-Type', async () => {
    await makeClient().listServers();
    const [request] = fake.requests;
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe('/v4/servers');
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers['content-type']).toBeUndefined();
    expect(request?.body).toBeUndefined();
  });

  it('accepts a base URL with or without a trailing slash', async () => {
    await makeClient({ baseUrl: `${fake.url}/` }).listServers();
    await makeClient({ baseUrl: `${fake.url}///` }).listServers();
    expect(fake.requests.map((r) => r.path)).toEqual(['/v4/servers', '/v4/servers']);
  });

  it('percent-encodes path parameters', async () => {
    const error = await storeError(makeClient().getServer('sur/vival?x=1#y'));
    expect(fake.requests[0]?.path).toBe('/v4/server/sur%2Fvival%3Fx%3D1%23y');
    expect(error.status).toBe(404);
    expect(error.apiMessage).toBe('server not found');
  });

  it('reports every response to onResponse, with the rate-limit budget', async () => {
    const seen: StoreResponseInfo[] = [];
    await makeClient({ onResponse: (info) => seen.push(info) }).listServers();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/v4/servers', status: 200, rateLimitRemaining: 599 });
    expect(seen[0]?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('goes through undici’s request, not the global fetch (a quarter of its CPU per request: transport.ts)', async () => {
    const real = globalThis.fetch;
    let fetched = 0;
    globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
      fetched += 1;
      return real(...args);
    }) as typeof fetch;
    try {
      await expect(makeClient().listServers()).resolves.toHaveLength(2);
    } finally {
      globalThis.fetch = real;
    }
    expect(fetched).toBe(0);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v4/servers']);
  });

  it('does not follow a redirect: a 3xx is an HTTP error, and nothing is asked of the other address', async () => {
    const elsewhere: string[] = [];
    const other = createServer((request, response) => {
      elsewhere.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data: [] }));
    });
    const redirecting = createServer((request, response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${(other.address() as AddressInfo).port}${request.url}` }).end();
    });
    await Promise.all([other, redirecting].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
    try {
      const error = await storeError(makeClient({ baseUrl: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`, getRetries: 0 }).listServers());
      expect(error.kind).toBe('http');
      expect(error.status).toBe(302);
      expect(elsewhere).toEqual([]);
    } finally {
      await Promise.all([other, redirecting].map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });

  it('survives an onResponse hook that throws', async () => {
    const client = makeClient({
      onResponse: () => {
        throw new Error('logger broke');
      },
    });
    await expect(client.listServers()).resolves.toHaveLength(2);
  });
});

describe('offer', () => {
  it('lists servers', async () => {
    const servers = await makeClient().listServers();
    expect(servers.map((s) => [s.name, s.slug])).toEqual([
      ['Survival', 'survival'],
      ['SkyBlock', 'skyblock'],
    ]);
    expect(servers[0]?.id).toBe(findServer(fake.shop, 'survival').id);
    expect(servers[0]?.additional).toBeNull();
  });

  it('lists no servers for an empty shop', async () => {
    fake.shop = { servers: [] };
    await expect(makeClient().listServers()).resolves.toEqual([]);
  });

  it('reads a server by slug and by id, keeping only the fields the bot reads', async () => {
    fake.shop.licenseId = 'a1b2c3d4-0000-4000-8000-00000000beef';
    const client = makeClient();
    const bySlug = await client.getServer('survival');
    const byId = await client.getServer(findServer(fake.shop, 'survival').id);
    expect(byId).toEqual(bySlug);
    expect(bySlug.server?.name).toBe('Survival');
    expect(bySlug.categories.map((c) => c.name)).toEqual(['Rangi', 'Klucze', 'Monety', 'Usługi']);
    expect(bySlug.licenseId).toBeTypeOf('string');

    const hunter = bySlug.categories[0]?.products.find((p) => p.name === landmarks.promoted);
    expect(hunter?.is_promoted).toBe(true); // sent as 1
    expect(hunter?.promotion_percentage).toBe(20);
    expect(hunter?.paymentUrl).toMatch(/^https:\/\//);
    expect(hunter?.descriptions?.short).toContain('Ranga Łowca');
    expect(hunter?.descriptions).not.toHaveProperty('long'); // base64 HTML of any size: never shown, never kept
    expect(hunter).not.toHaveProperty('parameter_1'); // fields the bot does not read are dropped
    const vip = bySlug.categories[0]?.products.find((p) => p.name === 'VIP');
    expect(vip?.is_promoted).toBe(false); // sent as 0
  });

  it('reads variants with number and string amounts as exact grosze', async () => {
    const client = makeClient();
    const vip = findProduct(fake.shop, 'VIP');
    const result = await client.getVariants(vip.server.id, vip.category.id, vip.product.id);
    expect(result.product.name).toBe('VIP');
    expect(result.product.category_id).toBe(vip.category.id);
    const month = result.variants.find((v) => v.name === '30 dni');
    expect(month?.prices.map((p) => [p.method, p.amount, p.amountGrosze])).toEqual([
      ['przelewy24', 14.99, 1499],
      ['paypal', 15.49, 1549],
      ['blik', 14.99, 1499],
    ]);

    const keys = findProduct(fake.shop, landmarks.stringAmounts);
    const keyVariants = await client.getVariants(keys.server.slug, keys.category.id, keys.product.id);
    const five = keyVariants.variants.find((v) => v.name === '5 kluczy');
    expect(five?.prices.map((p) => [p.amount, p.amountGrosze])).toEqual([
      ['19.99', 1999],
      ['21.00', 2100],
      ['19.99', 1999],
    ]);
  });

  it('marks SMS prices and keeps variants without prices', async () => {
    const vip = findProduct(fake.shop, 'VIP');
    const { variants } = await makeClient().getVariants(vip.server.id, vip.category.id, vip.product.id);
    const smsOnly = variants.find((v) => v.name === landmarks.smsOnly.variant);
    expect(smsOnly?.prices).toHaveLength(1);
    expect(smsOnly?.prices[0]?.sms).toMatchObject({ is: true, number: '79550', content: 'MSMS.VIP7' });
    expect(smsOnly?.prices.every(isSmsPrice)).toBe(true);
    expect(variants.find((v) => v.name === '30 dni')?.prices.some(isSmsPrice)).toBe(false);
    expect(variants.find((v) => v.name === '30 dni')?.prices[0]).not.toHaveProperty('providerData'); // never shown

    const svip = findProduct(fake.shop, landmarks.noPrice.product);
    const svipVariants = await makeClient().getVariants(svip.server.id, svip.category.id, svip.product.id);
    expect(svipVariants.variants.find((v) => v.name === landmarks.noPrice.variant)?.prices).toEqual([]);
  });

  it('accepts true/false and "0"/"1" booleans, numeric ids and string promotion numbers', async () => {
    fake.failNext('server', {
      status: 200,
      body: {
        success: 1,
        type: 'response',
        data: {
          server: { id: 7, name: 'Legacy', slug: 'legacy' },
          categories: [
            {
              id: 3,
              name: 'Rangi',
              products: [
                { id: 11, name: 'A', is_promoted: true, promotion_percentage: '15' },
                { id: '12', name: 'B', is_promoted: '0', promotion_percentage: null },
              ],
            },
          ],
        },
      },
    });
    const offer = await makeClient().getServer('legacy');
    expect(offer.server?.id).toBe('7');
    expect(offer.categories[0]?.id).toBe('3');
    expect(offer.categories[0]?.products.map((p) => [p.id, p.is_promoted, p.promotion_percentage])).toEqual([
      ['11', true, 15],
      ['12', false, null],
    ]);
  });

  it('accepts sms.is as a boolean and a bare flag', async () => {
    fake.failNext('variants', {
      status: 200,
      body: {
        success: true,
        type: 'response',
        data: {
          product: { id: 'p' },
          variants: [
            {
              id: 'v',
              name: 'V',
              prices: [
                { amount: 5, name: 'SMS', method: 'sms1', type: 'premium', sms: { is: true, number: 7055, content: 'X' } },
                { amount: '2', name: 'SMS2', method: 'sms2', sms: 1 },
                { amount: 3, name: 'P24', method: 'przelewy24', type: 'transfer', sms: false },
              ],
            },
          ],
        },
      },
    });
    const { variants } = await makeClient().getVariants('s', 'c', 'p');
    const prices = variants[0]?.prices ?? [];
    expect(prices.map(isSmsPrice)).toEqual([true, true, false]);
    expect(prices[0]?.sms).toMatchObject({ number: '7055' });
    expect(prices.map((p) => p.amountGrosze)).toEqual([500, 200, 300]);
  });
});

describe('amounts', () => {
  it.each([
    [10.5, 1050],
    ['10.50', 1050],
    ['10.5', 1050],
    ['10', 1000],
    ['0.1', 10],
    [0.1, 10],
    [1.005, 100], // A number is only as exact as its double: 1.005 * 100 = 100.4999…
    ['1.005', 101], // …while a string is rounded half up on its exact decimal digits.
    ['19,99', 1999],
    [4.35, 435], // 4.35 * 100 = 434.99999999999994
  ])('%j → %i grosze', (amount, grosze) => {
    expect(toGrosze(amount)).toBe(grosze);
  });

  it.each([[-1], ['-1.00'], ['abc'], [''], [Number.NaN], ['1e3']])('rejects %j', (amount) => {
    expect(toGrosze(amount)).toBeUndefined();
  });
});

describe('payment link', () => {
  it('sends exactly { items: [{ variantId, quantity }], nick } and returns the URL byte for byte', async () => {
    const { variant } = variantOf('VIP', '30 dni');
    const sloppy = {
      items: [{ variantId: variant.id, quantity: 2, price: 1499, name: 'VIP' }],
      nick: 'Steve_01',
      total: 2998,
      method: 'blik',
    };
    // Extra fields a careless caller might pass must not reach the API.
    const url = await makeClient().createPaymentUrl(sloppy);

    const request = fake.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v4/cart/paymentUrl');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(JSON.stringify(request?.body)).toBe(JSON.stringify({ items: [{ variantId: variant.id, quantity: 2 }], nick: 'Steve_01' }));

    expect(url).toBe(fake.paymentUrls[0]);
    expect(url).toMatch(/^https:\/\/sklep\.example\.pl\/pay\/1\?token=[\w-]+&lang=pl$/);
  });

  it('omits nick when not given', async () => {
    const { variant } = variantOf('Unban', 'Jednorazowy unban');
    await makeClient().createPaymentUrl({ items: [{ variantId: variant.id, quantity: 1 }] });
    expect(fake.requests[0]?.body).toStrictEqual({ items: [{ variantId: variant.id, quantity: 1 }] });
  });

  it('does not normalise a URL a parser would rewrite', async () => {
    const odd = 'https://Sklep.Example.PL:443/pay/./a/../7?b=2&a=%7e&empty=&plus=a+b&pl=%C5%BC#frag';
    fake.nextPaymentUrl = () => odd;
    const { variant } = variantOf('VIP', 'Na zawsze');
    const url = await makeClient().createPaymentUrl({ items: [{ variantId: variant.id, quantity: 1 }], nick: 'Ala' });
    expect(url).toBe(odd);
  });

  it('round-trips a non-UUID range variant id byte for byte', async () => {
    const client = makeClient();
    const range = findProduct(fake.shop, landmarks.rangeProduct);
    const { variants } = await client.getVariants(range.server.id, range.category.id, range.product.id);
    expect(variants).toHaveLength(60);
    expect(variants.map((v) => v.name).slice(0, 2)).toEqual(['10 monet', '20 monet']);
    const pick = variants.find((v) => v.name === '370 monet');
    expect(pick?.id).toBe(landmarks.rangeVariantId(370));
    expect(pick?.id).toBe('rng-370/coins+x%20?k=370');

    await client.createPaymentUrl({ items: [{ variantId: pick?.id ?? '', quantity: 3 }] });
    expect(fake.issuedLinks[0]?.items).toEqual([{ variantId: 'rng-370/coins+x%20?k=370', quantity: 3 }]);
  });

  it('is accepted across servers only when the shop allows it', async () => {
    const items = [
      { variantId: variantOf('VIP', '30 dni').variant.id, quantity: 1 },
      { variantId: variantOf('VIP Wyspy', '30 dni').variant.id, quantity: 1 },
    ];
    const error = await storeError(makeClient().createPaymentUrl({ items }));
    expect(error.status).toBe(422);
    expect(error.apiMessage).toBe(API_MESSAGES.oneServerOnly);

    fake.shop.multiServerCart = true;
    await expect(makeClient().createPaymentUrl({ items })).resolves.toMatch(/^https:/);
    expect(fake.issuedLinks[0]?.serverIds).toHaveLength(2);
  });
});

describe('errors from the API', () => {
  it('surfaces an unknown variant as invalid variant', async () => {
    const error = await storeError(makeClient().createPaymentUrl({ items: [{ variantId: 'gone', quantity: 1 }] }));
    expect(error).toMatchObject({ kind: 'http', status: 422, apiMessage: 'invalid variant' });
    expect(error.isInvalidVariant).toBe(true);
    expect(error.message).toContain('invalid variant');
  });

  it('surfaces disabled cart payments', async () => {
    fake.shop.cartPaymentsDisabled = true;
    const { variant } = variantOf('VIP', '30 dni');
    const error = await storeError(makeClient().createPaymentUrl({ items: [{ variantId: variant.id, quantity: 1 }] }));
    expect(error).toMatchObject({ status: 403, apiMessage: 'cart payments are disabled' });
  });

  it.each([
    [400, API_MESSAGES.cartDisabled],
    [422, API_MESSAGES.invalidVariant],
    [422, API_MESSAGES.oneServerOnly],
    [400, API_MESSAGES.invalidGateway],
    [422, API_MESSAGES.smsNotForCarts],
    [429, API_MESSAGES.purchaseLimit],
  ])('surfaces HTTP %i "%s" verbatim and does not retry the POST', async (status, message) => {
    fake.failNext('paymentUrl', { status, body: { success: false, type: 'error', message } });
    const error = await storeError(makeClient().createPaymentUrl({ items: [{ variantId: 'x', quantity: 1 }] }));
    expect(error).toMatchObject({ kind: 'http', status, apiMessage: message });
    expect(error.isInvalidVariant).toBe(message === API_MESSAGES.invalidVariant);
    expect(error.isPurchaseLimit).toBe(message === API_MESSAGES.purchaseLimit);
    expect(error.isThrottled).toBe(false);
    expect(fake.requestsTo('paymentUrl')).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('parses the errors member for a repeated variant', async () => {
    const { variant } = variantOf('VIP', '30 dni');
    const error = await storeError(
      makeClient().createPaymentUrl({
        items: [
          { variantId: variant.id, quantity: 1 },
          { variantId: variant.id, quantity: 2 },
        ],
      }),
    );
    expect(error.status).toBe(422);
    expect(error.apiMessage).toBe('The given data was invalid.');
    expect(error.fieldErrors).toEqual({ 'items.1.variantId': ['duplicate'] });
  });

  it('parses the errors member for bad quantities and too many items', async () => {
    const { variant } = variantOf('VIP', '30 dni');
    const quantity = await storeError(makeClient().createPaymentUrl({ items: [{ variantId: variant.id, quantity: 100 }] }));
    expect(Object.keys(quantity.fieldErrors ?? {})).toEqual(['items.0.quantity']);

    const range = findProduct(fake.shop, landmarks.rangeProduct).product.variants;
    const tooMany = range.slice(0, 21).map((v) => ({ variantId: v.id, quantity: 1 }));
    const error = await storeError(makeClient().createPaymentUrl({ items: tooMany }));
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(['items']);
    const twenty = await makeClient().createPaymentUrl({ items: tooMany.slice(0, 20) });
    expect(twenty).toBe(fake.paymentUrls[0]);
  });

  it('normalises an errors member whose values are strings', async () => {
    fake.failNext('paymentUrl', { status: 422, body: { message: 'Bad.', errors: { 'items.0.quantity': 'too big' } } });
    const error = await storeError(makeClient().createPaymentUrl({ items: [{ variantId: 'x', quantity: 1 }] }));
    expect(error.fieldErrors).toEqual({ 'items.0.quantity': ['too big'] });
  });

  it('treats 401 and 402 as auth problems and does not retry them', async () => {
    const wrongKey = makeClient({ apiKey: 'not-the-key' });
    const unauthorized = await storeError(wrongKey.listServers());
    expect(unauthorized).toMatchObject({ status: 401, apiMessage: 'unauthorized' });
    expect(unauthorized.isAuthProblem).toBe(true);

    fake.shop.licenseInactive = true;
    const inactive = await storeError(makeClient().listServers());
    expect(inactive.status).toBe(402);
    expect(inactive.isAuthProblem).toBe(true);
    expect(fake.requests).toHaveLength(2);
    expect(delays).toEqual([]);
  });

  it('treats success:false in a 200 as an HTTP error with its message', async () => {
    fake.failNext('servers', { status: 200, body: { success: false, type: 'error', message: 'cart payments are disabled' } });
    const error = await storeError(makeClient().listServers());
    expect(error).toMatchObject({ kind: 'http', status: 200, apiMessage: 'cart payments are disabled' });
  });
});

describe('retries', () => {
  it('retries a GET after 5xx with exponential backoff', async () => {
    fake.failNext('servers', { status: 500 }, 2);
    await expect(makeClient().listServers()).resolves.toHaveLength(2);
    expect(fake.requestsTo('servers')).toHaveLength(3);
    expect(delays).toEqual([250, 500]);
  });

  it('spreads the waits of clients that failed together (equal jitter: between half and all of the doubling delay)', async () => {
    fake.failNext('servers', { status: 500 }, 2);
    await makeClient({ random: () => 0 }).listServers();
    fake.failNext('servers', { status: 500 }, 2);
    await makeClient({ random: () => 0.5 }).listServers();
    // Many processes retrying a store that came back at once would otherwise hit it at the same moments.
    expect(delays).toEqual([125, 250, 188, 375]);
    // Retry-At is the store's own word: waited exactly, whatever the draw.
    fake.failNext('servers', { status: 429, headers: { 'Retry-At': '3' }, body: { success: false, type: 'error', message: 'Too Many Attempts.' } });
    delays = [];
    await makeClient({ random: () => 0 }).listServers();
    expect(delays).toEqual([3000]);
  });

  it('gives up after getRetries extra attempts', async () => {
    fake.failNext('servers', { status: 503, body: { success: false, type: 'error', message: 'maintenance' } }, 5);
    const error = await storeError(makeClient({ getRetries: 1, backoffMs: 10 }).listServers());
    expect(error).toMatchObject({ status: 503, apiMessage: 'maintenance' });
    expect(fake.requestsTo('servers')).toHaveLength(2);
    expect(delays).toEqual([10]);
  });

  it('never retries the POST, even after a 500', async () => {
    fake.failNext('paymentUrl', { status: 500 });
    const { variant } = variantOf('VIP', '30 dni');
    const error = await storeError(makeClient().createPaymentUrl({ items: [{ variantId: variant.id, quantity: 1 }] }));
    expect(error.status).toBe(500);
    expect(fake.requestsTo('paymentUrl')).toHaveLength(1);
    expect(fake.paymentUrls).toEqual([]);
    expect(delays).toEqual([]);
  });

  it('waits Retry-At seconds on a throttling 429', async () => {
    fake.failNext('servers', { status: 429, headers: { 'Retry-At': '3' }, body: { success: false, type: 'error', message: 'Too Many Attempts.' } });
    await expect(makeClient().listServers()).resolves.toHaveLength(2);
    expect(delays).toEqual([3000]);
  });

  it('backs off on a 429 without Retry-At that is not a purchase limit', async () => {
    fake.failNext('servers', { status: 429, body: { message: 'Too Many Attempts.' } });
    await expect(makeClient().listServers()).resolves.toHaveLength(2);
    expect(delays).toEqual([250]);
  });

  it('fails at once when Retry-At exceeds the cap', async () => {
    fake.failNext('servers', { status: 429, headers: { 'Retry-At': '1767225600' }, body: { message: 'Too Many Attempts.' } });
    const error = await storeError(makeClient().listServers());
    expect(error.isThrottled).toBe(true);
    expect(error.retryAfterSeconds).toBe(1767225600);
    expect(fake.requestsTo('servers')).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('does not retry a purchase-limit 429 on a GET either', async () => {
    fake.failNext('servers', { status: 429, body: { success: false, type: 'error', message: API_MESSAGES.purchaseLimit } });
    const error = await storeError(makeClient().listServers());
    expect(error.isPurchaseLimit).toBe(true);
    expect(error.isThrottled).toBe(false);
    expect(fake.requestsTo('servers')).toHaveLength(1);
  });

  it('times out a hanging GET, and retries it', async () => {
    fake.failNext('servers', { kind: 'hang' });
    const error = await storeError(makeClient({ timeoutMs: 50, getRetries: 0 }).listServers());
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('timed out after 50 ms');

    fake.failNext('servers', { kind: 'hang' });
    await expect(makeClient({ timeoutMs: 50 }).listServers()).resolves.toHaveLength(2);
    expect(delays).toEqual([250]);
  });

  it('times out a hanging POST without retrying it', async () => {
    fake.failNext('paymentUrl', { kind: 'hang' });
    const { variant } = variantOf('VIP', '30 dni');
    const error = await storeError(makeClient({ timeoutMs: 50 }).createPaymentUrl({ items: [{ variantId: variant.id, quantity: 1 }] }));
    expect(error.kind).toBe('timeout');
    expect(fake.requestsTo('paymentUrl')).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('reports a refused connection as a network error after retrying', async () => {
    const gone = await FakeSpaceIs.start();
    const url = gone.url;
    await gone.close();
    const error = await storeError(makeClient({ baseUrl: url }).listServers());
    expect(error.kind).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
    expect(delays).toEqual([250, 500]);
  });

  it('reports a dropped connection as a network error', async () => {
    fake.failNext('paymentUrl', { kind: 'destroy' });
    const error = await storeError(makeClient().createPaymentUrl({ items: [{ variantId: 'x', quantity: 1 }] }));
    expect(error.kind).toBe('network');
    expect(fake.requestsTo('paymentUrl')).toHaveLength(1);
  });
});

describe('invalid responses', () => {
  it('rejects a 200 whose body is not JSON, without retrying', async () => {
    fake.failNext('servers', { raw: '<html><body>Bad gateway</body></html>' });
    const error = await storeError(makeClient().listServers());
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toContain('not JSON');
    expect(fake.requestsTo('servers')).toHaveLength(1);
  });

  it('retries a 502 HTML page from a proxy as an HTTP error', async () => {
    fake.failNext('servers', { raw: '<html>502</html>', status: 502 });
    await expect(makeClient().listServers()).resolves.toHaveLength(2);
    expect(delays).toEqual([250]);
  });

  it('rejects an empty 200', async () => {
    fake.failNext('servers', { status: 200 });
    expect((await storeError(makeClient().listServers())).message).toContain('empty body');
  });

  it('rejects the wrong shape and names the field', async () => {
    fake.failNext('server', { status: 200, body: { success: true, type: 'response', data: { categories: 'nope' } } });
    const error = await storeError(makeClient().getServer('survival'));
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toContain('data.categories');
  });

  it('rejects an unparseable price amount', async () => {
    fake.failNext('variants', {
      status: 200,
      body: { success: true, data: { product: { id: 'p' }, variants: [{ id: 'v', name: 'V', prices: [{ amount: 'free', method: 'x' }] }] } },
    });
    const error = await storeError(makeClient().getVariants('s', 'c', 'p'));
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toContain('data.variants.0.prices.0.amount');
  });

  it('rejects a payment URL that is not an http(s) URL', async () => {
    fake.nextPaymentUrl = () => 'javascript:alert(1)';
    const { variant } = variantOf('VIP', '30 dni');
    const error = await storeError(makeClient().createPaymentUrl({ items: [{ variantId: variant.id, quantity: 1 }] }));
    expect(error.kind).toBe('invalid-response');
  });
});

describe('payments', () => {
  it('reads latest buyers leniently: rows that do not read are dropped, unknown fields stripped, missing ones left out', async () => {
    const vip = variantOf('VIP', '30 dni');
    fake.failNext('latestBuyers', {
      status: 200,
      body: {
        success: true,
        type: 'response',
        data: [
          { transactionId: 'tx-1', nick: 'Steve', method: 'blik', amount: 1499, productName: 'VIP', variantName: '30 dni', date: '2026-11-22 13:00:00', avatar: 'x', email: 'a@b.c' },
          { transactionId: 42, nick: null, amount: '2500' },
          { nick: 'NoId', amount: 100 },
          'not a row',
          { transactionId: 'tx-3', nick: 7, amount: -1, date: { when: 'now' } },
        ],
      },
    });
    const answer = await makeClient().latestBuyers(vip.server.id, 30);
    expect(fake.requests[0]?.path).toBe(`/v4/server/${vip.server.id}/latest_buyers?limit=30`);
    // toEqual: a field left out and a field undefined are the same to the bot.
    expect(answer).toEqual({
      kind: 'ok',
      value: [
        { transactionId: 'tx-1', nick: 'Steve', method: 'blik', amount: 1499, productName: 'VIP', variantName: '30 dni', date: '2026-11-22 13:00:00' },
        { transactionId: '42', nick: undefined, method: undefined, amount: 2500, productName: undefined, variantName: undefined, date: undefined },
        { transactionId: 'tx-3', nick: undefined, method: undefined, amount: undefined, productName: undefined, variantName: undefined, date: undefined },
      ],
    });
  });

  it('keeps the limit within 1–30 and lists the fake store’s purchases, newest first', async () => {
    const vip = variantOf('VIP', '30 dni');
    const first = fake.purchaseOnWebsite({ nick: 'Ala', items: [{ variantId: vip.variant.id, quantity: 1 }], date: Date.UTC(2026, 10, 22, 11) });
    const second = fake.purchaseOnWebsite({ nick: 'Ola', items: [{ variantId: vip.variant.id, quantity: 2 }], date: Date.UTC(2026, 10, 22, 12) });
    const client = makeClient();
    const answer = await client.latestBuyers(vip.server.id, 500);
    expect(fake.requests[0]?.path).toContain('limit=30');
    expect(answer.kind === 'ok' && answer.value.map((row) => [row.transactionId, row.nick, row.date])).toEqual([
      [second, 'Ola', '2026-11-22 13:00:00'],
      [first, 'Ala', '2026-11-22 12:00:00'],
    ]);
    await client.latestBuyers(vip.server.id, 0);
    expect(fake.requests[1]?.path).toContain('limit=1');
  });

  it('reads a cart transaction and never keeps the buyer’s e-mail', async () => {
    const vip = variantOf('VIP', '30 dni');
    const coins = variantOf(landmarks.rangeProduct, '370 monet');
    const id = fake.purchaseOnWebsite({ nick: 'Steve', items: [{ variantId: vip.variant.id, quantity: 2 }, { variantId: coins.variant.id, quantity: 1 }], status: 'pending' });
    const answer = await makeClient().transactionInfo(id);
    expect(fake.requests[0]?.path).toBe(`/v4/transaction/info/${id}`);
    expect(answer.kind).toBe('ok');
    const info = answer.kind === 'ok' ? answer.value : undefined;
    expect(info?.status).toBe('pending');
    expect(info?.type).toBe('cart');
    expect(info?.variantId).toBeUndefined();
    expect(info?.nick).toBe('Steve');
    expect(info?.items?.map(({ variantId, quantity }) => ({ variantId, quantity }))).toEqual([
      { variantId: vip.variant.id, quantity: 2 },
      { variantId: coins.variant.id, quantity: 1 },
    ]);
    expect(JSON.stringify(info)).not.toContain(BUYER_EMAIL);
    expect(inspect(answer, { depth: 20 })).not.toContain('methodParameter');
  });

  it('reads statuses as the documentation spells them, and anything else as unknown', async () => {
    const client = makeClient();
    for (const [sent, read] of [['paid', 'paid'], ['PENDING', 'pending'], ['fail', 'fail'], ['failed', 'fail'], ['expired', 'expired'], ['refunded', 'unknown'], [3, 'unknown']] as const) {
      fake.failNext('transactionInfo', { status: 200, body: { success: true, data: { status: sent, items: null, variantId: 'v-1', quantity: '2' } } });
      const answer = await client.transactionInfo('t');
      expect(answer.kind === 'ok' && answer.value.status, String(sent)).toBe(read);
    }
  });

  it('drops a whole item list when one item does not read, rather than match a smaller order', async () => {
    fake.failNext('transactionInfo', {
      status: 200,
      body: { success: true, data: { status: 'paid', type: 'cart', variantId: null, items: [{ variantId: 'v-1', quantity: 1 }, { quantity: 2 }] } },
    });
    const answer = await makeClient().transactionInfo('t');
    expect(answer.kind === 'ok' && answer.value.items).toBeUndefined();
  });

  it('turns a 404 into "not supported", tries once, and leaves other errors as errors', async () => {
    fake.noPaymentEndpoints.add(fake.apiKey);
    const client = makeClient();
    expect(await client.latestBuyers('any', 10)).toEqual({ kind: 'not-supported', message: 'not found' });
    expect(await client.transactionInfo('any')).toEqual({ kind: 'not-supported', message: 'not found' });
    fake.noPaymentEndpoints.clear();
    fake.failNext('latestBuyers', { status: 503, body: { success: false, message: 'down' } });
    const error = await storeError(client.latestBuyers(variantOf('VIP', '30 dni').server.id, 10));
    expect(error.status).toBe(503);
    // A background read is not retried: the next round is its retry.
    expect(fake.requestsTo('latestBuyers')).toHaveLength(2);
    expect(delays).toEqual([]);
  });
});

describe('the key stays secret', () => {
  it('exposes only a sha256 fingerprint', () => {
    const client = makeClient();
    const expected = createHash('sha256').update(fake.apiKey).digest('hex').slice(0, 8);
    expect(client.fingerprint).toBe(expected);
    expect(client.fingerprint).toMatch(/^[0-9a-f]{8}$/);
  });

  it('is not in JSON.stringify, util.inspect or Object.keys of the client', () => {
    const client = makeClient();
    expect(JSON.stringify(client)).not.toContain(fake.apiKey);
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(fake.apiKey);
    expect(JSON.stringify(Object.entries(client))).not.toContain(fake.apiKey);
    expect(inspect(client)).toContain(client.fingerprint);
  });

  it('is not in error messages, even if the API echoes it', async () => {
    fake.failNext('servers', { status: 401, body: { success: false, message: `bad key ${fake.apiKey}` } });
    const error = await storeError(makeClient({ getRetries: 0 }).listServers());
    expect(error.message).not.toContain(fake.apiKey);
    expect(inspect(error, { depth: 10 })).not.toContain(fake.apiKey);
    expect(JSON.stringify(error)).not.toContain(fake.apiKey);

    const refused = await storeError(makeClient({ baseUrl: 'http://127.0.0.1:1', getRetries: 0 }).listServers());
    expect(inspect(refused, { depth: 10 })).not.toContain(fake.apiKey);
  });

  it('refuses an empty key', () => {
    expect(() => new StoreClient({ baseUrl: fake.url, apiKey: '' })).toThrow(TypeError);
  });
});
