import { ApplicationCommandOptionType, PermissionFlagsBits } from 'discord.js';
import { on, slashCommand, subcommand, type Feature } from '../../src/discord/feature.js';
import { guildCommand, localized, localizedOption, subcommandTexts } from '../../src/discord/localize.js';
import { commandTexts } from '../command-texts.js';
import { moderator, staffReviewer } from '../../src/discord/preconditions.js';
import { reviewRoutes } from '../../src/discord/payment-links/review-route.js';
import { confirmPayment } from './confirm-payment.js';
import { showMemberLinks } from './member-links.js';
import { linksNames } from './names.js';
import { pendingChoices } from './revoke-choices.js';
import { revokeLink } from './revoke.js';
import { linksRoutes } from './routes.js';
import { verifyUrl } from './verify.js';

/**
 * /links: moderators look up what the bot issued to a member, check whether a URL is genuine and
 * withdraw a link. Discord hides the command from members without Manage Messages, but admins can
 * change that per guild, so every entry point (command, autocomplete, page buttons) checks again.
 */

const { user, verify, revoke } = linksNames.subcommands;
const texts = commandTexts('links');
const userTexts = subcommandTexts(texts, 'user');
const verifyTexts = subcommandTexts(texts, 'verify');
const revokeTexts = subcommandTexts(texts, 'revoke');

const linksCommand = slashCommand({
  name: linksNames.name,
  preconditions: [moderator],
  definition: () =>
    guildCommand(texts, {
      default_member_permissions: PermissionFlagsBits.ManageMessages.toString(),
      options: [
        {
          type: ApplicationCommandOptionType.Subcommand,
          ...localized(userTexts),
          options: [{ type: ApplicationCommandOptionType.User, ...localizedOption(userTexts, 'member'), required: true }],
        },
        {
          type: ApplicationCommandOptionType.Subcommand,
          ...localized(verifyTexts),
          // 6000 is Discord's ceiling for a string option: longer URLs cannot be pasted at all.
          options: [{ type: ApplicationCommandOptionType.String, ...localizedOption(verifyTexts, 'url'), required: true, max_length: 6000 }],
        },
        {
          type: ApplicationCommandOptionType.Subcommand,
          ...localized(revokeTexts),
          options: [
            { type: ApplicationCommandOptionType.String, ...localizedOption(revokeTexts, 'link'), required: true, autocomplete: true, max_length: 32 },
            { type: ApplicationCommandOptionType.User, ...localizedOption(revokeTexts, 'member'), required: false },
          ],
        },
      ],
    }),
  run: {
    [user.name]: subcommand([], (interaction, ctx) => showMemberLinks(ctx, interaction.options.getUser(user.options.member, true).id, 0)),
    [verify.name]: subcommand([], (interaction, ctx) => verifyUrl(ctx, interaction.options.getString(verify.options.url, true))),
    [revoke.name]: subcommand([], (interaction, ctx) =>
      revokeLink(ctx, interaction.options.getString(revoke.options.link, true), interaction.options.getUser(revoke.options.member)?.id),
    ),
  },
  autocomplete: (interaction, ctx) => pendingChoices(interaction, ctx),
});

export const linksFeature: Feature = {
  name: 'links',
  command: linksCommand,
  components: [
    on(linksRoutes.memberPage, [moderator], (_interaction, { member, page }, ctx) => showMemberLinks(ctx, member, page)),
    // A purchase several members' links could have paid: a moderator chooses (the log post, /links user).
    on(reviewRoutes.confirm, [staffReviewer], (_interaction, { ref, link }, ctx) => confirmPayment(ctx, ref, link)),
  ],
};
