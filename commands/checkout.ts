import { ApplicationCommandOptionType, DiscordAPIError, InteractionContextType, RESTJSONErrorCodes, type ChatInputCommandInteraction } from 'discord.js';
import { normalizeNick } from '../src/cart/nick.js';
import type { CommandModule, ComponentInteraction, HandlerContext } from '../src/discord/context.js';
import type { ComponentRoute } from '../src/discord/custom-id.js';
import { localized } from '../src/discord/localize.js';
import { clip } from '../src/discord/text.js';
import { CHECKOUT_SCOPE, dmClosedView, nickModal, NICK_INPUT, paymentLinkDm, sentToDmView } from '../src/discord/views/checkout.js';
import { violationText } from '../src/discord/views/notices.js';
import { answerStoreFailure } from '../src/discord/store-failure.js';
import { issuePaymentLink } from '../src/services/checkout.js';

/**
 * /checkout and every other way to check out (the cart's `Checkout` button, the nick modal).
 * The nick comes from the option, else the one used last time, else a modal asks for it.
 */
export const checkoutCommand: CommandModule = {
  name: 'checkout',

  definition: () => ({
    ...localized('checkout'),
    contexts: [InteractionContextType.Guild],
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized('checkoutNick'),
        required: false,
        min_length: 1,
        max_length: 32,
      },
    ],
  }),

  async execute(interaction: ChatInputCommandInteraction, ctx: HandlerContext) {
    await startCheckout(ctx, { typedNick: interaction.options.getString('nick') ?? undefined });
  },

  components: {
    [CHECKOUT_SCOPE]: handleCheckoutComponent,
  },
};

/**
 * Checks out with the given nick, the remembered one, or asks for one.
 * `askNick` forces the question (the cart's "Change nick" button).
 */
export async function startCheckout(ctx: HandlerContext, options: { typedNick?: string; askNick?: boolean }): Promise<void> {
  const { t, userId, guildId, services } = ctx;
  if (!ctx.shop) return ctx.respond.show({ content: t.shop.notSetUp });

  const cart = await services.carts.get(guildId, userId);
  if (cart.lines.length === 0) return ctx.respond.show({ content: t.checkout.emptyCart, embeds: [], components: [] });

  let nick: string | undefined;
  if (options.typedNick !== undefined) {
    nick = normalizeNick(options.typedNick);
    if (!nick) return ctx.respond.show({ content: t.nick.invalid(clip(options.typedNick, 40)) });
  } else {
    const remembered = await services.nicks.get(userId);
    if (options.askNick || !remembered) return ctx.respond.showModal(nickModal(t, userId, remembered));
    nick = remembered;
  }
  await checkoutAs(ctx, nick);
}

async function handleCheckoutComponent(interaction: ComponentInteraction, route: ComponentRoute, ctx: HandlerContext): Promise<void> {
  if (route.action !== 'nick' || !interaction.isModalSubmit()) return ctx.respond.notice(ctx.t.common.expired);
  const typed = interaction.fields.getTextInputValue(NICK_INPUT);
  const nick = normalizeNick(typed);
  if (!nick) return ctx.respond.show({ content: ctx.t.nick.invalid(clip(typed, 40)) });
  await checkoutAs(ctx, nick);
}

async function checkoutAs(ctx: HandlerContext, nick: string): Promise<void> {
  const { t, services, guildId, userId, respond } = ctx;
  const shop = ctx.shop;
  if (!shop) return respond.show({ content: t.shop.notSetUp });
  // Acknowledge first: the nick is written to storage, and storage is busiest when checkouts crowd in.
  await respond.defer();
  await services.nicks.set(userId, nick);

  const outcome = await issuePaymentLink(services, shop, {
    guildId,
    userId,
    nick,
    multiServer: ctx.settings.multiServerCart,
    cooldownSeconds: ctx.settings.checkoutCooldownSeconds,
  });

  if (outcome.kind === 'rule') return respond.show({ content: violationText(outcome.violation, t) });
  if (outcome.kind === 'too-soon') {
    const text = outcome.reason === 'cooldown' ? t.checkout.cooldown(outcome.retryAfterSeconds) : t.checkout.hourlyLimit(outcome.retryAfterSeconds);
    return respond.show({ content: text });
  }
  if (outcome.kind === 'store-error') {
    return answerStoreFailure(ctx, outcome.error, 'checkout');
  }

  const { link } = outcome;
  ctx.log.info({ link: link.id, lines: link.items.length }, 'payment link issued');
  // Not awaited: the member's link must not wait on the log channel.
  void services.guildLog.post(guildId, { kind: 'link-issued', userId, nick, linkId: link.id, items: link.items });
  const user = respond.interaction.user;
  try {
    const dm = await user.send(paymentLinkDm(t, link, ctx.guildName));
    await services.paymentLinks.update(guildId, link.id, (record) => ({
      ...record,
      delivery: { kind: 'dm', channelId: dm.channelId, messageId: dm.id },
    }));
    await respond.show(sentToDmView(t, link, dm.channelId));
  } catch (error) {
    // DMs closed (50007) or any other failure to deliver: the buyer still gets the link, here.
    const closed = error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.CannotSendMessagesToThisUser;
    ctx.log.info({ link: link.id, dmsClosed: closed, err: closed ? undefined : error }, 'payment link not delivered by DM; shown in the reply');
    await services.paymentLinks.update(guildId, link.id, (record) => ({ ...record, delivery: { kind: 'reply' } }));
    await respond.show(dmClosedView(t, link, ctx.guildName));
  }
}
