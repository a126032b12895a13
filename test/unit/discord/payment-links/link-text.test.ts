import { describe, expect, it } from 'vitest';
import { linkChoiceName, memberLinksView } from '../../../../commands/links/views.js';
import { agoText, maskedLink } from '../../../../src/discord/payment-links/link-text.js';
import { demoMarked } from '../../../../src/discord/views/demo-mark.js';
import { countComponents, textDisplays, textLength } from '../../../../src/discord/views/display.js';
import { en } from '../../../../src/i18n/en.js';
import { pl } from '../../../../src/i18n/pl.js';
import type { NewPaymentLink, PaymentLink } from '../../../../src/storage/payment-links.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

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
    expect(linkChoiceName(en, link, T0 + 3 * HOUR)).toBe('ABCD1234 · Steve_123 · 2 × VIP — 30 dni · 3 h ago');

    const long = record({ items: [item(1, 'P'.repeat(90), 'V'.repeat(90)), item(1, 'x', 'y')] });
    const name = linkChoiceName(en, long, T0 + 3 * HOUR);
    expect([...name].length).toBeLessThanOrEqual(100);
    expect(name.startsWith('ABCD1234 · Steve_123 · 1 × PPP')).toBe(true);
    expect(name.endsWith(' · 3 h ago')).toBe(true);
  });

  it('keeps a page of ten links with long URLs and many items within Discord’s limits, never cutting a URL', () => {
    const url = `https://shop.example/pay?token=${'t'.repeat(300)}`;
    const links = Array.from({ length: 10 }, (_, index) =>
      record({ id: `LINK000${index}`, url, items: Array.from({ length: 20 }, () => item(99, 'Product with a long name', 'Variant with a long name')) }),
    );
    const view = demoMarked(en, memberLinksView(en, { owner: '1', memberId: '2', links, page: 0, pages: 2, total: 12, lifetimeHours: 24, now: T0 }));
    expect(countComponents(view.components!)).toBeLessThanOrEqual(40);
    expect(textLength(view.components!)).toBeLessThanOrEqual(4000);
    const parts = textDisplays(view.components!).filter((display) => display.content.startsWith('### '));
    expect(parts).toHaveLength(10);
    for (const part of parts) {
      // Either the whole URL or the pointer to /links verify: never a piece of it.
      expect(part.content.includes(`(${url})`) || part.content.includes('/links verify')).toBe(true);
    }
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
