import type { APIEmbed } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { MAX_LINES } from '../../../../src/cart/rules.js';
import { linkInReplyView, paymentLinkDm } from '../../../../src/discord/payment-links/dm-views.js';
import { LIMITS } from '../../../../src/discord/text.js';
import { demoMarked } from '../../../../src/discord/views/demo-mark.js';
import { en } from '../../../../src/i18n/en.js';
import { pl } from '../../../../src/i18n/pl.js';
import { MAX_PAYMENT_URL_LENGTH } from '../../../../src/services/payment-url.js';
import type { PaymentLink } from '../../../../src/storage/payment-links.js';

/** The longest URL checkout lets through, in the fullest order, still fits every place Discord shows it. */
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

  it('is exactly the longest', () => expect(url).toHaveLength(MAX_PAYMENT_URL_LENGTH));

  for (const [language, t] of [['en', en], ['pl', pl]] as const) {
    it(`fits the DM and the reply within Discord's limits, in ${language}, DEMO mark included`, () => {
      for (const view of [paymentLinkDm(t, link, 'G'.repeat(100)), linkInReplyView(t, link, 'G'.repeat(100), true)].map((shown) => demoMarked(t, shown))) {
        const embeds = (view.embeds ?? []) as APIEmbed[];
        expect((view.content ?? '').length).toBeLessThanOrEqual(LIMITS.content);
        for (const embed of embeds) expect((embed.description ?? '').length).toBeLessThanOrEqual(LIMITS.embedDescription);
        const total = embeds.reduce(
          (sum, embed) => sum + (embed.title ?? '').length + (embed.description ?? '').length + (embed.footer?.text ?? '').length + (embed.fields ?? []).reduce((n, field) => n + field.name.length + field.value.length, 0),
          0,
        );
        expect(total).toBeLessThanOrEqual(6000);
        expect(JSON.stringify(view)).toContain(`\`\`\`\\n${url}\\n\`\`\``);
      }
    });
  }
});
