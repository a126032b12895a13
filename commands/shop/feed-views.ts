import { ButtonStyle, type APIButtonComponent, type APIEmbed } from 'discord.js';
import { discordTime } from '../../src/discord/payment-links/link-text.js';
import type { View } from '../../src/discord/respond.js';
import { clip, LIMITS, plain } from '../../src/discord/text.js';
import { button, row } from '../../src/discord/views/components.js';
import type { Messages } from '../../src/i18n/index.js';
import type { FeedPurchase } from '../../src/services/purchase-feed.js';
import { shopRoutes } from './routes.js';

/**
 * A post of the purchase feed: one purchase (its product's image as a thumbnail), or a burst listed
 * in one message. Names as text (plain), the time as a Discord timestamp, a Buy button per variant
 * found in the offer; never a payment URL, an amount or a payment method.
 */

const FEED_COLOR = 0x12b886;
const BUTTONS_PER_ROW = 5;
const ROWS = 5;

function line(t: Messages, purchase: FeedPurchase): string {
  const nick = purchase.nick ? plain(clip(purchase.nick, 32)) : t.feed.aPlayer;
  return `${t.feed.bought(nick, plain(clip(purchase.variantName || '?', 100)), plain(clip(purchase.productName || '?', 100)))} · ${discordTime(purchase.madeAt, 'R')}`;
}

export function feedPostView(t: Messages, purchases: readonly FeedPurchase[]): View {
  const single = purchases.length === 1 ? purchases[0] : undefined;
  const embed: APIEmbed = single
    ? {
        title: t.feed.title,
        color: FEED_COLOR,
        description: line(t, single),
        timestamp: new Date(single.madeAt).toISOString(),
        ...(single.imageUrl ? { thumbnail: { url: single.imageUrl } } : {}),
      }
    : {
        title: t.feed.burstTitle(purchases.length),
        color: FEED_COLOR,
        description: clip(purchases.map((purchase) => `• ${line(t, purchase)}`).join('\n'), LIMITS.embedDescription),
      };
  // One button per variant (two purchases of one variant share it: ids in a message must differ).
  const buttons: APIButtonComponent[] = [];
  const seen = new Set<string>();
  for (const purchase of purchases) {
    if (!purchase.item) continue;
    const id = shopRoutes.buyFromFeed.build(undefined, purchase.item);
    if (seen.has(id) || buttons.length >= BUTTONS_PER_ROW * ROWS) continue;
    seen.add(id);
    const label = single ? t.feed.buy : clip(t.feed.buyItem(purchase.variantName || purchase.productName), LIMITS.buttonLabel);
    buttons.push(button(id, label, ButtonStyle.Success));
  }
  const rows = [];
  for (let index = 0; index < buttons.length; index += BUTTONS_PER_ROW) rows.push(row(...buttons.slice(index, index + BUTTONS_PER_ROW)));
  return { content: '', embeds: [embed], components: rows };
}
