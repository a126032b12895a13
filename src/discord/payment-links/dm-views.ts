import type { Messages } from '../../i18n/index.js';
import type { PaymentLink, ReadableLink } from '../../storage/payment-links.js';
import type { ActionRow, View } from '../respond.js';
import { clip, LIMITS, plain } from '../text.js';
import { linkButton, row } from '../views/components.js';
import { screen, separator, small, text, TEXT_BUDGET, textLength, type Part } from '../views/display.js';
import { discordTime, itemLines, LINK_COLORS, nickLine } from './link-text.js';

/**
 * The messages that carry a payment link to its buyer: the DM with the Pay button, the reply that
 * points to it, the reply that carries the link when DMs are closed, and what the DM becomes once
 * a moderator withdrew the link or the shop reported its payment paid, failed or expired. All are
 * display components; a DM sent before them is edited with dm-views-classic.ts instead.
 */

const ACCENT = 0xf08c00;

/**
 * The link itself goes out exactly as the store returned it: as a `Pay` button while it fits
 * Discord's 512-character limit for button URLs, otherwise in full in a code block (easy to copy on
 * a phone, never shortened). Checkout refuses a URL longer than MAX_PAYMENT_URL_LENGTH, which
 * leaves the rest of the message room within Discord's 4000 characters (the items give way).
 */
function payParts(t: Messages, url: string): { body: Part[]; controls: ActionRow[] } {
  if (url.length <= LIMITS.linkButtonUrl) return { body: [], controls: [row(linkButton(url, t.checkout.pay))] };
  return { body: [separator(), text(`${t.checkout.longUrl}\n\`\`\`\n${url}\n\`\`\``)], controls: [] };
}

/** The nick and the items, as the member ordered them (`items`: the item lines, already fitted). */
function orderText(t: Messages, link: PaymentLink, items: string): Part {
  const who = link.gift ? nickLine(t, link) : `${t.checkout.dmNick}: **${plain(link.nick)}**`;
  return text(`${who}\n\n**${t.checkout.dmItems}**\n${items}`);
}

/**
 * A view drawn around the link's item lines, with as many of them as fit: every other text stays
 * whole (the payment URL above all), and room is kept for the demo banner (display.ts).
 */
function withItems(t: Messages, link: PaymentLink, draw: (items: string) => View): View {
  const room = TEXT_BUDGET - textLength(draw('').components ?? []);
  return draw(clip(itemLines(t, link).join('\n'), Math.max(1, room)));
}

/** The link with its order: the heading, the order, what the link is (and is not), the Pay button. */
function linkScreen(t: Messages, link: ReadableLink, guildName: string, why?: string): View {
  const pay = payParts(t, link.url);
  return withItems(t, link, (items) =>
    screen({
      accent: ACCENT,
      info: why,
      title: t.checkout.dmTitle(plain(guildName)),
      body: [orderText(t, link, items), separator(), text(`${t.checkout.dmAmount}\n\n${t.checkout.safety}`), small(t.checkout.dmReference(link.id)), ...pay.body],
      controls: pay.controls,
    }),
  );
}

export function paymentLinkDm(t: Messages, link: ReadableLink, guildName: string): View {
  return linkScreen(t, link, guildName);
}

export function sentToDmView(t: Messages, link: PaymentLink, dmChannelId: string, warning?: string): View {
  return screen({
    accent: ACCENT,
    warning,
    title: t.checkout.sentTitle,
    body: [text(t.checkout.sentToDm(plain(link.nick))), small(t.checkout.dmReference(link.id))],
    // A shortcut to the DM: on phones the DM list is a few taps away.
    controls: [row(linkButton(`https://discord.com/channels/@me/${dmChannelId}`, t.checkout.openDms))],
  });
}

/**
 * The link in the member's ephemeral reply: their DMs are closed, or (`dmFollows`) the DM is
 * queued behind a crowd and a copy follows. Same order, safety note and Pay button as the DM.
 */
export function linkInReplyView(t: Messages, link: ReadableLink, guildName: string, dmFollows = false): View {
  return linkScreen(t, link, guildName, dmFollows ? t.checkout.dmOnItsWay(plain(link.nick)) : t.checkout.dmClosed(plain(link.nick)));
}

/** What the DM becomes once a moderator withdrew its link: the order stays, the link and the Pay button go. */
export function withdrawnDmView(t: Messages, link: PaymentLink, guildName: string): View {
  return withItems(t, link, (items) =>
    screen({
      accent: LINK_COLORS.withdrawn,
      warning: t.links.dmWithdrawn,
      title: t.links.dmWithdrawnTitle(plain(guildName)),
      body: [orderText(t, link, items), small(t.checkout.dmReference(link.id))],
    }),
  );
}

/**
 * What the DM (and the reply the link was shown in, while Discord allows) becomes once the shop
 * reported the payment final: the Pay button goes either way. Paid: when the shop said so, that the
 * game server delivers the items, and whom to ask (the server's staff, with the link reference).
 * Failed or expired: so, and how to order again. That is text, not a button: a button in a DM would
 * have no server to act in (the bot's menus are per server), so the member is told the way through
 * /cart → My payment links → Buy again.
 */
export function settledDmView(t: Messages, link: PaymentLink, settled: { status: 'paid' | 'failed' | 'expired'; at: number; transactionId: string; rolesHeld?: boolean }, guildName: string): View {
  const guild = plain(guildName);
  const time = discordTime(settled.at, 'f');
  const reference = small(t.checkout.dmReference(link.id));
  if (settled.status === 'paid') {
    const transaction = `\`${clip(settled.transactionId.replace(/`/g, ''), 100)}\``;
    return withItems(t, link, (items) =>
      screen({
        accent: LINK_COLORS.genuine,
        title: t.payments.dmPaidTitle(guild),
        body: [
          text(`✅ ${t.payments.dmPaid(time)}`),
          separator(),
          orderText(t, link, items),
          separator(),
          text(`${t.payments.dmDelivery}\n\n${t.payments.dmAskStaff(link.id)}${settled.rolesHeld ? `\n\n${t.payments.dmRoleHeld}` : ''}`),
          small(`${t.payments.paidAt}: ${time} · ${t.payments.transaction}: ${transaction}`),
          reference,
        ],
      }),
    );
  }
  const failed = settled.status === 'failed';
  return withItems(t, link, (items) =>
    screen({
      accent: LINK_COLORS.warning,
      title: failed ? t.payments.dmFailedTitle(guild) : t.payments.dmExpiredTitle(guild),
      body: [
        text(`${failed ? '❌' : '⌛'} ${failed ? t.payments.dmFailed(time) : t.payments.dmExpired(time)}`),
        separator(),
        orderText(t, link, items),
        separator(),
        text(t.payments.dmBuyAgain),
        reference,
      ],
    }),
  );
}
