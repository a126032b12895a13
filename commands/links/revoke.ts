import type { HandlerContext } from '../../src/discord/context.js';
import { discordTime } from '../../src/discord/payment-links/link-text.js';
import { clip } from '../../src/discord/text.js';
import { messages } from '../../src/i18n/index.js';
import { revokedView, sentence } from './views.js';

/**
 * Withdraws a link: its record says so from now on (verify and the buyer's list show it), and the
 * DM that carries it loses its Pay button (written in the guild's language: the buyer's is not known here).
 */
export async function revokeLink(ctx: HandlerContext, typed: string, memberId: string | undefined): Promise<void> {
  const { t, services, guildId, userId } = ctx;
  const outcome = await services.links.revoke(guildId, typed, { moderatorId: userId, memberId });
  if (outcome.kind === 'unknown') return ctx.respond.show(sentence(t.links.unknownLink(clip(outcome.reference, 40))));
  if (outcome.kind === 'not-members-link') return ctx.respond.show(sentence(t.links.notMembersLink(outcome.id, `<@${memberId}>`)));
  if (outcome.kind === 'already-revoked') {
    return ctx.respond.show(sentence(t.links.alreadyRevoked(outcome.id, `<@${outcome.by}>`, discordTime(outcome.at, 'R'))));
  }
  const { id, link } = outcome;

  // Editing the DM is a call to Discord: acknowledge first.
  await ctx.respond.defer();
  const guildT = messages(await services.guildLog.localeFor(guildId));
  const withdrawal = await services.delivery.withdraw(guildT, link, ctx.guildName, ctx.log);
  ctx.log.info({ link: id, member: link.userId, ...withdrawal }, 'payment link withdrawn');
  await services.guildLog.post(guildId, { kind: 'link-revoked', moderatorId: userId, userId: link.userId, linkId: id });
  await ctx.respond.show(revokedView(t, link, withdrawal));
}
