import type { AutocompleteInteraction } from 'discord.js';
import type { AutocompleteContext } from '../../src/discord/context.js';
import { LIMITS } from '../../src/discord/text.js';
import { linksNames } from './names.js';
import { linkChoiceName } from './views.js';

/** Pending links for the revoke option: the chosen member's, else the guild's most recent, filtered by what was typed. */
export async function pendingChoices(interaction: AutocompleteInteraction, ctx: AutocompleteContext): Promise<{ name: string; value: string }[]> {
  const { services, guildId, settings } = ctx;
  const memberId = interaction.options.get(linksNames.subcommands.revoke.options.member)?.value;
  const now = services.clock.now();
  const pending = await services.links.revokeSuggestions(guildId, {
    memberId: typeof memberId === 'string' ? memberId : undefined,
    typed: String(interaction.options.getFocused()),
    lifetimeHours: settings.linkLifetimeHours,
    now,
  });
  return pending
    .slice(0, LIMITS.autocompleteChoices)
    .map((link) => ({ name: linkChoiceName(ctx.t, link, now), value: link.id }));
}
