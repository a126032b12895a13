import type { APIEmbedField } from 'discord.js';
import type { Messages } from '../../i18n/index.js';
import { linkExpiresAt, linkState, type LinkState } from '../../services/link-state.js';
import type { PaymentLink } from '../../storage/payment-links.js';
import { LIMITS, clip, plain } from '../text.js';

/**
 * How a payment link reads wherever it is listed: for moderators (/links) and for the buyer
 * (My payment links). A link reads as paid, failed or (at the store) expired only when the shop
 * reported it (the record's `payment`, see src/services/link-state.ts); nothing else here may say
 * or suggest that an order was paid.
 */

export const LINKS_PAGE_SIZE = 10;
export const LINK_COLORS = { list: 0x1c7ed6, genuine: 0x2b8a3e, warning: 0xe03131, withdrawn: 0xf08c00 } as const;
export const STATE_ICONS: Record<LinkState, string> = { pending: '🕒', paid: '✅', failed: '❌', expired: '⌛', revoked: '⛔' };

/** The state's name as the reader sees it: a buyer's link is "withdrawn", a moderator's "revoked". */
export function stateName(t: Messages, state: LinkState, audience: 'moderator' | 'buyer'): string {
  return (audience === 'buyer' ? t.links.buyerState : t.links.state)[state];
}

/** Discord renders these in each reader's own time zone and language. */
export function discordTime(ms: number, style: 'R' | 'f'): string {
  return `<t:${Math.floor(ms / 1000)}:${style}>`;
}

/**
 * `[label](url)` when nothing in the URL can end the Markdown link early; otherwise the label and
 * the URL as plain text. The URL itself is never changed: moderators compare it character for character.
 */
export function maskedLink(label: string, url: string): string {
  return /^https?:\/\/[^\s()<>[\]]+$/i.test(url) ? `[${label}](${url})` : `${label}: ${url}`;
}

/** "3 h ago" for places where Discord's own timestamps are not rendered (autocomplete choices). */
export function agoText(t: Messages, elapsedMs: number): string {
  const minutes = Math.max(0, Math.floor(elapsedMs / 60_000));
  if (minutes < 60) return t.links.ago(minutes, 'min');
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? t.links.ago(hours, 'h') : t.links.ago(Math.floor(hours / 24), 'd');
}

/** "2 × VIP — 30 dni and 1 more": the first item (written as a cart line) and how many others, for one-line places. */
export function itemsSummary(t: Messages, link: PaymentLink): string {
  const [first, ...rest] = link.items;
  if (!first) return '';
  return `${t.cart.line(first.quantity, first.variantName, first.productName)}${rest.length > 0 ? ` ${t.links.more(rest.length)}` : ''}`;
}

/** "Nick: **Steve**", or for a gift "🎁 Gift for **Steve** (@member)". */
export function nickLine(t: Messages, link: PaymentLink): string {
  if (!link.gift) return t.links.nick(plain(link.nick));
  return `🎁 ${t.gift.label(plain(link.nick), link.gift.recipientId ? `<@${link.gift.recipientId}>` : undefined)}`;
}

export function itemLines(t: Messages, link: PaymentLink): string[] {
  return link.items.map((item) => `• ${t.cart.line(item.quantity, plain(item.variantName), plain(item.productName))}`);
}

/** The state in words, with when it changes or changed; who withdrew a link is for moderators only. */
export function stateLine(t: Messages, link: PaymentLink, state: LinkState, lifetimeHours: number, audience: 'moderator' | 'buyer'): string {
  const settled = link.payment?.settledAt ?? link.payment?.matchedAt ?? link.createdAt;
  switch (state) {
    case 'pending':
      return t.links.pendingUntil(discordTime(linkExpiresAt(link, lifetimeHours), 'f'));
    case 'paid':
      return t.links.paidAt(discordTime(settled, 'f'), discordTime(settled, 'R'));
    case 'failed':
      return t.links.failedAt(discordTime(settled, 'R'));
    case 'expired':
      return link.payment?.status === 'expired'
        ? t.links.storeExpiredAt(discordTime(settled, 'R'))
        : t.links.expiredAt(discordTime(linkExpiresAt(link, lifetimeHours), 'R'));
    case 'revoked': {
      const when = discordTime(link.revoked?.at ?? link.createdAt, 'R');
      return audience === 'moderator' ? t.links.revokedBy(`<@${link.revoked?.by ?? ''}>`, when) : t.links.revokedForBuyer(when);
    }
  }
}

/**
 * What the store said of the link's payment besides its state: a payment under way at the shop,
 * and (for moderators, who answer "I paid") the store's transaction id.
 */
export function paymentLines(t: Messages, link: PaymentLink, state: LinkState, audience: 'moderator' | 'buyer'): string[] {
  const payment = link.payment;
  if (!payment) return [];
  const lines = payment.status === 'pending' && state === 'pending' ? [t.links.paymentUnderWay] : [];
  if (audience === 'moderator') lines.push(t.links.transaction(payment.transactionId));
  if (audience === 'moderator' && payment.confirmedBy) lines.push(t.review.confirmedBy(`<@${payment.confirmedBy}>`));
  return lines;
}

/**
 * One link as an embed field of at most `budget` characters (name and value). The lines around
 * the items always stay whole (a clipped URL or timestamp would be wrong, not just short); the
 * item list gives way. A URL too long for the budget is replaced by a pointer to /links verify.
 */
export function linkField(t: Messages, link: PaymentLink, input: { lifetimeHours: number; now: number; budget: number; audience: 'moderator' | 'buyer' }): APIEmbedField {
  const state = linkState(link, input.lifetimeHours, input.now);
  const name = clip(`${STATE_ICONS[state]} ${link.id} · ${stateName(t, state, input.audience)}`, LIMITS.fieldName);
  const budget = Math.min(LIMITS.fieldValue, input.budget - name.length);
  const head = [
    t.links.issued(discordTime(link.createdAt, 'R'), discordTime(link.createdAt, 'f')),
    stateLine(t, link, state, input.lifetimeHours, input.audience),
    ...paymentLines(t, link, state, input.audience),
    nickLine(t, link),
  ];
  // A URL sealed with another ENCRYPTION_KEY (or none now) is said to be unreadable, never left out silently.
  let tail = input.audience === 'moderator' ? [link.url === undefined ? t.links.linkUnreadable : maskedLink(t.links.linkLabel, link.url)] : [];
  if (lines(head, tail) + 60 > budget) tail = [t.links.linkTooLong];
  const room = budget - lines(head, tail) - 2;
  const items = clip(itemLines(t, link).join('\n'), Math.max(1, room));
  return { name, value: [...head, items, ...tail].join('\n') };
}

/**
 * One link as the text of a display component, at most `budget` characters: a `###` line with its
 * state, then what linkField says of it (the item list gives way first).
 */
export function linkText(t: Messages, link: PaymentLink, input: { lifetimeHours: number; now: number; budget: number; audience: 'moderator' | 'buyer' }): string {
  const field = linkField(t, link, { ...input, budget: input.budget - 5 });
  return `### ${field.name}\n${field.value}`;
}

function lines(head: string[], tail: string[]): number {
  return [...head, ...tail].join('\n').length;
}
