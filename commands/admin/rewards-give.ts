import type { ButtonInteraction } from 'discord.js';
import type { HandlerContext } from '../../src/discord/context.js';
import { cachedRoleFacts, personIssue } from '../../src/discord/role-check.js';
import { textView } from '../../src/discord/views/display.js';
import { issuesText, rewardIssues } from './rewards.js';

/**
 * "Give role" under a log post about a role for buyers held back because the link's nick was not
 * only the buyer's (src/services/rewards/granting.ts). Whoever presses it gives the role as if by
 * hand, so Discord's rule for people applies: Manage Roles of their own and the role below their
 * highest (the owner excepted); the role is checked again (no power over the server, the bot can
 * give it). The answer is the presser's own; the post stays as it is for the others.
 */
export async function giveHeldBackRole(interaction: ButtonInteraction, ctx: HandlerContext, linkId: string, roleId: string): Promise<void> {
  const { t } = ctx;
  const role = `<@&${roleId}>`;
  const guild = interaction.guild;
  if (!guild) return ctx.respond.show(textView(t.rewards.giveNotAllowed));
  const person = personIssue(guild, interaction.member, ctx.userId, roleId);
  if (person === 'no-manage-roles') return ctx.respond.show(textView(t.rewards.giveNotAllowed));
  if (person === 'role-above-you') return ctx.respond.show(textView(t.rewards.giveAboveYou(role)));
  const issues = rewardIssues(cachedRoleFacts(guild), roleId);
  if (issues.length > 0) return ctx.respond.show(textView(t.rewards.refused(role, issuesText(t, issues, roleId))));

  await ctx.respond.defer();
  const { outcome: result, userId } = await ctx.services.rewards.giveHeldBack(ctx.guildId, linkId, roleId, ctx.userId);
  ctx.log.info({ link: linkId, role: roleId, outcome: result.kind }, 'Give role pressed');
  const member = userId ? `<@${userId}>` : linkId;
  switch (result.kind) {
    case 'granted':
    case 'held':
      return ctx.respond.show(textView(t.rewards.given(member, role, linkId)));
    case 'already':
      return ctx.respond.show(textView(t.rewards.alreadyGiven(member, role, linkId)));
    case 'retry':
      return ctx.respond.show(textView(t.rewards.giveRetry));
    case 'failed':
      return ctx.respond.show(textView(t.rewards.giveFailed(member, role, t.rewards.problem[result.problem](role))));
    case 'powerful':
    case 'withheld':
    case 'not-withheld':
    case 'no-member':
    case 'no-link':
    case 'not-earned':
      return ctx.respond.show(textView(t.rewards.giveNothing));
  }
}
