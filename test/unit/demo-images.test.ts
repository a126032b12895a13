import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoFetch } from '../../src/demo/demo-store.js';
import { DEMO_IMAGES, demoImageFile } from '../../src/demo/images.js';
import { picture } from '../../src/discord/views/display.js';
import { StoreClient } from '../../src/spaceis/client.js';

const IMAGES = join(import.meta.dirname, '..', '..', 'src', 'demo', 'images');
const SHOP = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'src', 'demo', 'demo-shop.json'), 'utf8')) as unknown;

/** Every imageUrl / image_url in the demo shop's answers, wherever it sits. */
function imageUrls(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) imageUrls(item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'imageUrl' || key === 'image_url') found.push(String(inner));
      else imageUrls(inner, found);
    }
  }
  return found;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("the demo shop's pictures", () => {
  it('every item of the demo shop has a picture it ships: a small PNG in src/demo/images', () => {
    const urls = imageUrls(SHOP);
    expect(urls.length).toBeGreaterThanOrEqual(12);
    for (const url of urls) {
      expect(url, url).toMatch(/^attachment:\/\/[a-z-]+\.png$/);
      const name = url.slice('attachment://'.length);
      expect(DEMO_IMAGES, url).toContain(name);
      const data = readFileSync(join(IMAGES, name));
      expect(data.subarray(0, 8).equals(PNG_SIGNATURE), `${name} is a PNG`).toBe(true);
      // IHDR: width and height, big-endian, right after the chunk's length and type.
      expect([data.readUInt32BE(16), data.readUInt32BE(20)], name).toEqual([128, 128]);
      expect(statSync(join(IMAGES, name)).size, name).toBeLessThan(20_000);
    }
    // Each picture drawn is used: no file ships that no item shows.
    expect(new Set(urls.map((url) => url.slice('attachment://'.length)))).toEqual(new Set(DEMO_IMAGES));
  });

  it('members see them: the servers and products read through the client carry them', async () => {
    const client = new StoreClient({ baseUrl: 'http://demo.invalid', apiKey: 'demo-shop', fetch: demoFetch({ issue: async (reference) => `http://127.0.0.1:1/demo/pay/${reference}`, now: () => 0 }) });
    const servers = await client.listServers();
    expect(servers.map((server) => server.imageUrl)).toEqual(['attachment://survival.png', 'attachment://skyblock.png']);
    const offer = await client.getServer(servers[0]!.id);
    expect(offer.server?.imageUrl).toBe('attachment://survival.png');
    const vip = offer.categories.flatMap((category) => category.products).find((product) => product.name === 'VIP')!;
    expect(vip.imageUrl).toBe('attachment://vip.png');
  });

  it('picture() takes the names the demo ships (their files go with the message) and nothing else', () => {
    for (const name of DEMO_IMAGES) {
      expect(picture(`attachment://${name}`, name), name).toEqual({ url: `attachment://${name}`, description: name });
      expect(demoImageFile(name)?.data.length, name).toBe(statSync(join(IMAGES, name)).size);
    }
    expect(picture('attachment://diamond.png')).toBeUndefined();
    expect(picture('attachment://../demo-shop.json')).toBeUndefined();
    expect(picture('http://example.com/vip.png')).toBeUndefined();
  });
});
