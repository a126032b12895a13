import type { APIEmbed } from 'discord.js';
import type { Messages } from '../../i18n/index.js';
import type { PaymentLink } from '../../storage/payment-links.js';
import type { View } from '../respond.js';
import { clip, LIMITS, plain } from '../text.js';
import { linkButton, row } from '../views/components.js';
import { discordTime, itemLines, LINK_COLORS } from './link-text.js';

/**
 * The messages that carry a payment link to its buyer: the DM with the Pay button, the reply that
 * points to it, the reply that carries the link when DMs are closed, and what the DM becomes once
 * a moderator withdrew the link or the shop reported its payment paid, failed or expired.
 */

const EMBED_COLOR = 0xf08c00;

/** The order summary that goes with the link, in the DM or (DMs closed) in the reply. */
function orderEmbed(t: Messages, link: PaymentLink, guildName: string): APIEmbed {
  const items = itemLines(t, link);
  return {
    title: clip(t.checkout.dmTitle(plain(guildName)), LIMITS.embedTitle),
    color: EMBED_COLOR,
    description: `${t.checkout.dmAmount}\n\n${t.checkout.safety}`,
    fields: [
      { name: t.checkout.dmNick, value: plain(link.nick), inline: true },
      { name: t.checkout.dmItems, value: clip(items.join('\n'), LIMITS.fieldValue) },
    ],
    footer: { text: t.checkout.dmReference(link.id) },
  };
}

/**
 * The link itself goes out exactly as the store returned it: as a `Pay` button while it fits
 * Discord's 512-character limit for button URLs, otherwise as text in a code block (easy to copy on
 * a phone, never shortened): in the message text while it fits there, else in an embed of its own.
 * Checkout refuses a URL longer than MAX_PAYMENT_URL_LENGTH, so the embed always has room.
 */
function linkParts(t: Messages, url: string): { components: View['components']; text: string; embeds: APIEmbed[] } {
  if (url.length <= LIMITS.linkButtonUrl) return { components: [row(linkButton(url, t.checkout.pay))], text: '', embeds: [] };
  const block = `\`\`\`\n${url}\n\`\`\``;
  const text = `${t.checkout.longUrl}\n${block}`;
  if (text.length <= LIMITS.content - 300) return { components: [], text, embeds: [] };
  return { components: [], text: t.checkout.longUrl, embeds: [{ title: t.checkout.pay, description: block, color: EMBED_COLOR }] };
}

export function paymentLinkDm(t: Messages, link: PaymentLink, guildName: string): View {
  const parts = linkParts(t, link.url);
  return { content: parts.text, embeds: [orderEmbed(t, link, guildName), ...parts.embeds], components: parts.components ?? [] };
}

export function sentToDmView(t: Messages, link: PaymentLink, dmChannelId: string): View {
  return {
    content: t.checkout.sentToDm(plain(link.nick)),
    embeds: [],
    // A shortcut to the DM: on phones the DM list is a few taps away.
    components: [row(linkButton(`https://discord.com/channels/@me/${dmChannelId}`, t.checkout.openDms))],
  };
}

/**
 * The link in the member's ephemeral reply: their DMs are closed, or (`dmFollows`) the DM is
 * queued behind a crowd and a copy follows. Same summary, safety note and Pay button as the DM.
 */
export function linkInReplyView(t: Messages, link: PaymentLink, guildName: string, dmFollows = false): View {
  const parts = linkParts(t, link.url);
  const why = dmFollows ? t.checkout.dmOnItsWay(plain(link.nick)) : t.checkout.dmClosed(plain(link.nick));
  const content = [why, parts.text].filter(Boolean).join('\n\n');
  return { content, embeds: [orderEmbed(t, link, guildName), ...parts.embeds], components: parts.components ?? [] };
}

/** What the DM becomes once a moderator withdrew its link: the order summary stays, the link and the Pay button go. */
export function withdrawnDmView(t: Messages, link: PaymentLink, guildName: string): View {
  return {
    content: `⚠️ ${t.links.dmWithdrawn}`,
    embeds: [
      {
        title: clip(t.links.dmWithdrawnTitle(plain(guildName)), LIMITS.embedTitle),
        color: LINK_COLORS.withdrawn,
        fields: [
          { name: t.checkout.dmNick, value: plain(link.nick), inline: true },
          { name: t.checkout.dmItems, value: clip(itemLines(t, link).join('\n'), LIMITS.fieldValue) },
        ],
        footer: { text: t.checkout.dmReference(link.id) },
      },
    ],
    components: [],
  };
}

/**
 * What the DM (and the reply the link was shown in, while Discord allows) becomes once the shop
 * reported the payment final: the Pay button goes either way. Paid: when the shop said so, that the
 * game server delivers the items, and whom to ask (the server's staff, with the link reference).
 * Failed or expired: so, and how to order again. That is text, not a button: a button in a DM would
 * have no server to act in (the bot's menus are per server), so the member is told the way through
 * /cart → My payment links → Buy again.
 */
export function settledDmView(t: Messages, link: PaymentLink, settled: { status: 'paid' | 'failed' | 'expired'; at: number; transactionId: string }, guildName: string): View {
  const guild = plain(guildName);
  const time = discordTime(settled.at, 'f');
  const fields = [
    { name: t.checkout.dmNick, value: plain(link.nick), inline: true },
    { name: t.checkout.dmItems, value: clip(itemLines(t, link).join('\n'), LIMITS.fieldValue) },
  ];
  const footer = { text: t.checkout.dmReference(link.id) };
  if (settled.status === 'paid') {
    return {
      content: `✅ ${t.payments.dmPaid(time)}`,
      embeds: [
        {
          title: clip(t.payments.dmPaidTitle(guild), LIMITS.embedTitle),
          color: LINK_COLORS.genuine,
          description: `${t.payments.dmDelivery}\n\n${t.payments.dmAskStaff(link.id)}`,
          fields: [
            ...fields,
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
        fields,
        footer,
      },
    ],
    components: [],
  };
}
