import { ButtonStyle, type APIEmbed } from 'discord.js';
import type { Messages } from '../../i18n/index.js';
import type { PaymentLink } from '../../storage/payment-links.js';
import { encodeCustomId } from '../custom-id.js';
import type { View } from '../respond.js';
import { clip, LIMITS, plain } from '../text.js';
import { linkButton, row, textInputModal } from './components.js';

/** The nick question, the DM with the payment link, and the buyer's confirmation. */

export const CHECKOUT_SCOPE = 'co';
export const NICK_INPUT = 'nick';
const EMBED_COLOR = 0xf08c00;

export const checkoutIds = {
  nickModal: (owner: string) => encodeCustomId(CHECKOUT_SCOPE, 'nick', owner),
};

export function nickModal(t: Messages, owner: string, current: string | undefined) {
  return textInputModal(checkoutIds.nickModal(owner), t.nick.modalTitle, {
    customId: NICK_INPUT,
    label: t.nick.label,
    placeholder: t.nick.placeholder,
    minLength: 3,
    maxLength: 16,
    ...(current ? { value: current } : {}),
  });
}

/** The order summary that goes with the link, in the DM or (DMs closed) in the reply. */
function orderEmbed(t: Messages, link: PaymentLink, guildName: string): APIEmbed {
  const items = link.items.map((item) => `• ${t.cart.line(item.quantity, plain(item.variantName), plain(item.productName))}`);
  return {
    title: clip(t.checkout.dmTitle(guildName), LIMITS.embedTitle),
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
 * Discord's 512-character limit for button URLs, otherwise as plain text (never shortened):
 * in the message text while it fits there, else in an embed of its own.
 */
function linkParts(t: Messages, url: string): { components: View['components']; text: string; embeds: APIEmbed[] } {
  if (url.length <= LIMITS.linkButtonUrl) return { components: [row(linkButton(url, t.checkout.pay))], text: '', embeds: [] };
  const text = `${t.checkout.longUrl}\n${url}`;
  if (text.length <= LIMITS.content - 300) return { components: [], text, embeds: [] };
  return { components: [], text: t.checkout.longUrl, embeds: [{ title: t.checkout.pay, description: url, color: EMBED_COLOR }] };
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

/** DMs closed: the ephemeral reply carries the link instead, so the buyer still gets it. */
export function dmClosedView(t: Messages, link: PaymentLink, guildName: string): View {
  const parts = linkParts(t, link.url);
  const content = [t.checkout.dmClosed(plain(link.nick)), parts.text].filter(Boolean).join('\n\n');
  return { content, embeds: [orderEmbed(t, link, guildName), ...parts.embeds], components: parts.components ?? [] };
}
