import { describe, expect, it } from 'vitest';
import { cartView, clearConfirmView, emptyCartView, lineEditorView } from '../../../../commands/cart/views.js';
import { buyAgainView, buyerLinksView } from '../../../../commands/my-links/views.js';
import { redeemedView } from '../../../../commands/redeem/views.js';
import { MAX_LINES, type CartLine } from '../../../../src/cart/rules.js';
import { LINKS_PAGE_SIZE } from '../../../../src/discord/payment-links/link-text.js';
import { linkInReplyView, paymentLinkDm, sentToDmView, settledDmView, withdrawnDmView } from '../../../../src/discord/payment-links/dm-views.js';
import type { View } from '../../../../src/discord/respond.js';
import { demoMarked } from '../../../../src/discord/views/demo-mark.js';
import { countComponents, isDisplayView, textDisplays, textLength } from '../../../../src/discord/views/display.js';
import { en } from '../../../../src/i18n/en.js';
import { pl } from '../../../../src/i18n/pl.js';
import type { ReadableLink as PaymentLink } from '../../../../src/storage/payment-links.js';

/**
 * The worst each screen of the cart, the link's messages, My payment links and /redeem can be (the
 * most lines, 100-character names, a warning and a notice, the DEMO mark) within Discord's rules
 * for display components: at most 40 components at every level, at most 4000 characters of text.
 */

const NOW = 1_700_000_000_000;
const HOUR = 3_600_000;
const long = (letter: string) => letter.repeat(100);
const warning = 'W'.repeat(300);
const notice = 'N'.repeat(300);
const GUILD = long('G');

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
const items = lines.map(({ variantId, quantity, serverName, productName, variantName }) => ({ variantId, quantity, serverName, productName, variantName }));

function link(index: number, extra: Partial<PaymentLink> = {}): PaymentLink {
  return { id: `LINK${String(index).padStart(4, '0')}`, guildId: 'g', userId: 'u', nick: 'A_Sixteen_Chars_', items, url: `https://sklep.example.pl/pay/${index}?t=${'x'.repeat(400)}`, license: 'l', createdAt: NOW - index * HOUR, ...extra };
}

function expectFits(view: View, t: typeof en): void {
  const marked = demoMarked(t, view);
  expect(isDisplayView(marked)).toBe(true);
  expect(marked.content).toBeUndefined();
  expect(marked.embeds).toBeUndefined();
  expect(countComponents(marked.components ?? [])).toBeLessThanOrEqual(40);
  expect(textLength(marked.components ?? [])).toBeLessThanOrEqual(4000);
}

const text = (view: View) => textDisplays(view.components ?? []).map((display) => display.content).join('\n');

for (const [language, t] of [['en', en], ['pl', pl]] as const) {
  describe(`at their fullest, in ${language}`, () => {
    it('the cart: every line, the estimate whole, the nick, the line menu and the buttons', () => {
      const estimate = { kind: 'totals' as const, totals: ['Przelewy24', 'BLIK', 'PayPal', 'Karta', 'Przelew'].map((name, index) => ({ method: name, name: name.repeat(5), totalGrosze: 999_999 + index })) };
      const view = cartView(t, language, 'owner', { lines, estimate, gone: new Set(lines.map((line) => line.variantId)), nick: 'A_Sixteen_Chars_', warning, notice });
      expectFits(view, t);
      expect(text(view)).toContain(t.cart.estimateNote);
      expect(text(view)).toContain(`## ${t.cart.title}`);
      expect(text(view)).toContain(t.cart.linesHeading(MAX_LINES, MAX_LINES));
      expectFits(emptyCartView(t, 'owner', { warning, notice }), t);
      expectFits(lineEditorView(t, 'owner', lines[0]!, warning), t);
      expectFits(clearConfirmView(t, 'owner', MAX_LINES), t);
    });

    it('the DM, the replies and what the DM becomes, with a link short enough for its button', () => {
      const full = link(1, { url: `https://sklep.example.pl/pay?t=${'x'.repeat(480)}` });
      const settled = (status: 'paid' | 'failed' | 'expired') => settledDmView(t, full, { status, at: NOW, transactionId: 'T'.repeat(200) }, GUILD);
      for (const view of [paymentLinkDm(t, full, GUILD), linkInReplyView(t, full, GUILD, true), linkInReplyView(t, full, GUILD)]) {
        expectFits(view, t);
        expect(JSON.stringify(view)).toContain(`"url":"${full.url}","label":"${t.checkout.pay}"`);
      }
      expectFits(sentToDmView(t, full, '4'.repeat(19)), t);
      for (const view of [withdrawnDmView(t, full, GUILD), settled('paid'), settled('failed'), settled('expired')]) {
        expectFits(view, t);
        expect(text(view)).toContain(t.checkout.dmReference(full.id));
      }
    });

    it('My payment links: a full page of links with every item, the resend menu, Buy again for each, the pager', () => {
      const links = Array.from({ length: LINKS_PAGE_SIZE + 1 }, (_unused, index) => link(index));
      const view = buyerLinksView(t, { owner: 'owner', links, page: 0, lifetimeHours: 24, now: NOW, notice });
      expectFits(view, t);
      for (const shown of links.slice(0, LINKS_PAGE_SIZE)) expect(text(view)).toContain(shown.id);
      expect(text(view)).toContain(t.links.myWhatBotKnows);
      expectFits(buyerLinksView(t, { owner: 'owner', links: [], page: 0, lifetimeHours: 24, now: NOW, notice }), t);
      const buyAgain = buyAgainView(t, {
        owner: 'owner',
        linkId: 'LINK0001',
        page: 0,
        lines: items.map((item, index) => ({ item, outcome: index % 2 === 0 ? { kind: 'added', lineQuantity: 99, capped: true } : { kind: 'gone' } })),
      });
      expectFits(buyAgain, t);
      expect(text(buyAgain)).toContain(t.buyAgain.checkoutNote);
    });

    it('/redeem: the code accepted, with the shop’s answer', () => {
      expectFits(redeemedView(t, { kind: 'redeemed', nick: 'A_Sixteen_Chars_', state: 's'.repeat(1000), transactionId: 't'.repeat(1000) }), t);
    });
  });
}
