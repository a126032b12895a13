import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { Messages } from '../../i18n/index.js';
import { linkExpiresAt, linkState, type LinkState } from '../../services/link-state.js';
import { LINK_RETENTION_DAYS, type PaymentLink } from '../../storage/payment-links.js';
import { encodeCustomId } from '../custom-id.js';
import type { ActionRow, View } from '../respond.js';
import { LIMITS, clip, noticeLine, plain } from '../text.js';
import { cartIds } from './cart.js';
import { button, pagerRow, paginate, row, select, type Page } from './components.js';

/**
 * What moderators see with /links (a member's links, a URL check, a withdrawal), what the buyer
 * sees under "My payment links", and the DM a withdrawn link turns into. Nothing here may say or
 * suggest that an order was paid: the bot cannot see payments.
 */

export const LINKS_SCOPE = 'links';
export const LINKS_PAGE_SIZE = 10;
/** How far back "My payment links" looks: recent enough to be about an order in progress. */
export const BUYER_LINK_DAYS = 7;

const COLORS = { list: 0x1c7ed6, genuine: 0x2b8a3e, warning: 0xe03131, withdrawn: 0xf08c00 } as const;
const STATE_ICONS: Record<LinkState, string> = { pending: '🕒', expired: '⌛', revoked: '⛔' };

export const linksIds = {
  page: (owner: string, memberId: string, page: number) => encodeCustomId(LINKS_SCOPE, 'page', owner, memberId, page),
};

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

/** "2 × VIP 30 dni +1 more": the first item and how many others, for one-line places. */
function itemsSummary(t: Messages, link: PaymentLink): string {
  const [first, ...rest] = link.items;
  if (!first) return '';
  return `${first.quantity} × ${first.productName} ${first.variantName}${rest.length > 0 ? ` ${t.links.more(rest.length)}` : ''}`;
}

/** "ABCD1234 · Steve_123 · 2 × VIP 30 dni · 3 h ago": the items part gives way so the whole fits 100 characters. */
export function linkChoiceName(t: Messages, link: PaymentLink, now: number): string {
  const separator = ' · ';
  const items = itemsSummary(t, link);
  const head = `${link.id}${separator}${link.nick}`;
  const tail = agoText(t, now - link.createdAt);
  const room = LIMITS.choiceName - head.length - tail.length - 2 * separator.length;
  const name = room >= 4 && items ? [head, clip(items, room), tail].join(separator) : [head, tail].join(separator);
  return clip(name, LIMITS.choiceName);
}

function itemLines(t: Messages, link: PaymentLink): string[] {
  return link.items.map((item) => `• ${t.cart.line(item.quantity, plain(item.variantName), plain(item.productName))}`);
}

/** The state in words, with when it changes or changed; who withdrew a link is for moderators only. */
function stateLine(t: Messages, link: PaymentLink, state: LinkState, lifetimeHours: number, audience: 'moderator' | 'buyer'): string {
  switch (state) {
    case 'pending':
      return t.links.pendingUntil(discordTime(linkExpiresAt(link, lifetimeHours), 'f'));
    case 'expired':
      return t.links.expiredAt(discordTime(linkExpiresAt(link, lifetimeHours), 'R'));
    case 'revoked': {
      const when = discordTime(link.revoked?.at ?? link.createdAt, 'R');
      return audience === 'moderator' ? t.links.revokedBy(`<@${link.revoked?.by ?? ''}>`, when) : t.links.revokedForBuyer(when);
    }
  }
}

/**
 * One link as an embed field of at most `budget` characters (name and value). The lines around
 * the items always stay whole (a clipped URL or timestamp would be wrong, not just short); the
 * item list gives way. A URL too long for the budget is replaced by a pointer to /links verify.
 */
function linkField(t: Messages, link: PaymentLink, input: { lifetimeHours: number; now: number; budget: number; audience: 'moderator' | 'buyer' }): APIEmbedField {
  const state = linkState(link, input.lifetimeHours, input.now);
  const name = clip(`${STATE_ICONS[state]} ${link.id} · ${t.links.state[state]}`, LIMITS.fieldName);
  const budget = Math.min(LIMITS.fieldValue, input.budget - name.length);
  const head = [
    t.links.issued(discordTime(link.createdAt, 'R'), discordTime(link.createdAt, 'f')),
    stateLine(t, link, state, input.lifetimeHours, input.audience),
    t.links.nick(plain(link.nick)),
  ];
  let tail = input.audience === 'moderator' ? [maskedLink(t.links.linkLabel, link.url)] : [];
  if (lines(head, tail) + 60 > budget) tail = [t.links.linkTooLong];
  const room = budget - lines(head, tail) - 2;
  const items = clip(itemLines(t, link).join('\n'), Math.max(1, room));
  return { name, value: [...head, items, ...tail].join('\n') };
}

function lines(head: string[], tail: string[]): number {
  return [...head, ...tail].join('\n').length;
}

/** What each of `count` fields may use so the whole embed stays within Discord's 6000 characters. */
function fieldBudget(fixed: string[], count: number): number {
  const used = fixed.reduce((sum, text) => sum + text.length, 0);
  return Math.floor((LIMITS.embedTotal - used) / Math.max(1, count));
}

export interface MemberLinksInput {
  owner: string;
  memberId: string;
  links: PaymentLink[];
  page: number;
  pages: number;
  total: number;
  lifetimeHours: number;
  now: number;
}

