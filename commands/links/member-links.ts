import type { HandlerContext } from '../../src/discord/context.js';
import { LINKS_PAGE_SIZE } from '../../src/discord/payment-links/link-text.js';
import { memberLinksView } from './views.js';

/** One page of a member's links; a page past the end (links pruned meanwhile) shows the last one. */
export async function showMemberLinks(ctx: HandlerContext, memberId: string, requestedPage: number): Promise<void> {
  const { services, guildId, settings } = ctx;
  const { links, page, pages, total } = await services.links.memberPage(guildId, memberId, requestedPage, LINKS_PAGE_SIZE);
  const now = services.clock.now();
  await ctx.respond.show(
    memberLinksView(ctx.t, { owner: ctx.userId, memberId, links, page, pages, total, lifetimeHours: settings.linkLifetimeHours, now }),
  );
}
