import type { View } from '../../src/discord/respond.js';
import { LIMITS, clip, plain } from '../../src/discord/text.js';
import { pagerRow, type Page } from '../../src/discord/views/components.js';
import { container, displayView, screen, separator, small, text } from '../../src/discord/views/display.js';
import type { Withdrawal } from '../../src/discord/payment-links/delivery.js';
import {
  agoText,
  discordTime,
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
import type { PaymentUnderReview } from '../../src/services/payment-watch/review.js';
import { reviewListParts } from '../../src/discord/payment-links/review-view.js';
import type { HeldRole } from '../../src/storage/held-roles.js';
import { heldRoleParts } from '../admin/held-roles-view.js';

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
  /** Purchases waiting for staff with a candidate link of this member (the oldest is shown with its buttons). */
  waiting?: PaymentUnderReview[];
  /** This member's roles for buyers held back for staff, with their Give role buttons. */
  held?: HeldRole[];
}

const DEMO_ROOM = 100;
/** What a waiting purchase's text may use on the page. */
const REVIEW_ROOM = 900;

/** A member's links for a moderator: newest first, one page of ten, each with its state and its link. */
export function memberLinksView(t: Messages, input: MemberLinksInput): View {
  const member = `<@${input.memberId}>`;
  const [review] = input.waiting ?? [];
  // One waiting purchase with its buttons (the oldest; the next once it is settled), within the screen's 40 components.
  const held = heldRoleParts(t, input.held ?? []);
  const waiting = [...(review ? [separator(), ...reviewListParts(t, review, REVIEW_ROOM)] : []), ...(held.length > 0 ? [separator(), ...held] : [])];
  if (input.total === 0 && waiting.length === 0) return sentence(t.links.none(member, LINK_RETENTION_DAYS), LINK_COLORS.list, t.links.title);
  const intro = input.total === 0 ? t.links.none(member, LINK_RETENTION_DAYS) : t.links.intro(member, input.total);
  const subtitle = input.pages > 1 ? t.common.page(input.page + 1, input.pages) : undefined;
  const note = t.links.whatBotKnows;
  // Each link's part gets an equal share of Discord's 4000 characters, less the rest of the screen,
  // the heading markers, and room for a demo guild's DEMO line (and a waiting purchase).
  const fixed = [t.links.title, intro, note, subtitle ?? ''].reduce((sum, part) => sum + part.length + 8, 0) + DEMO_ROOM + (review ? REVIEW_ROOM : 0) + (held.length > 0 ? LIMITS.fieldValue : 0);
  const budget = Math.floor((LIMITS.displayText - fixed) / Math.max(1, input.links.length)) - 8;
  const parts = input.links.map((link) => linkText(linkField(t, link, { ...input, budget, audience: 'moderator' })));
  const page: Page<PaymentLink> = { items: input.links, page: input.page, pages: input.pages, offset: input.page * LINKS_PAGE_SIZE };
  return screen({
    accent: LINK_COLORS.list,
    title: t.links.title,
    subtitle,
    body: [text(intro), ...waiting, ...parts.flatMap((part) => [separator({ divider: false }), text(part)]), separator(), small(note)],
    controls: [pagerRow(t, page, (to) => linksRoutes.memberPage.build(input.owner, { member: input.memberId, page: to }))],
  });
}

/** One link as a part of its own: its reference and state as a heading, the details under it. */
function linkText(link: { name: string; value: string }): string {
  return `### ${link.name}\n${link.value}`;
}

/** The answer to "did the bot issue this URL?": who, for which nick and when, or a plain warning. */
export function verifyView(t: Messages, link: PaymentLink | undefined, lifetimeHours: number, now: number): View {
  if (!link) {
    return screen({ accent: LINK_COLORS.warning, title: t.links.notIssuedTitle, warning: t.links.notIssued, body: [text(t.links.exactMatchNote)] });
  }
  const state = linkState(link, lifetimeHours, now);
  return screen({
    accent: LINK_COLORS.genuine,
    title: t.links.verifiedTitle,
    subtitle: t.links.verifiedReference(link.id),
    body: [
      text(`✅ ${t.links.verified(`<@${link.userId}>`, plain(link.nick), discordTime(link.createdAt, 'f'), discordTime(link.createdAt, 'R'))}`),
      // The state line names the state itself („Oczekuje do …”): a label before it would say it twice.
      text([`${STATE_ICONS[state]} **${stateLine(t, link, state, lifetimeHours, 'moderator')}**`, ...paymentLines(t, link, state, 'moderator')].join('\n')),
      text(clip(itemLines(t, link).join('\n'), 1500)),
      separator(),
      small(t.links.whatBotKnows),
    ],
  });
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
  return screen({
    accent: LINK_COLORS.withdrawn,
    title: t.log.linkRevokedTitle,
    body: [text(t.links.revoked(link.id, `<@${link.userId}>`, plain(link.nick))), ...copies.map(text), small(t.links.shopMayAccept)],
  });
}

/** A moderator-facing sentence (a refusal, an empty list): a container in the answer's colour, under a heading when there is one. */
export function sentence(line: string, color: number = LINK_COLORS.list, title?: string): View {
  return title ? screen({ accent: color, title, body: [text(line)] }) : displayView([container([text(line)], color)]);
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

