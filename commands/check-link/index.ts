import { ApplicationCommandType, InteractionContextType, type MessageContextMenuCommandInteraction } from 'discord.js';
import type { HandlerContext } from '../../src/discord/context.js';
import { messageCommand, type Feature } from '../../src/discord/feature.js';
import { isModerator } from '../../src/discord/preconditions.js';
import { textView } from '../../src/discord/views/display.js';
import { pl } from '../../src/i18n/pl.js';
import { CHECKS_PER_MINUTE } from '../../src/services/link-check.js';
import { messageUrls } from './message-urls.js';
import { checkLinkNames } from './names.js';
import { checkView } from './views.js';

/**
 * "Check payment link" (right click on a message → Apps): any member asks whether the addresses in a
 * message are payment links this bot issued in this server, before paying through one. Answered
 * privately; the log gets counts only (never an address or a member: the answer is the member's business).
 */

const checkLinkCommand = messageCommand({
  name: checkLinkNames.name,
  preconditions: [],
  definition: () => ({
    type: ApplicationCommandType.Message,
    name: checkLinkNames.name,
    name_localizations: { pl: pl.linkCheck.command },
    contexts: [InteractionContextType.Guild],
  }),
  run: checkLink,
});

async function checkLink(interaction: MessageContextMenuCommandInteraction, ctx: HandlerContext): Promise<void> {
  const { t, services, guildId, userId, settings } = ctx;
  const admission = await services.linkCheck.admit(guildId, userId);
  if (admission.kind === 'full') {
    // The bot's own logger, not the interaction's: its lines would name the member.
    services.logger.info('payment link check refused: limit reached');
    return ctx.respond.show(textView(t.linkCheck.rateLimited(CHECKS_PER_MINUTE, admission.retryAfterSeconds)));
  }
  const message = interaction.targetMessage;
  const addresses = messageUrls({
    content: message.content,
    embeds: message.embeds.map((embed) => embed.toJSON()),
    components: message.components.map((component) => component.toJSON()),
  });
  if (addresses.length === 0) return ctx.respond.show(textView(t.linkCheck.none));
  const result = await services.linkCheck.check(guildId, addresses);
  services.logger.info({ urls: result.checks.length, issued: result.checks.filter((check) => check.link).length }, 'payment links checked');
  await ctx.respond.show(
    checkView(t, {
      result,
      total: addresses.length,
      userId,
      moderator: isModerator(interaction, guildId, settings.moderatorRoleId),
      lifetimeHours: settings.linkLifetimeHours,
      now: services.clock.now(),
    }),
  );
}

export const checkLinkFeature: Feature = { name: 'check-link', messageCommand: checkLinkCommand };
