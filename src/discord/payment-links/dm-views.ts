import type { APIEmbed } from 'discord.js';
import type { Messages } from '../../i18n/index.js';
import type { PaymentLink } from '../../storage/payment-links.js';
import type { View } from '../respond.js';
import { clip, LIMITS, plain } from '../text.js';
import { linkButton, row } from '../views/components.js';
import { itemLines, LINK_COLORS } from './link-text.js';

/**
 * The messages that carry a payment link to its buyer: the DM with the Pay button, the reply that
 * points to it, the reply that carries the link when DMs are closed, and what the DM becomes once
 * a moderator withdrew the link.
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
