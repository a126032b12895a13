import { ButtonStyle, type APIButtonComponent } from 'discord.js';
import { discordTime } from '../../src/discord/payment-links/link-text.js';
import type { View } from '../../src/discord/respond.js';
import { clip, plain } from '../../src/discord/text.js';
import { button, row } from '../../src/discord/views/components.js';
import { picture, screen, section, text } from '../../src/discord/views/display.js';
import type { Messages } from '../../src/i18n/index.js';
import type { FeedPurchase } from '../../src/services/purchase-feed.js';
import { shopRoutes } from './routes.js';

/**
 * A post of the purchase feed: one purchase (its product's picture beside it), or a burst listed in
 * one message. Names as text (plain), the time as a Discord timestamp, a Buy button per variant
 * found in the offer; never a payment URL, an amount or a payment method.
 */

const FEED_COLOR = 0x12b886;
const BUTTONS_PER_ROW = 5;
/**
 * Buy buttons' rows under a burst (FEED_LINES_PER_POST purchases, so 10 buttons at most today):
 * 3 rows of 5 cost 18 components, and the rest of the post (DEMO line, container, heading,
 * separators, the list) 6: well within Discord's 40.
 */
const ROWS = 3;

function line(t: Messages, purchase: FeedPurchase): string {
  // A hidden nick is left out, not replaced: Polish says „Gracz kupił”, never „Gracz Gracz kupił”.
  const nick = purchase.nick ? plain(clip(purchase.nick, 32)) : undefined;
  const gift = purchase.gift ? ` · ${t.feed.gift}` : '';
  return `${t.feed.bought(nick, plain(clip(purchase.variantName || '?', 100)), plain(clip(purchase.productName || '?', 100)))}${gift} · ${discordTime(purchase.madeAt, 'R')}`;
}

export function feedPostView(t: Messages, purchases: readonly FeedPurchase[]): View {
  const single = purchases.length === 1 ? purchases[0] : undefined;
  // One button per variant (two purchases of one variant share it: ids in a message must differ).
  const buttons: APIButtonComponent[] = [];
  const seen = new Set<string>();
  for (const purchase of purchases) {
    if (!purchase.item) continue;
    const id = shopRoutes.buyFromFeed.build(undefined, purchase.item);
    if (seen.has(id) || buttons.length >= BUTTONS_PER_ROW * ROWS) continue;
    seen.add(id);
    // Product and variant: "Buy 30 days" alone repeats across products.
    const name = purchase.productName && purchase.variantName ? `${purchase.productName} — ${purchase.variantName}` : purchase.variantName || purchase.productName;
    const label = single ? t.feed.buy : t.feed.buyItem(name);
    buttons.push(button(id, label, ButtonStyle.Success));
  }
  const rows = [];
  for (let index = 0; index < buttons.length; index += BUTTONS_PER_ROW) rows.push(row(...buttons.slice(index, index + BUTTONS_PER_ROW)));
  const body = single
    ? [section([line(t, single)], picture(single.imageUrl, single.productName))]
    : [text(purchases.map((purchase) => `• ${line(t, purchase)}`).join('\n'))];
  return screen({ accent: FEED_COLOR, title: single ? t.feed.title : t.feed.burstTitle(purchases.length), body, controls: rows });
}
