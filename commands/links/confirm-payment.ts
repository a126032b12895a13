import type { HandlerContext } from '../../src/discord/context.js';
import type { ConfirmOutcome } from '../../src/services/payment-watch/review.js';
import type { Messages } from '../../src/i18n/index.js';
import { LINK_COLORS } from '../../src/discord/payment-links/link-text.js';
import { sentence } from './views.js';

/**
 * A moderator pressed "Paid link …" on a purchase waiting for staff (the log post or /links user):
 * that link settles as paid, confirmed by them; a second press, a withdrawn or otherwise paid link,
 * or the moderator's own link changes nothing and says why.
 */
export async function confirmPayment(ctx: HandlerContext, ref: string, linkId: string): Promise<void> {
  // Settling edits the member's DM and posts to the log channel: acknowledge first.
  await ctx.respond.defer();
  const outcome = await ctx.services.reviews.confirmRef(ctx.guildId, ref, linkId, ctx.userId);
  ctx.log.info({ link: linkId, outcome: outcome.kind }, 'payment review: a moderator chose a link');
  await ctx.respond.show(sentence(answer(ctx.t, outcome), outcome.kind === 'confirmed' ? LINK_COLORS.genuine : LINK_COLORS.warning));
}

function answer(t: Messages, outcome: ConfirmOutcome): string {
  switch (outcome.kind) {
    case 'confirmed':
      return t.review.confirmed(outcome.linkId, `<@${outcome.userId}>`);
    case 'already':
      return outcome.linkId && outcome.by ? t.review.already(outcome.linkId, `<@${outcome.by}>`) : t.review.alreadySettled;
    case 'not-waiting':
      return t.review.notWaiting;
    case 'not-candidate':
      return t.review.notCandidate;
    case 'own-link':
      return t.review.ownLink(outcome.linkId);
    case 'withdrawn':
      return t.review.withdrawn(outcome.linkId, `<@${outcome.by}>`);
    case 'link-taken':
      return t.review.linkTaken(outcome.linkId);
  }
}
