import { describe, expect, it } from 'vitest';
import { cartView } from '../../../commands/cart/views.js';
import { checkView } from '../../../commands/check-link/views.js';
import { pricesUpView } from '../../../commands/checkout/views.js';
import type { LineChange } from '../../../src/cart/price-changes.js';
import { MAX_LINES, type CartLine } from '../../../src/cart/rules.js';
import type { View } from '../../../src/discord/respond.js';
import { demoMarked } from '../../../src/discord/views/demo-mark.js';
import { countComponents, textDisplays, textLength } from '../../../src/discord/views/display.js';
import { en } from '../../../src/i18n/en.js';
import { pl } from '../../../src/i18n/pl.js';
import { URLS_PER_CHECK } from '../../../src/services/link-check.js';
import type { PaymentLink } from '../../../src/storage/payment-links.js';

/**
 * The worst the cart with its price changes, checkout's prices question and the link check can be
 * (every line changed, 100-character names, ten 6000-character addresses for a moderator, the DEMO
 * mark) within Discord's 40 components and 4000 characters.
 */

const NOW = 1_700_000_000_000;
const long = (letter: string) => letter.repeat(100);
const lines: CartLine[] = Array.from({ length: MAX_LINES }, (_unused, index) => ({
  variantId: `variant-${index}`,
  quantity: 99,
  serverId: `server-${index % 2}`,
  categoryId: 'c',
  productId: `p${index}`,
  serverName: long('S'),
  productName: long('P'),
  variantName: long('V'),
}));

function expectFits(view: View, t: typeof en): void {
  const marked = demoMarked(t, view);
  expect(countComponents(marked.components ?? [])).toBeLessThanOrEqual(40);
  expect(textLength(marked.components ?? [])).toBeLessThanOrEqual(4000);
}
const text = (view: View) => textDisplays(view.components ?? []).map((display) => display.content).join('\n');

for (const [language, t] of [['en', en], ['pl', pl]] as const) {
  describe(`at their fullest, in ${language}`, () => {
    it('the cart with every line’s price changed, and checkout’s question about half of them up, half left out', () => {
      const up: LineChange = { kind: 'up', wasGrosze: 99_999_999, nowGrosze: 199_999_999 };
      const changes = new Map(lines.map((line) => [line.variantId, up] as const));
      const estimate = { kind: 'totals' as const, totals: [{ method: 'p24', name: 'Przelewy24', totalGrosze: 999_999 }] };
      const cart = cartView(t, language, 'owner', { lines, estimate, gone: new Set(), changes, unconfirmed: true, unknownPrices: true, nick: 'A_Sixteen_Chars_' });
      expectFits(cart, t);
      expect(text(cart)).toContain(t.cart.pricesUnconfirmed);

      const leftOut = new Set(lines.slice(10).map((line) => line.variantId));
      const question = pricesUpView(t, language, 'owner', 'A_Sixteen_Chars_', lines, { lines: changes, priceUp: true, leftOut }, 'AbCd_-12');
      expectFits(question, t);
      expect(text(question)).toContain(t.checkout.pricesUp);
      expect(text(question)).toContain(t.checkout.pricesLeftOut);
    });

    it('the link check: ten of the longest addresses, issued ones for a moderator and look-alikes', () => {
      const url = (index: number) => `https://sklep.example.pl/pay/${index}?t=${'x'.repeat(5950)}`;
      const link = (index: number): PaymentLink => ({ id: `LINK${index}`, guildId: 'g', userId: 'u', nick: 'A_Sixteen_Chars_', items: [], url: url(index), license: 'l', createdAt: NOW });
      const checks = Array.from({ length: URLS_PER_CHECK }, (_unused, index) => ({ url: url(index), link: index % 2 === 0 ? link(index) : undefined }));
      const view = checkView(t, { result: { checks, shopHosts: ['sklep.example.pl', long('h')] }, total: 50, userId: 'v', moderator: true, lifetimeHours: 24, now: NOW });
      expectFits(view, t);
      expect(text(view)).toContain(t.linkCheck.onlyFirst(URLS_PER_CHECK, 50));
      expect(text(view)).toContain(t.linkCheck.note);
    });
  });
}
