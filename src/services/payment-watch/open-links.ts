import { DEMO_LICENSE } from '../../demo/license.js';
import type { PaymentLink } from '../../storage/payment-links.js';
import type { OpenRef } from '../../storage/payment-watch.js';
import { linkExpiresAt } from '../link-state.js';
import type { OpenLink, WatchDeps } from './context.js';
import { watchGraceMs } from './schedule.js';

/**
 * The open links of a license: those the bot issued, not settled, not withdrawn, within their
 * lifetime (and a grace). Read from the links' own records each round a license is due, so a
 * round always matches against what the records say now. A link whose lifetime ended while only
 * failed or expired transactions were reported for it settles with that status then (`expired`).
 */

/** Whether the watcher follows a link at all: the demo shop's are never paid, and matching needs every item's server. */
export function watchable(link: PaymentLink): boolean {
  return link.license !== DEMO_LICENSE && link.items.length > 0 && link.items.every((item) => item.serverId !== undefined);
}

interface OpenRead {
  open: OpenLink[];
  /** Links to take out of the index (settled, withdrawn, gone, or past their lifetime). */
  closed: OpenRef[];
  /** Past their lifetime with a failed or expired attempt and nothing paid: to settle with it. */
  expired: PaymentLink[];
}

export async function readOpenLinks(deps: WatchDeps, license: string, now: number): Promise<OpenRead> {
  const read: OpenRead = { open: [], closed: [], expired: [] };
  const lifetimes = new Map<string, number>();
  const refs = await deps.store.openLinks(license);
  // Read together (one statement per hundred links), not one after another.
  const records = await deps.links.getEach(refs);
  for (const [index, ref] of refs.entries()) {
    const record = records[index];
    if (!record || record.revoked || record.payment?.settledAt !== undefined || !watchable(record)) {
      read.closed.push(ref);
      continue;
    }
    let lifetime = lifetimes.get(ref.guildId);
    if (lifetime === undefined) {
      lifetime = (await deps.settings.get(ref.guildId)).linkLifetimeHours;
      lifetimes.set(ref.guildId, lifetime);
    }
    const until = linkExpiresAt(record, lifetime) + watchGraceMs(deps.pollMs);
    if (now >= until) {
      read.closed.push(ref);
      // A pending payment is still followed (its transaction's work); only a failed attempt settles here.
      if (record.attempt && record.payment === undefined) read.expired.push(record);
      continue;
    }
    read.open.push(openLinkOf(record, until));
  }
  return read;
}

export function openLinkOf(record: PaymentLink, until: number): OpenLink {
  return {
    guildId: record.guildId,
    linkId: record.id,
    userId: record.userId,
    nick: record.nick,
    createdAt: record.createdAt,
    items: record.items.map(({ variantId, quantity }) => ({ variantId, quantity })),
    serverIds: [...new Set(record.items.flatMap((item) => (item.serverId ? [item.serverId] : [])))],
    until,
    record,
  };
}

/** The servers the open links buy from, each once, in a stable order. */
export function serversOf(open: readonly OpenLink[]): string[] {
  return [...new Set(open.flatMap((link) => link.serverIds))].sort();
}
