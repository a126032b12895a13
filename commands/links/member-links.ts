import type { HandlerContext } from '../../src/discord/context.js';
import { LINKS_PAGE_SIZE } from '../../src/discord/payment-links/link-text.js';
import { memberLinksView } from './views.js';

/** One page of a member's links; a page past the end (links pruned meanwhile) shows the last one. */
export async function showMemberLinks(ctx: HandlerContext, memberId: string, requestedPage: number): Promise<void> {
  const { services, guildId, settings } = ctx;
  const { links, page, pages, total } = await services.links.memberPage(guildId, memberId, requestedPage, LINKS_PAGE_SIZE);
  // Purchases waiting for staff with a link of this member: shown with their buttons, so a guild without a log channel is not stuck.
  const waiting = await services.reviews.waitingFor(guildId, memberId);
  // Roles held back for staff for this member, with their Give role buttons (the same reason).
  const held = (await services.rewards.heldBack(guildId)).filter((entry) => entry.userId === memberId);
  const now = services.clock.now();
  await ctx.respond.show(
    memberLinksView(ctx.t, { owner: ctx.userId, memberId, links, page, pages, total, lifetimeHours: settings.linkLifetimeHours, now, waiting, held }),
  );
}
