import { describe, expect, it } from 'vitest';
import { MAX_LINES } from '../../../../src/cart/rules.js';
import { settledDmClassicView, withdrawnDmClassicView } from '../../../../src/discord/payment-links/dm-views-classic.js';
import { linkInReplyView, paymentLinkDm, settledDmView, withdrawnDmView } from '../../../../src/discord/payment-links/dm-views.js';
import type { View } from '../../../../src/discord/respond.js';
import { demoMarked } from '../../../../src/discord/views/demo-mark.js';
import { countComponents, isDisplayView, textDisplays, textLength } from '../../../../src/discord/views/display.js';
import { en } from '../../../../src/i18n/en.js';
import { pl } from '../../../../src/i18n/pl.js';
import { MAX_PAYMENT_URL_LENGTH, paymentUrlProblem } from '../../../../src/services/payment-url.js';
import type { ReadableLink as PaymentLink } from '../../../../src/storage/payment-links.js';

const all = (view: View) => textDisplays(view.components ?? []).map((display) => display.content).join('\n');

/** The longest URL checkout lets through, in the fullest order, still fits every place Discord shows it, whole. */
describe('a payment link at the longest checkout allows', () => {
  const url = `https://sklep.example.pl/pay?token=${'x'.repeat(MAX_PAYMENT_URL_LENGTH - 35)}`;
  const link: PaymentLink = {
    id: 'ABCD1234',
    guildId: 'g1',
    userId: 'u1',
    nick: 'A_Sixteen_Chars_',
    items: Array.from({ length: MAX_LINES }, (_unused, index) => ({
      variantId: `v${index}`,
      quantity: 99,
      serverName: 'S'.repeat(100),
      productName: 'P'.repeat(100),
      variantName: 'V'.repeat(100),
    })),
    url,
    license: 'l',
    createdAt: 0,
  };

  it('is exactly the longest, and one character more is refused', () => {
    expect(url).toHaveLength(MAX_PAYMENT_URL_LENGTH);
    expect(paymentUrlProblem(url)).toBeUndefined();
    expect(paymentUrlProblem(`${url}x`)).toBe('too-long');
  });

  for (const [language, t] of [['en', en], ['pl', pl]] as const) {
    it(`shows it whole in a code block in the DM and both replies, in ${language}, within Discord's limits, DEMO mark included`, () => {
      const views = [paymentLinkDm(t, link, 'G'.repeat(100)), linkInReplyView(t, link, 'G'.repeat(100), true), linkInReplyView(t, link, 'G'.repeat(100), false)];
      for (const view of views.map((shown) => demoMarked(t, shown))) {
        expect(isDisplayView(view)).toBe(true);
        expect(textLength(view.components ?? [])).toBeLessThanOrEqual(4000);
        expect(countComponents(view.components ?? [])).toBeLessThanOrEqual(40);
        expect(all(view)).toContain(`\`\`\`\n${url}\n\`\`\``);
        // The items gave way, the rest of the order did not.
        expect(all(view)).toContain(t.checkout.safety);
        expect(all(view)).toContain(t.checkout.dmReference(link.id));
        expect(all(view)).toContain('…');
      }
    });
  }
});

describe('what the DM becomes', () => {
  const link: PaymentLink = {
    id: 'WXYZ5678',
    guildId: 'g1',
    userId: 'u1',
    nick: 'Steve_123',
    items: [{ variantId: 'v1', quantity: 2, serverName: 'Survival', productName: 'VIP', variantName: '30 dni' }],
    url: 'https://sklep.example.pl/pay/1',
    license: 'l',
    createdAt: 0,
  };
  const paid = { status: 'paid' as const, at: 1_700_000_000_000, transactionId: 'TX-1' };

  it('is display components for a DM sent as such, without the link or a button', () => {
    for (const view of [withdrawnDmView(en, link, 'Guild'), settledDmView(en, link, paid, 'Guild')]) {
      expect(isDisplayView(view)).toBe(true);
      expect(JSON.stringify(view)).not.toContain(link.url);
      expect(JSON.stringify(view)).not.toContain('"style":5');
      expect(all(view)).toContain('2 × VIP — 30 dni');
    }
  });

  it('is text and an embed for a DM sent before display components, without the link or a button', () => {
    for (const view of [withdrawnDmClassicView(en, link, 'Guild'), settledDmClassicView(en, link, paid, 'Guild')]) {
      expect(isDisplayView(view)).toBe(false);
      expect(view.embeds).toHaveLength(1);
      expect(view.components).toEqual([]);
      expect(JSON.stringify(view)).not.toContain(link.url);
    }
  });
});
