import Keyv from 'keyv';
import { afterEach, describe, expect, it } from 'vitest';
import { demoFetch, demoLandmarks, type DemoOrder } from '../../src/demo/demo-store.js';
import { DemoPayPage, demoLocalUrl, demoPageHtml, escapeHtml } from '../../src/demo/pay-page.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { createLogger } from '../../src/logger.js';
import { StoreClient } from '../../src/spaceis/client.js';
import { isStoreError } from '../../src/spaceis/errors.js';
import { OfferCache } from '../../src/spaceis/offer-cache.js';
import { isSmsPrice } from '../../src/spaceis/schemas.js';
import { halfSentRequest } from '../support/sockets.js';

/** The demo store through the real client: its answers must pass the same schemas as a real shop's. */
function demoClient(issued: DemoOrder[] = []): StoreClient {
  const fetch = demoFetch({
    issue: async (reference, order) => {
      issued.push(order);
      return `http://127.0.0.1:1/demo/pay/${reference}`;
    },
    now: () => 0,
  });
  return new StoreClient({ baseUrl: 'http://demo.invalid', apiKey: 'demo-shop', fetch });
}

describe('the demo shop file', () => {
  it('reads through the client schemas and holds every case the demo promises', async () => {
    const client = demoClient();
    const offers = new OfferCache(client);
    const counts = await offers.reload();
    expect(counts.servers).toBe(2);
    expect(counts.categories).toBeGreaterThanOrEqual(3);

    const survival = (await client.listServers()).find((server) => server.name === 'Survival')!;
    expect((await client.getServer(survival.slug!)).server?.id).toBe(survival.id);
    const offer = await client.getServer(survival.id);
    const find = (category: string, product: string) => {
      const c = offer.categories.find((candidate) => candidate.name === category)!;
      const p = c.products.find((candidate) => candidate.name === product)!;
      return client.getVariants(survival.id, c.id, p.id);
    };
    const coins = await find(demoLandmarks.coins.category, demoLandmarks.coins.product);
    expect(coins.variants.length).toBeGreaterThanOrEqual(50);
    expect(coins.variants.every((variant) => /^\d[\d ]* monet$/.test(variant.name))).toBe(true);
    const vip = await find(demoLandmarks.smsOnly.category, demoLandmarks.smsOnly.product);
    const smsOnly = vip.variants.find((variant) => variant.name === demoLandmarks.smsOnly.variant)!;
    expect(smsOnly.prices.length).toBeGreaterThan(0);
    expect(smsOnly.prices.every(isSmsPrice)).toBe(true);
    const svip = await find(demoLandmarks.noPrice.category, demoLandmarks.noPrice.product);
    expect(svip.variants.find((variant) => variant.name === demoLandmarks.noPrice.variant)!.prices).toEqual([]);
    expect(vip.variants.length).toBeGreaterThan(1);
  });

  it('answers the payment-link request like the store: an unknown variant is `invalid variant`', async () => {
    const issued: DemoOrder[] = [];
    const client = demoClient(issued);
    const error = await client.createPaymentUrl({ items: [{ variantId: 'nope', quantity: 1 }], nick: 'Steve' }).catch((failure: unknown) => failure);
    expect(isStoreError(error) && error.isInvalidVariant).toBe(true);
    expect(issued).toHaveLength(0);
  });
});

describe('the demo pay page', () => {
  let page: DemoPayPage | undefined;
  afterEach(async () => {
    await page?.close();
  });

  it('escapes every value it shows', () => {
    expect(escapeHtml(`<script>"&'`)).toBe('&#60;script&#62;&#34;&#38;&#39;');
    const html = demoPageHtml({ nick: '<img src=x onerror=alert(1)>', items: [{ variantId: '<b>unknown</b>', quantity: 2 }], createdAt: 0 });
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(html).toContain(en.demo.pageNothingPaid);
    expect(html).toContain(pl.demo.pageNothingPaid);
  });

  it('serves an issued order on 127.0.0.1 and nothing else', async () => {
    const keyv = new Keyv();
    page = new DemoPayPage({ keyv, logger: createLogger('silent'), port: 0 });
    const url = await page.issue('a'.repeat(22), { nick: 'Steve', items: [], createdAt: 0 });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/demo\/pay\/a{22}$/);
    expect((await fetch(url)).status).toBe(200);
    const origin = new URL(url).origin;
    for (const path of ['/demo/pay/' + 'b'.repeat(22), '/demo/pay/short', '/demo/pay/a%2F..', '/favicon.ico', `/demo/pay/${'a'.repeat(22)}?x=1`]) {
      expect((await fetch(origin + path)).status, path).toBe(404);
    }
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('the demo pay page closing', () => {
  it('closes while a browser holds a half-sent request', async () => {
    const page = new DemoPayPage({ keyv: new Keyv(), logger: createLogger('silent'), port: 0 });
    const url = await page.issue('c'.repeat(22), { nick: 'Steve', items: [], createdAt: 0 });
    const port = Number(new URL(url).port);
    const stalled = await halfSentRequest(port, `/demo/pay/${'c'.repeat(22)}`);
    // A whole request on another connection: by its answer the page has read the half one.
    expect((await fetch(url)).status).toBe(200);
    const cut = new Promise<void>((resolve) => stalled.once('close', () => resolve()));
    await page.close(); // on the old code: never resolves (the server waits for that browser)
    await cut;
  });
});

describe('the demo pay page address', () => {
  it('links to the address it binds when DEMO_PUBLIC_URL is unset: this machine for a wildcard address', () => {
    expect(demoLocalUrl('127.0.0.1', 8787)).toBe('http://127.0.0.1:8787');
    expect(demoLocalUrl('0.0.0.0', 8787)).toBe('http://127.0.0.1:8787');
    expect(demoLocalUrl('::', 8787)).toBe('http://127.0.0.1:8787');
    expect(demoLocalUrl('::1', 9000)).toBe('http://[::1]:9000');
    expect(demoLocalUrl('localhost', 9000)).toBe('http://localhost:9000');
    expect(demoLocalUrl('192.168.1.20', 9000)).toBe('http://192.168.1.20:9000');
  });
});

describe('DEMO_PORT', () => {
  it('defaults to 8787 and refuses anything but a port number', () => {
    expect(loadConfig({ DISCORD_TOKEN: 't' }).DEMO_PORT).toBe(8787);
    expect(loadConfig({ DISCORD_TOKEN: 't', DEMO_PORT: '9000' }).DEMO_PORT).toBe(9000);
    for (const bad of ['http', '70000', '-1', '80.5']) {
      expect(() => loadConfig({ DISCORD_TOKEN: 't', DEMO_PORT: bad })).toThrow(ConfigError);
    }
  });
});
