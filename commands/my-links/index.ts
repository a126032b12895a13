import type { HandlerContext } from '../../src/discord/context.js';
import { on, type Feature } from '../../src/discord/feature.js';
import { shopConfigured } from '../../src/discord/preconditions.js';
import { linkInReplyView } from '../../src/discord/payment-links/dm-views.js';
import { clip } from '../../src/discord/text.js';
import { myLinksRoutes } from './routes.js';
import { buyAgain } from './buy-again.js';
import { showMyLinks } from './list.js';

/**
 * "My payment links" (from /cart): the member's links of the last week with their states, and a
 * way to have a pending one sent to the DMs again, and Buy again under each. No slash command of its own.
 */

export const myLinksFeature: Feature = {
  name: 'my-links',
  components: [
    on(myLinksRoutes.list, [], (_interaction, { page }, ctx) => showMyLinks(ctx, page)),
    on(myLinksRoutes.resend, [], (_interaction, { page, selected }, ctx) => resendMyLink(ctx, selected, page)),
    on(myLinksRoutes.buyAgain, [shopConfigured], (_interaction, { page, link }, ctx) => buyAgain(ctx, link, page)),
  ],
};

/**
 * Sends a pending link to the member's DMs again: the stored URL, unchanged, with no call to the
 * store. The new DM replaces the earlier one (see the delivery step). DMs closed: shown here, as at checkout.
 */
async function resendMyLink(ctx: HandlerContext, id: string, page: number): Promise<void> {
  const { t, services, guildId, userId, settings } = ctx;
  const pending = await services.links.pendingMemberLink(guildId, userId, id, settings.linkLifetimeHours);
  if (!pending) return showMyLinks(ctx, page, t.links.resendGone(clip(id, 20)));
  // Its URL is sealed with a key this bot no longer has (docs/running/settings.md): said, never a wrong or empty link.
  const { url } = pending;
  if (url === undefined) return showMyLinks(ctx, page, t.links.resendUnreadable(pending.id));
  const link = { ...pending, url };

  await ctx.respond.defer();
  const delivery = await services.delivery.resend(ctx.respond.interaction.user, t, link, ctx.guildName, ctx.log);
  if (delivery.kind === 'reply') return ctx.respond.show(linkInReplyView(t, link, ctx.guildName));
  if (delivery.kind === 'withdrawn') return showMyLinks(ctx, page, t.links.resendGone(id));
  ctx.log.info({ link: id }, 'payment link sent to DMs again');
  await showMyLinks(ctx, page, t.links.resent(id));
}
