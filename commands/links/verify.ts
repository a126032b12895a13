import type { HandlerContext } from '../../src/discord/context.js';
import { verifyView } from './views.js';

/** Exact match on the whole URL through the URL index: "looks similar" is, deliberately, not a match. */
export async function verifyUrl(ctx: HandlerContext, url: string): Promise<void> {
  const { services, guildId, settings } = ctx;
  const link = await services.links.issuedWithUrl(guildId, url);
  // The URL itself stays out of the logs: it is a live payment link.
  ctx.log.info({ issued: link !== undefined, link: link?.id }, 'payment URL checked');
  await ctx.respond.show(verifyView(ctx.t, link, settings.linkLifetimeHours, services.clock.now()));
}
