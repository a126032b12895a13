import type { ShopContext } from '../../src/discord/preconditions.js';
import type { EntrySource, Step } from '../../src/services/insights/keys.js';

/**
 * The shop's steps as the insights count them (src/services/insights/): in memory, written a few
 * seconds later with everyone else's, never a write per press and never anything that names the member.
 */
export function counted(ctx: ShopContext, step: Step, where: { server?: string | undefined; product?: string | undefined } = {}): void {
  ctx.services.insights.counting.step(step, { guildId: ctx.guildId, license: ctx.shop.license, userId: ctx.userId, ...where });
}

/** How the member came into the shop: the cart they start next is counted as started there. */
export function entered(ctx: ShopContext, source: EntrySource): void {
  ctx.services.insights.counting.enter(ctx.guildId, ctx.userId, source);
}
