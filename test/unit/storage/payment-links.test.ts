import Keyv, { type KeyvStoreAdapter } from 'keyv';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { guardAdapter } from '../../../src/storage/guarded-adapter.js';
import { PaymentLinkRepository, type NewPaymentLink, type PaymentLink } from '../../../src/storage/payment-links.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('payment link records', () => {
  it('reads one page of a member with hundreds of links, not the whole history', async () => {
    const { repository, reads } = memoryRepository();
    for (let index = 0; index < 300; index += 1) await repository.create(newLink({ userId: 'busy', createdAt: T0 + index * HOUR, url: `https://shop.example/pay/${index}` }));
    reads.count = 0;
    const { links, total } = await repository.listForMember('g1', 'busy', 20, 10);
    expect(total).toBe(300);
    expect(links.map((link) => link.url)).toEqual(Array.from({ length: 10 }, (_, index) => `https://shop.example/pay/${279 - index}`));
    expect(reads.count).toBeLessThanOrEqual(11); // the member's index and the ten records
  });

  it('prunes exactly the records older than the cutoff, with their indexes, and keeps the rest', async () => {
    const { repository } = memoryRepository();
    const old = await repository.create(newLink({ createdAt: T0, url: 'https://shop.example/pay/old' }));
    const sameDayNewer = await repository.create(newLink({ createdAt: T0 + 2 * HOUR, url: 'https://shop.example/pay/same-day' }));
    const otherGuild = await repository.create(newLink({ guildId: 'g2', createdAt: T0 - DAY, url: 'https://shop.example/pay/g2' }));
    const recent = await repository.create(newLink({ createdAt: T0 + 50 * DAY, url: 'https://shop.example/pay/recent' }));

    expect(await repository.pruneOlderThan(T0 + HOUR)).toBe(2);

    expect(await repository.get('g1', old.id)).toBeUndefined();
    expect(await repository.findByUrl('g1', old.url)).toBeUndefined();
    expect(await repository.get('g2', otherGuild.id)).toBeUndefined();
    const { links, total } = await repository.listForMember('g1', 'u1', 0, 10);
    expect(links.map((link) => link.id)).toEqual([recent.id, sameDayNewer.id]);
    expect(total).toBe(2);
    expect((await repository.listRecent('g1')).map((link) => link.id)).toEqual([recent.id, sameDayNewer.id]);
    expect((await repository.findByUrl('g1', sameDayNewer.url))?.id).toBe(sameDayNewer.id);

    // The rest of the day the cutoff fell in goes on a later run; nothing is deleted twice.
    expect(await repository.prune(T0 + 90 * DAY + 3 * HOUR)).toBe(1);
    expect(await repository.pruneOlderThan(T0 + 3 * HOUR)).toBe(0);
    expect((await repository.listForMember('g1', 'u1', 0, 10)).links.map((link) => link.id)).toEqual([recent.id]);
  });

  it('keeps a record whose day could not be noted, and notes the day on the next prune pass, even after a restart', async () => {
    const { keyv, store } = flakyStore();
    store.failing = /:link-days$|:link-day-guilds:/;
    const link = await new PaymentLinkRepository(keyv, createLogger('silent')).create(newLink({ createdAt: T0 }));
    expect((await new PaymentLinkRepository(keyv, createLogger('silent')).get('g1', link.id))?.url).toBe(link.url);

    store.failing = undefined;
    // A new repository, as after a restart: what is to be repaired was stored, not only held in memory.
    const restarted = new PaymentLinkRepository(keyv, createLogger('silent'));
    expect(await restarted.prune(T0 + 10 * DAY)).toBe(0);
    expect(await restarted.prune(T0 + 91 * DAY)).toBe(1);
    expect(await restarted.get('g1', link.id)).toBeUndefined();
  });

  it('remembers in memory a day it could neither note nor store for repair, and notes it on the next prune pass', async () => {
    const { keyv, store } = flakyStore();
    store.failing = /:link-days$|:link-day-guilds:|:link-day-repairs$/;
    const repository = new PaymentLinkRepository(keyv, createLogger('silent'));
    const first = await repository.create(newLink({ createdAt: T0 }));
    const second = await repository.create(newLink({ guildId: 'g2', createdAt: T0 + DAY, url: 'https://shop.example/pay/2' }));
    expect([first.id, second.id].every((id) => id.length === 8)).toBe(true);
    expect(await repository.get('g1', first.id)).toBeDefined();

    store.failing = undefined;
    expect(await repository.prune(T0 + 92 * DAY)).toBe(2);
    expect(await repository.get('g1', first.id)).toBeUndefined();
    expect(await repository.get('g2', second.id)).toBeUndefined();
  });
});

/** A Keyv over a map whose writes of matching keys fail, as the bot's storage fails (StorageError). */
function flakyStore(): { keyv: Keyv; store: { failing: RegExp | undefined } } {
  class FlakyMap extends Map<string, unknown> {
    failing: RegExp | undefined;
    override set(key: string, value: unknown): this {
      if (this.failing?.test(key)) throw new Error('SQLITE_IOERR: disk I/O error (test)');
      return super.set(key, value);
    }
  }
  const store = new FlakyMap();
  return { keyv: new Keyv({ store: guardAdapter(store as unknown as KeyvStoreAdapter), throwOnErrors: true }), store };
}

function item(quantity: number, productName: string, variantName: string): PaymentLink['items'][number] {
  return { variantId: `${productName}-${variantName}`, quantity, serverName: 'Survival', productName, variantName };
}

function newLink(change: Partial<NewPaymentLink>): NewPaymentLink {
  return { guildId: 'g1', userId: 'u1', nick: 'Steve_123', items: [item(1, 'VIP', '30 dni')], url: 'https://shop.example/pay/1', license: 'l', createdAt: T0, ...change };
}

/** The repository over an in-memory store that counts reads. */
function memoryRepository(): { repository: PaymentLinkRepository; reads: { count: number } } {
  const reads = { count: 0 };
  class CountingMap extends Map<string, unknown> {
    override get(key: string): unknown {
      reads.count += 1;
      return super.get(key);
    }
  }
  const keyv = new Keyv({ store: new CountingMap() });
  return { repository: new PaymentLinkRepository(keyv, createLogger('silent')), reads };
}
