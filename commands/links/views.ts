import type { APIEmbed } from 'discord.js';
import type { View } from '../../src/discord/respond.js';
import { LIMITS, clip, plain } from '../../src/discord/text.js';
import { pagerRow, type Page } from '../../src/discord/views/components.js';
import type { Withdrawal } from '../../src/discord/payment-links/delivery.js';
import {
  agoText,
  discordTime,
  fieldBudget,
  itemLines,
  itemsSummary,
  LINK_COLORS,
  LINKS_PAGE_SIZE,
  linkField,
  paymentLines,
  STATE_ICONS,
  stateLine,
} from '../../src/discord/payment-links/link-text.js';
import type { Messages } from '../../src/i18n/index.js';
import { linkState } from '../../src/services/link-state.js';
import { LINK_RETENTION_DAYS, type PaymentLink } from '../../src/services/payment-links.js';
import { linksRoutes } from './routes.js';

/** What moderators see with /links: a member's links, a URL check, a withdrawal, and the revoke suggestions. */

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
  if (input.total === 0) return sentence(t.links.none(member, LINK_RETENTION_DAYS), LINK_COLORS.list, t.links.title);
  const description = `${t.links.intro(member, input.total)}\n\n*${t.links.whatBotKnows}*`;
  const footer = t.common.page(input.page + 1, input.pages);
  const budget = fieldBudget([t.links.title, description, footer], input.links.length);
  const fields = input.links.map((link) => linkField(t, link, { ...input, budget, audience: 'moderator' }));
  const page: Page<PaymentLink> = { items: input.links, page: input.page, pages: input.pages, offset: input.page * LINKS_PAGE_SIZE };
  const pager = pagerRow(t, page, (to) => linksRoutes.memberPage.build(input.owner, { member: input.memberId, page: to }));
  return {
    content: '',
    embeds: [{ title: t.links.title, description, color: LINK_COLORS.list, fields, footer: { text: footer } }],
    components: pager ? [pager] : [],
  };
}

/** The answer to "did the bot issue this URL?": who, for which nick and when, or a plain warning. */
export function verifyView(t: Messages, link: PaymentLink | undefined, lifetimeHours: number, now: number): View {
  if (!link) {
    return sentence(`⚠️ ${t.links.notIssued}\n\n${t.links.exactMatchNote}`, LINK_COLORS.warning, t.links.notIssuedTitle);
  }
  const state = linkState(link, lifetimeHours, now);
  const description = [
    `✅ ${t.links.verified(`<@${link.userId}>`, plain(link.nick), discordTime(link.createdAt, 'f'), discordTime(link.createdAt, 'R'))}`,
    '',
    `${STATE_ICONS[state]} **${t.links.state[state]}**: ${stateLine(t, link, state, lifetimeHours, 'moderator')}`,
    ...paymentLines(t, link, state, 'moderator'),
    clip(itemLines(t, link).join('\n'), 1500),
    '',
    `*${t.links.whatBotKnows}*`,
  ].join('\n');
  return {
    content: '',
    embeds: [{ title: t.links.verifiedTitle, description, color: LINK_COLORS.genuine, footer: { text: t.links.verifiedReference(link.id) } }],
    components: [],
  };
}

/** The moderator's confirmation, saying what happened to each copy of the link the member had. */
export function revokedView(t: Messages, link: PaymentLink, withdrawal: Withdrawal): View {
  const copies = [
    ...(withdrawal.dm === 'edited' ? [t.links.dmEdited] : withdrawal.dm === 'not-edited' ? [`⚠️ ${t.links.dmNotEdited}`] : []),
    ...(withdrawal.reply === 'edited'
      ? [t.links.replyEdited]
      : withdrawal.reply === 'gone'
        ? [`⚠️ ${withdrawal.dm === 'none' ? t.links.shownInReply : t.links.replyNotEdited}`]
        : []),
  ];
  const text = [t.links.revoked(link.id, `<@${link.userId}>`, plain(link.nick)), ...copies, `*${t.links.shopMayAccept}*`].join('\n\n');
  return sentence(text, LINK_COLORS.withdrawn);
}

/** A moderator-facing sentence in an embed: mentions in embeds never notify anyone. */
export function sentence(text: string, color: number = LINK_COLORS.list, title?: string): View {
  const embed: APIEmbed = { description: clip(text, LIMITS.embedDescription), color };
  if (title) embed.title = title;
  return { content: '', embeds: [embed], components: [] };
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

