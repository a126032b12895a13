import type { View } from '../../src/discord/respond.js';
import { discordTime } from '../../src/discord/payment-links/link-text.js';
import { clip, plain } from '../../src/discord/text.js';
import { heading, screen, separator, small, text } from '../../src/discord/views/display.js';
import type { Messages } from '../../src/i18n/index.js';
import type { BoardList, Purchase, Supporter, TopBoard } from '../../src/services/community.js';

const TOP_COLOR = 0xf59f00;
/** Each list's share of Discord's 4000 characters, leaving room for the headings and a demo guild's DEMO line. */
const LIST_CHARS = 1_700;

/** /shop-top: the server's top supporters (purchase counts only, never amounts) and its latest purchases (never method or amount). */
export function topView(t: Messages, board: TopBoard): View {
  const c = t.community;
  return screen({
    accent: TOP_COLOR,
    title: c.topTitle(plain(clip(board.server.name, 100))),
    body: [
      heading(c.supportersTitle, 3),
      text(clip(listText(t, board.supporters, (row, index) => supporterLine(t, row, index)), LIST_CHARS)),
      separator(),
      heading(c.latestTitle, 3),
      text(clip(listText(t, board.purchases, (row) => purchaseLine(t, row)), LIST_CHARS)),
      small(c.topFooter),
    ],
  });
}

function listText<T>(t: Messages, list: BoardList<T>, line: (row: T, index: number) => string): string {
  if (list.kind === 'not-published') return t.community.notPublished;
  if (list.kind === 'failed') return t.community.notNow;
  return list.rows.length > 0 ? list.rows.map(line).join('\n') : t.community.none;
}

function who(t: Messages, nick: string | undefined): string {
  return nick ? plain(clip(nick, 32)) : t.community.aPlayer;
}

function supporterLine(t: Messages, row: Supporter, index: number): string {
  const medal = ['🥇', '🥈', '🥉'][index] ?? `${index + 1}.`;
  return `${medal} **${who(t, row.nick)}**${row.purchases === undefined ? '' : ` · ${t.community.purchases(row.purchases)}`}`;
}

function purchaseLine(t: Messages, row: Purchase): string {
  const item = [row.product, row.variant].filter((part): part is string => Boolean(part)).map((part) => plain(clip(part, 80))).join(' — ') || t.community.anItem;
  return `• ${item} · ${who(t, row.nick)}${row.at === undefined ? '' : ` · ${discordTime(row.at, 'R')}`}`;
}
