import type { AutocompleteInteraction } from 'discord.js';
import type { AutocompleteContext } from '../../src/discord/context.js';
import { LIMITS } from '../../src/discord/text.js';
import { linkState } from '../../src/services/link-state.js';
import type { PaymentLink } from '../../src/storage/payment-links.js';
import { linksNames } from './names.js';
import { linkChoiceName } from './views.js';

/** Links read to suggest pending ones in autocomplete; pending links are the newest, so a short prefix suffices. */
const AUTOCOMPLETE_READ = 50;

/** Pending links for the revoke option: the chosen member's, else the guild's most recent, filtered by what was typed. */
export async function pendingChoices(interaction: AutocompleteInteraction, ctx: AutocompleteContext): Promise<{ name: string; value: string }[]> {
  const { services, guildId, settings } = ctx;
  const memberId = interaction.options.get(linksNames.subcommands.revoke.options.member)?.value;
  const candidates =
    typeof memberId === 'string' && memberId
      ? (await services.paymentLinks.listForMember(guildId, memberId, 0, AUTOCOMPLETE_READ)).links
      : await services.paymentLinks.listRecent(guildId);
  const typed = String(interaction.options.getFocused()).trim().toLowerCase();
  const now = services.clock.now();
  return candidates
    .filter((link) => linkState(link, settings.linkLifetimeHours, now) === 'pending' && matches(link, typed))
    .slice(0, LIMITS.autocompleteChoices)
    .map((link) => ({ name: linkChoiceName(ctx.t, link, now), value: link.id }));
}

function matches(link: PaymentLink, typed: string): boolean {
  if (!typed) return true;
  const haystack = [link.id, link.nick, ...link.items.flatMap((item) => [item.productName, item.variantName])];
  return haystack.some((text) => text.toLowerCase().includes(typed));
}