/** A member's links for a moderator: newest first, one page of ten, each with its state and its link. */
export function memberLinksView(t: Messages, input: MemberLinksInput): View {
  const member = `<@${input.memberId}>`;
  if (input.total === 0) return notice(t.links.none(member, LINK_RETENTION_DAYS), COLORS.list, t.links.title);
  const description = `${t.links.intro(member, input.total)}\n\n*${t.links.cannotSeePayments}*`;
  const footer = t.common.page(input.page + 1, input.pages);
  const budget = fieldBudget([t.links.title, description, footer], input.links.length);
  const fields = input.links.map((link) => linkField(t, link, { ...input, budget, audience: 'moderator' }));
  const page: Page<PaymentLink> = { items: input.links, page: input.page, pages: input.pages, offset: input.page * LINKS_PAGE_SIZE };
  const pager = pagerRow(t, page, (to) => linksIds.page(input.owner, input.memberId, to));
  return {
    content: '',
    embeds: [{ title: t.links.title, description, color: COLORS.list, fields, footer: { text: footer } }],
    components: pager ? [pager] : [],
  };
}

/** The answer to "did the bot issue this URL?": who, for which nick and when, or a plain warning. */
export function verifyView(t: Messages, link: PaymentLink | undefined, lifetimeHours: number, now: number): View {
  if (!link) {
    return notice(`⚠️ ${t.links.notIssued}\n\n${t.links.exactMatchNote}`, COLORS.warning, t.links.notIssuedTitle);
  }
  const state = linkState(link, lifetimeHours, now);
  const description = [
    `✅ ${t.links.verified(`<@${link.userId}>`, plain(link.nick), discordTime(link.createdAt, 'f'), discordTime(link.createdAt, 'R'))}`,
    '',
    `${STATE_ICONS[state]} **${t.links.state[state]}**: ${stateLine(t, link, state, lifetimeHours, 'moderator')}`,
    clip(itemLines(t, link).join('\n'), 1500),
    '',
    `*${t.links.cannotSeePayments}*`,
  ].join('\n');
  return {
    content: '',
    embeds: [{ title: t.links.verifiedTitle, description, color: COLORS.genuine, footer: { text: t.links.verifiedReference(link.id) } }],
    components: [],
  };
}

export type DmWithdrawal = 'edited' | 'not-edited' | 'shown-in-reply';

/** The moderator's confirmation, saying what happened to the member's copy of the link. */
export function revokedView(t: Messages, link: PaymentLink, dm: DmWithdrawal): View {
  const dmLine = { edited: t.links.dmEdited, 'not-edited': `⚠️ ${t.links.dmNotEdited}`, 'shown-in-reply': `⚠️ ${t.links.shownInReply}` }[dm];
  const text = [t.links.revoked(link.id, `<@${link.userId}>`, plain(link.nick)), dmLine, `*${t.links.shopMayAccept}*`].join('\n\n');
  return notice(text, COLORS.withdrawn);
}

/** A moderator-facing sentence in an embed: mentions in embeds never notify anyone. */
export function notice(text: string, color: number = COLORS.list, title?: string): View {
  const embed: APIEmbed = { description: clip(text, LIMITS.embedDescription), color };
  if (title) embed.title = title;
  return { content: '', embeds: [embed], components: [] };
}

/** What the DM becomes once a moderator withdrew its link: the order summary stays, the link and the Pay button go. */
export function withdrawnDmView(t: Messages, link: PaymentLink, guildName: string): View {
  return {
    content: `⚠️ ${t.links.dmWithdrawn}`,
    embeds: [
      {
        title: clip(t.links.dmWithdrawnTitle(guildName), LIMITS.embedTitle),
        color: COLORS.withdrawn,
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

export interface BuyerLinksInput {
  owner: string;
  /** The member's links of the last BUYER_LINK_DAYS days, newest first. */
  links: PaymentLink[];
  page: number;
  lifetimeHours: number;
  now: number;
  notice?: string;
}

/**
 * The buyer's own recent links with their states. URLs are not repeated here: the way to get a
 * link again is to have it sent to the DMs, where the safety note tells them to pay only there.
 */
export function buyerLinksView(t: Messages, input: BuyerLinksInput): View {
  const content = noticeLine(input.notice, 'info');
  const title = t.links.myTitle(BUYER_LINK_DAYS);
  const back = button(cartIds.view(input.owner), t.cart.backToCart);
  if (input.links.length === 0) {
    return { content, embeds: [{ title, description: t.links.myNone(BUYER_LINK_DAYS), color: COLORS.list }], components: [row(back)] };
  }
  const page = paginate(input.links, input.page, LINKS_PAGE_SIZE);
  const description = `*${t.links.myCannotSeePayments}*`;
  const footer = t.common.page(page.page + 1, page.pages);
  const budget = fieldBudget([title, description, footer], page.items.length);
  const fields = page.items.map((link) => linkField(t, link, { ...input, budget, audience: 'buyer' }));
  const pending = page.items.filter((link) => linkState(link, input.lifetimeHours, input.now) === 'pending');
  const components: ActionRow[] = [];
  if (pending.length > 0) {
    const options = pending.map((link) => ({
      value: link.id,
      label: `${link.id} · ${link.nick}`,
      description: `${itemsSummary(t, link)} · ${agoText(t, input.now - link.createdAt)}`,
    }));
    components.push(row(select(cartIds.resendLink(input.owner, page.page), t.links.resendPlaceholder, options)));
  }
  const pager = pagerRow(t, page, (to) => cartIds.myLinks(input.owner, to), [back]);
  if (pager) components.push(pager);
  return { content, embeds: [{ title, description, color: COLORS.list, fields, footer: { text: footer } }], components };
}
