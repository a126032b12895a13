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
  // References are shown upper-case; moderators type them however they like.
  const id = typed.trim().toUpperCase();
  const found = await services.paymentLinks.get(guildId, id);
  if (!found) return ctx.respond.show(sentence(t.links.unknownLink(clip(typed, 40))));
  if (memberId && found.userId !== memberId) return ctx.respond.show(sentence(t.links.notMembersLink(id, `<@${memberId}>`)));

  const result = await services.paymentLinks.revoke(guildId, id, userId, services.clock.now());
  if (!result) return ctx.respond.show(sentence(t.links.unknownLink(id)));
  const { link, already } = result;
  if (already && link.revoked) {
    return ctx.respond.show(sentence(t.links.alreadyRevoked(id, `<@${link.revoked.by}>`, discordTime(link.revoked.at, 'R'))));
  }

  // Editing the DM is a call to Discord: acknowledge first.
  await ctx.respond.defer();
  const guildT = messages(await services.guildLog.localeFor(guildId));
  const withdrawal = await services.delivery.withdraw(guildT, link, ctx.guildName, ctx.log);
  ctx.log.info({ link: id, member: link.userId, ...withdrawal }, 'payment link withdrawn');
  await services.guildLog.post(guildId, { kind: 'link-revoked', moderatorId: userId, userId: link.userId, linkId: id });
  await ctx.respond.show(revokedView(t, link, withdrawal));
}
