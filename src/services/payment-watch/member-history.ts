import type { LicenseRound, OpenLink } from './context.js';
import { CLOCK_SKEW_MS, HISTORY_MS, soleCandidate, type MatchEvidence, type SeenTransaction } from './matcher.js';

/**
 * What the member a purchase would settle for asked for lately (matcher.ts, `thinEvidence`): a
 * copycat keeps a fresh link for a player's nick waiting, one every couple of hours, so that the
 * player's website purchase is never "late" after the newest. The member's links for the nick in
 * the HISTORY_MS before the purchase say how long they have been waiting, and how many they let go.
 *
 * What it costs: nothing for a purchase no link or several members' links could have paid. For one
 * member's: one read of the member's link list in the link's guild and their link records (in
 * batches), at most HISTORY_READ of them (a member gets at most 10 links an hour).
 */

/** Links read: a day of a busy member's checkouts. */
const HISTORY_READ = 60;

export async function memberHistory(round: LicenseRound, transaction: SeenTransaction, links: readonly OpenLink[]): Promise<MatchEvidence['memberLinks']> {
  const reader = round.deps.links.listForMemberSince;
  const link = soleCandidate(transaction, links, CLOCK_SKEW_MS);
  if (!reader || !link) return undefined;
  const recent = await reader.call(round.deps.links, link.guildId, link.userId, transaction.madeAt - HISTORY_MS, HISTORY_READ);
  return {
    userId: link.userId,
    links: recent.map((past) => ({ linkId: past.id, nick: past.nick, items: past.items, createdAt: past.createdAt, paid: past.payment?.status === 'paid' })),
  };
}
