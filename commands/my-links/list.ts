import type { HandlerContext } from '../../src/discord/context.js';
import { BUYER_LINK_DAYS, buyerLinksView } from './views.js';

const DAY_MS = 86_400_000;
/** The most links the screen lists (5 pages); a buyer with more in a week sees the newest. */
const BUYER_LIST_MAX = 50;

/** The member's links of the last week, with a notice above them when something just happened. */
export async function showMyLinks(ctx: HandlerContext, page: number, message?: string): Promise<void> {
  const { services, guildId, userId, settings } = ctx;
  const now = services.clock.now();
  const links = await services.paymentLinks.listForMemberSince(guildId, userId, now - BUYER_LINK_DAYS * DAY_MS, BUYER_LIST_MAX);
  await ctx.respond.show(
    buyerLinksView(ctx.t, { owner: userId, links, page, lifetimeHours: settings.linkLifetimeHours, now, ...(message ? { notice: message } : {}) }),
  );
}
