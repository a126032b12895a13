import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
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
});

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
