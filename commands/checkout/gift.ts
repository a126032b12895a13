import type { UserSelectMenuInteraction } from 'discord.js';
import { normalizeNick } from '../../src/cart/nick.js';
import type { ShopContext } from '../../src/discord/preconditions.js';
import { clip } from '../../src/discord/text.js';
import { textView } from '../../src/discord/views/display.js';
import { checkoutAs, startCheckout } from './start-checkout.js';
import { giftChoiceView, giftNickModal } from './views.js';

/**
 * A gift for a friend: the cart bought for another member of this server or for any player by nick;
 * either way the buyer types the nick (a member's remembered nick is never shown to anyone else). A gift to oneself is just a
 * purchase. The link comes to the buyer, marked "Gift for Nick (@member)"; the record keeps the member.
 */

/** "No player chosen by member": the form's `member` for a player named by nick alone. */
const NO_MEMBER = '0';

export async function showGiftChoice(ctx: ShopContext): Promise<void> {
  const { t, services, userId } = ctx;
  if ((await services.carts.lines(ctx)).length === 0) return ctx.respond.show(textView(t.checkout.emptyCart));
  await ctx.respond.show(giftChoiceView(t, userId));
}

export async function giftToMember(ctx: ShopContext, interaction: UserSelectMenuInteraction, memberId: string): Promise<void> {
  const { t, userId } = ctx;
  if (memberId === userId) return startCheckout(ctx, {});
  if (interaction.users.get(memberId)?.bot) return ctx.respond.show(textView(t.gift.noBots));
  // The buyer types the friend's nick: the nick the bot remembers for a member is theirs alone, never shown to another.
  await ctx.respond.showModal(giftNickModal(t, userId, memberId));
}

export function askGiftNick(ctx: ShopContext): Promise<void> {
  return ctx.respond.showModal(giftNickModal(ctx.t, ctx.userId, NO_MEMBER));
}

/** The gift's nick, typed: checked against the store's rule first. */
export async function giftWithNick(ctx: ShopContext, member: string, typed: string): Promise<void> {
  const nick = normalizeNick(typed);
  if (!nick) return ctx.respond.show(textView(ctx.t.nick.invalid(clip(typed, 40))));
  if (member === ctx.userId) return checkoutAs(ctx, nick);
  await checkoutAs(ctx, nick, { gift: member === NO_MEMBER ? {} : { recipientId: member } });
}

/** "Continue with the new prices" on a gift. */
export function giftAfterPrices(ctx: ShopContext, nick: string, member: string, shown: string): Promise<void> {
  return checkoutAs(ctx, nick, { pricesAccepted: shown, gift: member === NO_MEMBER ? {} : { recipientId: member } });
}
