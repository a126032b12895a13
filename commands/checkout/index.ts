import { on, slashCommand, type Feature } from '../../src/discord/feature.js';
import { guildCommand, optionalText } from '../../src/discord/localize.js';
import { commandTexts } from '../command-texts.js';
import { shopConfigured } from '../../src/discord/preconditions.js';
import { giftRoutes } from '../../src/discord/payment-links/gift-routes.js';
import { askGiftNick, giftAfterPrices, giftToMember, giftWithNick, showGiftChoice } from './gift.js';
import { checkoutAs, checkoutWithNick, startCheckout } from './start-checkout.js';
import { checkoutNames } from './names.js';
import { checkoutRoutes } from './routes.js';

/**
 * /checkout and every other way to check out (the cart's Checkout and Change nick buttons, the
 * nick form). The nick comes from the option, else the one used last time, else a form asks for it.
 */

const texts = commandTexts('checkout');

const checkoutCommand = slashCommand({
  name: checkoutNames.name,
  preconditions: [shopConfigured],
  definition: () => guildCommand(texts, { options: [optionalText(texts, 'nick', { min_length: 1, max_length: 32 })] }),
  run: (interaction, ctx) => startCheckout(ctx, { typedNick: interaction.options.getString(checkoutNames.options.nick) ?? undefined }),
});

export const checkoutFeature: Feature = {
  name: 'checkout',
  command: checkoutCommand,
  components: [
    on(checkoutRoutes.fromCart, [shopConfigured], (_interaction, _values, ctx) => startCheckout(ctx, {})),
    on(checkoutRoutes.changeNick, [shopConfigured], (_interaction, _values, ctx) => startCheckout(ctx, { askNick: true })),
    on(checkoutRoutes.acceptPrices, [shopConfigured], (_interaction, { nick, shown }, ctx) => checkoutAs(ctx, nick, { pricesAccepted: shown })),
    on(checkoutRoutes.acceptGiftPrices, [shopConfigured], (_interaction, { nick, member, shown }, ctx) => giftAfterPrices(ctx, nick, member, shown)),
    on(checkoutRoutes.giftChoice, [shopConfigured], (_interaction, _values, ctx) => showGiftChoice(ctx)),
    on(checkoutRoutes.giftMember, [shopConfigured], (interaction, { selected }, ctx) => giftToMember(ctx, interaction, selected)),
    on(checkoutRoutes.giftByNick, [shopConfigured], (_interaction, _values, ctx) => askGiftNick(ctx)),
    on(checkoutRoutes.giftNickForm, [shopConfigured], (_interaction, { member, nick }, ctx) => giftWithNick(ctx, member, nick)),
    // In the recipient's DM: no server, no shop needed.
    on(giftRoutes.optOut, [], async (_interaction, _values, ctx) => {
      await ctx.services.gifts.optOut(ctx.userId);
      ctx.log.info('gift messages turned off by the member');
      await ctx.respond.aside(ctx.t.gift.stopped);
    }),
    on(checkoutRoutes.nickForm, [shopConfigured], (_interaction, { nick }, ctx) => checkoutWithNick(ctx, nick)),
  ],
};
