import type { Messages } from '../../i18n/index.js';
import type { PaymentLink } from '../../storage/payment-links.js';
import type { View } from '../respond.js';
import { clip, LIMITS, plain } from '../text.js';
import { discordTime, itemLines, LINK_COLORS } from './link-text.js';

/**
 * What a DM sent before display components becomes once its link is withdrawn or settled: the same
 * classic message (text and an embed) it always was, without the Pay button. Such a DM is edited in
 * the form it was sent in, so a member's older DMs keep one look; the link record tells which form
 * a DM has (`delivery.display`, see delivery.ts). Every DM sent now is display components and is
 * edited with dm-views.ts. Once no classic DM can still change (links expire within days), this
 * file can go.
 */

export function withdrawnDmClassicView(t: Messages, link: PaymentLink, guildName: string): View {
  return {
    content: `⚠️ ${t.links.dmWithdrawn}`,
    embeds: [
      {
        title: clip(t.links.dmWithdrawnTitle(plain(guildName)), LIMITS.embedTitle),
        color: LINK_COLORS.withdrawn,
        fields: orderFields(t, link),
        footer: { text: t.checkout.dmReference(link.id) },
      },
    ],
    components: [],
  };
}

export function settledDmClassicView(t: Messages, link: PaymentLink, settled: { status: 'paid' | 'failed' | 'expired'; at: number; transactionId: string; rolesHeld?: boolean }, guildName: string): View {
  const guild = plain(guildName);
  const time = discordTime(settled.at, 'f');
  const footer = { text: t.checkout.dmReference(link.id) };
  if (settled.status === 'paid') {
    return {
      content: `✅ ${t.payments.dmPaid(time)}`,
      embeds: [
        {
          title: clip(t.payments.dmPaidTitle(guild), LIMITS.embedTitle),
          color: LINK_COLORS.genuine,
          description: `${t.payments.dmDelivery}\n\n${t.payments.dmAskStaff(link.id)}${settled.rolesHeld ? `\n\n${t.payments.dmRoleHeld}` : ''}`,
          fields: [
            ...orderFields(t, link),
            { name: t.payments.paidAt, value: time, inline: true },
            { name: t.payments.transaction, value: `\`${clip(settled.transactionId, 100)}\``, inline: true },
          ],
          footer,
        },
      ],
      components: [],
    };
  }
  const failed = settled.status === 'failed';
  return {
    content: `${failed ? '❌' : '⌛'} ${failed ? t.payments.dmFailed(time) : t.payments.dmExpired(time)}`,
    embeds: [
      {
        title: clip(failed ? t.payments.dmFailedTitle(guild) : t.payments.dmExpiredTitle(guild), LIMITS.embedTitle),
        color: LINK_COLORS.warning,
        description: t.payments.dmBuyAgain,
        fields: orderFields(t, link),
        footer,
      },
    ],
    components: [],
  };
}

function orderFields(t: Messages, link: PaymentLink) {
  return [
    { name: t.checkout.dmNick, value: plain(link.nick), inline: true },
    { name: t.checkout.dmItems, value: clip(itemLines(t, link).join('\n'), LIMITS.fieldValue) },
  ];
}
