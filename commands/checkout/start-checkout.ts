import { normalizeNick } from '../../src/cart/nick.js';
import type { CartLine } from '../../src/cart/rules.js';
import { linkInReplyView, sentToDmView } from '../../src/discord/payment-links/dm-views.js';
import type { ShopContext } from '../../src/discord/preconditions.js';
import { answerStoreFailure } from '../../src/discord/store-failure.js';
import { compareWithOffer, offerDigest } from '../../src/cart/price-changes.js';
import { currentPrices } from '../../src/services/cart-prices.js';
import { clip, plain } from '../../src/discord/text.js';
import { violationText } from '../../src/discord/views/problem-texts.js';
import { nickModal, pricesUpView } from './views.js';
import { textView } from '../../src/discord/views/display.js';

/**
 * Checks out with the given nick, the remembered one, or asks for one.
 * `askNick` forces the question (the cart's "Change nick" button).
 */
export async function startCheckout(ctx: ShopContext, options: { typedNick?: string; askNick?: boolean }): Promise<void> {
  const { t, userId, services } = ctx;
  const lines = await services.carts.lines(ctx);
  if (lines.length === 0) return ctx.respond.show(textView(t.checkout.emptyCart));

  // The cart just read is the one priced: read once, not again after the acknowledgement, since in a crowd every read counts.
  if (options.typedNick !== undefined) return checkoutWithNick(ctx, options.typedNick, lines);
  const remembered = await services.checkout.rememberedNick(ctx.shop.license, userId);
  if (options.askNick || !remembered) return ctx.respond.showModal(nickModal(t, userId, remembered));
  await checkoutAs(ctx, remembered, { cartLines: lines });
}

/** A nick the member typed (option or form): checked against the store's rule first. */
export async function checkoutWithNick(ctx: ShopContext, typed: string, cartLines?: CartLine[]): Promise<void> {
  const nick = normalizeNick(typed);
  if (!nick) return ctx.respond.show(textView(ctx.t.nick.invalid(clip(typed, 40))));
  await checkoutAs(ctx, nick, cartLines ? { cartLines } : {});
}

/**
 * Checks out as `nick`. The cart is first compared with the shop's prices of the last minute: a price
 * that went up is shown and asked about (`pricesAccepted`: the digest of the offer the member agreed
 * to; the question comes again when the offer differs from it); lines no longer on
 * offer are left out of the link and named. The shop unreachable: the link is asked for as before.
 */
export async function checkoutAs(
  ctx: ShopContext,
  nick: string,
  options: { pricesAccepted?: string; gift?: { recipientId?: string }; /** The cart as read just before (startCheckout). */ cartLines?: CartLine[] } = {},
): Promise<void> {
  const { t, services, guildId, userId, respond, shop } = ctx;
  // Acknowledge first: the nick is written to storage, and storage is busiest when checkouts crowd in.
  await respond.defer();
  // The link itself is made from the cart as it stands under its lock (CheckoutService.checkout).
  const lines = options.cartLines ?? (await services.carts.lines(ctx));
  const prices = lines.length > 0 ? await currentPrices(shop, lines, { lane: guildId, beforeStoreCall: async () => undefined, log: ctx.log }) : undefined;
  const changes = prices?.kind === 'read' ? compareWithOffer(lines, prices.variants) : undefined;
  const shown = prices?.kind === 'read' ? offerDigest(lines, prices.variants) : undefined;
  // Asked until the member agrees to exactly this offer: a further rise or a line added since the question asks again.
  if (changes?.priceUp && shown !== undefined && options.pricesAccepted !== shown) {
    return respond.show(pricesUpView(t, ctx.locale, userId, nick, lines, changes, shown, options.gift));
  }
  if (changes && lines.length > 0 && changes.leftOut.size >= lines.length) return respond.show(textView(t.checkout.nothingBuyable));
  const leftOut = lines.filter((line) => changes?.leftOut.has(line.variantId)).map((line) => t.cart.line(line.quantity, plain(line.variantName), plain(line.productName)));
  const outcome = await services.checkout.checkout(shop, {
    ...(changes && changes.leftOut.size > 0 ? { leaveOut: changes.leftOut } : {}),
    ...(options.gift ? { gift: options.gift } : {}),
    guildId,
    userId,
    nick,
    locale: ctx.locale,
    multiServer: ctx.settings.multiServerCart,
    cooldownSeconds: ctx.settings.checkoutCooldownSeconds,
  });

  if (outcome.kind === 'rule') return respond.show(textView(violationText(outcome.violation, t)));
  if (outcome.kind === 'too-soon') {
    const text = outcome.reason === 'cooldown' ? t.checkout.cooldown(outcome.retryAfterSeconds) : t.checkout.hourlyLimit(outcome.retryAfterSeconds);
    return respond.show(textView(text));
  }
  if (outcome.kind === 'store-error') return answerStoreFailure(ctx, outcome.error, 'checkout');
  if (outcome.kind === 'unshowable-link') return respond.show(textView(t.checkout.unshowableLink));

  const { link } = outcome;
  ctx.log.info({ link: link.id, lines: link.items.length }, 'payment link issued');
  services.metrics.linksIssued.inc();
  services.insights.counting.linkIssued(link);
  // Not awaited: the member's link must not wait on the log channel.
  void services.guildLog.post(guildId, { kind: 'link-issued', userId, nick, linkId: link.id, items: link.items });
  const { user, applicationId, token } = respond.interaction;
  const delivery = await services.delivery.deliver(user, t, link, ctx.guildName, { applicationId, token, receivedAt: respond.receivedAt }, ctx.log);
  const leftOutNotice = leftOut.length > 0 ? t.checkout.leftOut(leftOut.join(', ')) : undefined;
  if (delivery.kind === 'dm') return respond.show(sentToDmView(t, link, delivery.channelId, leftOutNotice));
  // Withdrawn by a moderator before it reached the DMs: it must not be shown here either.
  if (delivery.kind === 'withdrawn') return respond.show(textView(t.links.resendGone(link.id)));
  await respond.show(linkInReplyView(t, link, ctx.guildName, delivery.dmFollows));
  await services.delivery.shownInReply(link, { applicationId, token });
  if (leftOutNotice) await respond.aside(leftOutNotice);
}
