import type { HandlerContext } from '../../src/discord/context.js';
import { buyerLinksView } from './views.js';

/** The member's links of the last week, with a notice above them when something just happened. */
export async function showMyLinks(ctx: HandlerContext, page: number, message?: string): Promise<void> {
  const { services, guildId, userId, settings } = ctx;
  const now = services.clock.now();
  const links = await services.links.recentForMember(guildId, userId, now);
  await ctx.respond.show(
    buyerLinksView(ctx.t, { owner: userId, links, page, lifetimeHours: settings.linkLifetimeHours, now, ...(message ? { notice: message } : {}) }),
  );
}
