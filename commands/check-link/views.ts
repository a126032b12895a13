import type { View } from '../../src/discord/respond.js';
import { LINK_COLORS, STATE_ICONS, discordTime, stateName } from '../../src/discord/payment-links/link-text.js';
import { clip, plain } from '../../src/discord/text.js';
import { screen, separator, small, text, TEXT_BUDGET, type Part } from '../../src/discord/views/display.js';
import type { Messages } from '../../src/i18n/index.js';
import { linkState } from '../../src/services/link-state.js';
import { hostOf, type LinkCheckResult, type UrlCheck } from '../../src/services/link-check.js';

/** The private answer to "Check payment link": one part per address, genuine ones in green, the rest as warnings. */

export interface CheckInput {
  result: LinkCheckResult;
  /** How many addresses the message had (more than were checked when over the limit). */
  total: number;
  /** Who asked: "for you" or "for another member". */
  userId: string;
  /** Moderators also read whom each link was issued to. */
  moderator: boolean;
  lifetimeHours: number;
  now: number;
}

/** How much of an address is shown: enough to compare its start, never a clickable link. */
const SHOWN_URL = 90;

export function checkView(t: Messages, input: CheckInput): View {
  const { checks } = input.result;
  const fixed = [t.linkCheck.title, t.linkCheck.note, t.linkCheck.onlyFirst(checks.length, input.total)].join('').length + 40;
  const budget = Math.floor((TEXT_BUDGET - fixed) / Math.max(1, checks.length)) - 10;
  const parts: Part[] = checks.flatMap((check, index) => [
    ...(index > 0 ? [separator({ divider: false })] : []),
    text(clip(checkText(t, check, input), budget)),
  ]);
  return screen({
    accent: accentOf(checks, input.userId),
    title: t.linkCheck.title,
    subtitle: input.total > checks.length ? t.linkCheck.onlyFirst(checks.length, input.total) : undefined,
    body: [...parts, separator(), small(t.linkCheck.note)],
  });
}

/** Green only when every address is a link the bot issued to the asker; a link for someone else is a warning; one not issued, a danger. */
function accentOf(checks: readonly UrlCheck[], asker: string): number {
  if (checks.some((check) => !check.link)) return LINK_COLORS.warning;
  return checks.every((check) => check.link?.userId === asker) ? LINK_COLORS.genuine : LINK_COLORS.withdrawn;
}

function checkText(t: Messages, check: UrlCheck, input: CheckInput): string {
  // In code so the address shows as typed and cannot be clicked from the answer.
  const heading = `### \`${clip(check.url.replaceAll('`', ''), SHOWN_URL)}\``;
  const link = check.link;
  if (!link) {
    const host = hostOf(check.url);
    const hosts = input.result.shopHosts;
    return [
      heading,
      t.linkCheck.notIssued,
      ...(host ? [t.linkCheck.goesTo(plain(host))] : []),
      ...(hosts.length > 0 ? [t.linkCheck.shopHosts(hosts.map(plain).join(', '))] : []),
    ].join('\n');
  }
  const state = linkState(link, input.lifetimeHours, input.now);
  const [absolute, relative] = [discordTime(link.createdAt, 'f'), discordTime(link.createdAt, 'R')];
  const own = link.userId === input.userId;
  return [
    heading,
    // Only the asker's own link gets the ✅: another member's is the bot's, but not for the asker to pay.
    ...(own ? [t.linkCheck.issued(absolute, relative)] : [t.linkCheckForOther.heading, t.linkCheckForOther.issuedAt(absolute, relative)]),
    `${STATE_ICONS[state]} ${t.linkCheck.state(stateName(t, state, 'buyer'))} · ${t.linkCheck.reference(link.id)}`,
    ...(own ? [t.linkCheck.forYou] : []),
    ...(input.moderator ? [t.linkCheck.forMember(`<@${link.userId}>`, plain(link.nick))] : []),
  ].join('\n');
}
