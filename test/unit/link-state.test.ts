import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { linkChoiceName, memberLinksView } from '../../commands/links/views.js';
import { agoText, maskedLink } from '../../src/discord/payment-links/link-text.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { createLogger } from '../../src/logger.js';
import { linkExpiresAt, linkState } from '../../src/services/link-state.js';
import { PaymentLinkRepository, type NewPaymentLink, type PaymentLink } from '../../src/storage/payment-links.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('linkState', () => {
  it('is pending for less than the lifetime, then expired', () => {
    const link = { createdAt: T0 };
    expect(linkState(link, 24, T0)).toBe('pending');
    expect(linkState(link, 24, T0 + 24 * HOUR - 1)).toBe('pending');
    expect(linkState(link, 24, T0 + 24 * HOUR)).toBe('expired');
    expect(linkExpiresAt(link, 24)).toBe(T0 + 24 * HOUR);
  });

  it('follows the guild’s current lifetime: nothing about expiry is stored', () => {
    const link = { createdAt: T0 };
    expect(linkState(link, 24, T0 + 30 * HOUR)).toBe('expired');
    expect(linkState(link, 48, T0 + 30 * HOUR)).toBe('pending');
  });

  it('is revoked once withdrawn, whatever the time', () => {
    const link = { createdAt: T0, revoked: { by: '1', at: T0 + HOUR } };
    expect(linkState(link, 24, T0 + 2 * HOUR)).toBe('revoked');
    expect(linkState(link, 24, T0 + 90 * DAY)).toBe('revoked');
  });
});

describe('link texts', () => {
  it('masks a plain URL, and shows one that would break the Markdown unchanged on its own', () => {
    expect(maskedLink('Payment link', 'https://shop.example/pay?id=1&x=a_b')).toBe('[Payment link](https://shop.example/pay?id=1&x=a_b)');
    const tricky = ['https://shop.example/pay/(1)', 'https://shop.example/pay?x=a b', 'https://shop.example/pay?x=]', 'javascript:alert(1)'];
    for (const url of tricky) {
      const text = maskedLink('Payment link', url);
      expect(text).toBe(`Payment link: ${url}`);
      expect(text).not.toContain('](');
    }
  });

  it('says how long ago in minutes, hours, then days', () => {
    expect(agoText(en, 5 * 60_000)).toBe('5 min ago');
    expect(agoText(en, 3 * HOUR)).toBe('3 h ago');
    expect(agoText(en, 3 * DAY)).toBe('3 d ago');
    expect(agoText(pl, 3 * DAY)).toBe('3 dni temu');
  });

  it('names an autocomplete choice readably within 100 characters, keeping the id, nick and age', () => {
    const link = record({ items: [item(2, 'VIP', '30 dni')] });
    expect(linkChoiceName(en, link, T0 + 3 * HOUR)).toBe('ABCD1234 · Steve_123 · 2 × VIP 30 dni · 3 h ago');

    const long = record({ items: [item(1, 'P'.repeat(90), 'V'.repeat(90)), item(1, 'x', 'y')] });
    const name = linkChoiceName(en, long, T0 + 3 * HOUR);
    expect([...name].length).toBeLessThanOrEqual(100);
    expect(name.startsWith('ABCD1234 · Steve_123 · 1 × PPP')).toBe(true);
    expect(name.endsWith(' · 3 h ago')).toBe(true);
  });

  it('keeps a page of ten links with long URLs and many items within Discord’s embed limits, never cutting a URL', () => {
    const url = `https://shop.example/pay?token=${'t'.repeat(300)}`;
    const links = Array.from({ length: 10 }, (_, index) =>
      record({ id: `LINK000${index}`, url, items: Array.from({ length: 20 }, () => item(99, 'Product with a long name', 'Variant with a long name')) }),
    );
    const view = memberLinksView(en, { owner: '1', memberId: '2', links, page: 0, pages: 2, total: 12, lifetimeHours: 24, now: T0 });
    const embed = view.embeds![0]!;
    const fields = embed.fields ?? [];
    const total = [embed.title, embed.description, embed.footer?.text, ...fields.flatMap((field) => [field.name, field.value])].join('').length;
    expect(total).toBeLessThanOrEqual(6000);
    for (const field of fields) {
      expect(field.value.length).toBeLessThanOrEqual(1024);
      // Either the whole URL or the pointer to /links verify: never a piece of it.
      expect(field.value.includes(`(${url})`) || field.value.includes('/links verify')).toBe(true);
    }
  });
});

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

function record(change: Partial<PaymentLink>): PaymentLink {
  return { ...newLink({}), id: 'ABCD1234', ...change };
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
