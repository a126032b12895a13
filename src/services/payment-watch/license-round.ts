import type { Logger } from '../../logger.js';
import { slotOf } from '../../storage/payment-watch-index.js';
import { followedBefore, type TxState, type WatchState } from '../../storage/payment-watch.js';
import { FEED_POLL_MS, type FeedDemand } from '../purchase-feed.js';
import type { ShopAccess } from '../store-directory.js';
import type { LicenseRound, WatchDeps } from './context.js';
import { notify } from './outbox.js';
import { readOpenLinks, serversOf } from './open-links.js';
import { askInfo, pollServer, seenOf } from './polling.js';
import { readDate } from './dates.js';
import { TICK_MS } from './schedule.js';
import { answerOf, closeLinks, decideAndSettle, settleEnded } from './settle.js';
import { applyTx, saveRound, txOf } from './tx-state.js';
import { placePosted, postedUnknown, takePosted, unplacedPost } from './posted-work.js';
import type { TransactionInfo } from '../../spaceis/client.js';

/**
 * One license's round, inside its runAlone: the servers due are polled, the transactions with work
 * due (a pending payment, Discord steps of a settled one, a transaction the store did not know) are
 * taken further, and the license is listed in the due-time index for its next wake-up. The license's
 * state is written only when it changed, and the next poll times are written before the store is
 * asked, so a storage failure mid-round never makes the next round poll again at once.
 */
export async function watchLicense(deps: WatchDeps, license: string, log: Logger, feed: FeedDemand | undefined, watched = true, posted = false): Promise<void> {
  const now = deps.clock.now();
  const state = await deps.store.state(license);
  let readAs = JSON.stringify(state);
  await upgradeFollowUps(deps, license, state);
  // Work handed over from outside a round (a moderator's confirmation whose steps are not all done):
  // it comes with a due-time entry, so a visit for the feed alone need not read it.
  const inbox = watched ? await deps.store.inbox(license) : {};
  for (const [transactionId, at] of Object.entries(inbox)) state.work[transactionId] = Math.min(state.work[transactionId] ?? at, at);
  const inboxTaken = Object.keys(inbox);
  // The ids the store's webhook posted, as their budgets allow (a post's own round, or ids left waiting).
  if (watched && (posted || state.postedDue !== undefined)) {
    const saving = { deps, license, state, readAs };
    await takePosted(deps, license, await deps.shopKeyOf(license), state, () => saveRound(saving));
    readAs = saving.readAs;
  }
  const read = await readOpenLinks(deps, license, now);
  const feedServers = feed?.servers ?? new Set<string>();
  const idle = read.open.length === 0 && read.expired.length === 0 && Object.keys(state.work).length === 0 && state.postedDue === undefined;
  // Nothing of the watcher's own: not visited through the due-time index any more; the feed, if it
  // reads this license, visits it once a minute by itself (FeedDemand.due).
  let feedOnly = false;
  if (idle && watched) {
    await deps.store.index.closeOpen(license, read.closed);
    if (await deps.store.index.retire(license)) {
      if (feedServers.size === 0) {
        log.debug('payment watch: nothing open; license no longer visited');
        return;
      }
      feedOnly = true;
    }
  } else if (idle) feedOnly = true;
  const access = (await shopFor(deps, license, [...read.open.map((link) => link.guildId), ...read.expired.map((link) => link.guildId)], state.work)) ?? feed?.shop;
  if (!access) {
    // No guild sells from this license any more (its key was replaced): nothing can be asked; its links expire unwatched.
    log.debug('payment watch: no guild uses this license now');
    return wake({ deps, license, state, readAs, inboxTaken }, feedOnly);
  }
  const round: LicenseRound = { deps, license, shop: await deps.shopKeyOf(license), access, state, readAs, inboxTaken, open: read.open, openReadAt: now, log, polled: [] };
  // A license whose shop is reached by other keys too is noted under that shop (once per process), for shopmates.
  await deps.shopLicenses.note(round.shop, license);
  if (read.closed.length > 0) await closeLinks(round, read.closed);
  for (const record of read.expired) await settleEnded(round, record);
  if (state.unsupported && now >= state.unsupported.retryAt) {
    // Time to try again: this round's polls say whether the route exists now.
    delete state.unsupported;
    state.missing = {};
  }
  const forLinks = new Set(serversOf(round.open));
  const servers = [...new Set([...forLinks, ...feedServers])].sort();
  // A server read for the feed alone is read once a minute; one an open link buys from, every poll interval.
  // Polls for open links come every pollMs, or as the cadence input says (the store webhook's safety net).
  // While posted ids wait in their queue the posts are behind: no safety-net cadence, the rush pace may apply.
  const linkPollMs = (forLinks.size > 0 && state.postedDue === undefined ? await deps.pollIntervalFor?.(license, round.open.map((link) => link.guildId)) : undefined) ?? deps.pollMs;
  const feedPollMs = Math.max(deps.pollMs, FEED_POLL_MS);
  // A server the feed reads too is read at least once a minute, whatever the cadence of open links.
  const interval = (serverId: string) => (!forLinks.has(serverId) ? feedPollMs : feedServers.has(serverId) ? Math.min(linkPollMs, feedPollMs) : linkPollMs);
  // A cadence that became shorter applies at once: no next poll further than one interval away (a server skipped after a 404 keeps its wait).
  for (const [serverId, poll] of Object.entries(state.servers)) if (forLinks.has(serverId) && !state.missing[serverId] && poll.nextAt > now + interval(serverId)) poll.nextAt = now + interval(serverId);
  for (const serverId of Object.keys(state.servers)) if (!servers.includes(serverId)) delete state.servers[serverId];
  for (const serverId of Object.keys(state.missing)) if (!servers.includes(serverId)) delete state.missing[serverId];
  const due = state.unsupported ? [] : servers.filter((serverId) => isDue(state.servers[serverId]?.nextAt ?? 0, now));
  // Due again in an interval whatever happens, saved before the store is asked.
  for (const serverId of due) state.servers[serverId] = { ...(state.servers[serverId] ?? { polledAt: 0 }), nextAt: now + interval(serverId) };
  await wake(round, feedOnly);
  for (const serverId of due) {
    if (deps.stopping() || state.unsupported) break;
    await pollServer(round, serverId, interval(serverId));
  }
  await doWork(round);
  await wake(round, feedOnly && Object.keys(state.work).length === 0);
  // The one hand-off to the purchase feed: what this round read. Returns at once: the feed posts outside this round's lock.
  if (feed) deps.feed?.handOff(license, round.polled);
}

/** Pending payments as older versions followed them (a list on the license's state) become transaction states with work (written with the state). */
async function upgradeFollowUps(deps: WatchDeps, license: string, state: WatchState): Promise<void> {
  if (!state.follow) return;
  const shop = await deps.shopKeyOf(license);
  for (const follow of state.follow) {
    await deps.store.saveTx(shop, follow.transactionId, followedBefore(follow));
    state.work[follow.transactionId] = follow.nextAt;
  }
  delete state.follow;
}

/** Transactions with work due: their own state says what is left. */
async function doWork(round: LicenseRound): Promise<void> {
  const { deps, state } = round;
  const due = Object.entries(state.work)
    .filter(([, at]) => isDue(at, deps.clock.now()))
    .sort((a, b) => a[1] - b[1]);
  for (const [transactionId] of due) {
    if (deps.stopping() || state.unsupported) return;
    const tx = await txOf(round, transactionId);
    if (tx?.state === 'settled') await notify(round, transactionId);
    else if (tx?.state === 'matched' || tx?.state === 'seen') await askAgain(round, transactionId, tx);
    else delete state.work[transactionId];
  }
}

/** A payment still pending at the store, or a transaction it did not know: asked again, backing off. */
async function askAgain(round: LicenseRound, transactionId: string, tx: TxState): Promise<void> {
  const { deps } = round;
  const now = deps.clock.now();
  // The end of following it after 30 days: a terminal state, logged once (the work entry goes with it).
  if ((await applyTx(round, transactionId, tx, { kind: 'time-passed' })).record !== tx) {
    round.log.info({ transaction: transactionId, status: tx.status }, 'payment watch: a transaction stayed pending or unknown at the store for 30 days; no longer followed');
    return;
  }
  const answer = await askInfo(round, transactionId);
  if (answer.kind === 'skipped') return;
  const attempt = tx.attempt + 1;
  // Only a webhook post named it and the store does not know it (yet): a forged or mistyped id, or a
  // purchase listed ahead of its details. Asked no more; a poll that lists it still examines it.
  if (answer.kind === 'unknown' && unplacedPost(tx)) return postedUnknown(round, transactionId, tx);
  if (answer.kind === 'ok' && unplacedPost(tx)) return decidePosted(round, transactionId, tx, answer.info);
  if (answer.kind === 'unknown') {
    // Still unknown to the store: asked again, rarely after a few 404s, until 30 days have passed.
    const { effects } = await applyTx(round, transactionId, tx, { kind: 'unknown' });
    if (effects.some((effect) => effect.kind === 'log')) round.log.info({ transaction: transactionId, asked: attempt }, 'payment watch: the store kept answering 404 about a transaction; asked every few hours now');
    return;
  }
  // A pending payment of a transaction only seen so far (announced by the store's webhook, say) is
  // decided as a polled one is: the link it matches shows it pending and follows it.
  if (answer.info.status === 'unknown' || (answer.info.status === 'pending' && tx.state !== 'seen')) {
    await applyTx(round, transactionId, tx, answerOf(answer.info.status));
    return;
  }
  const placed = tx.madeAt ?? 0;
  await decideAndSettle(round, seenOf(transactionId, answer.info, tx.nick, tx.state === 'matched' ? placed : undefined, placed, now), answer.info.status, tx);
}

/**
 * A posted transaction the store answered about: counted by its guild's webhook health (the store
 * confirmed it), placed in time by the store's evidence (posted-work.ts), then decided as a polled
 * one. A pending one the store does not place yet is followed up and placed once it moves on.
 */
async function decidePosted(round: LicenseRound, transactionId: string, tx: TxState, info: TransactionInfo): Promise<void> {
  const { deps } = round;
  const now = deps.clock.now();
  if (tx.postedIn && info.status !== 'unknown') await deps.postConfirmed?.(tx.postedIn, transactionId);
  // No link it could pay: placing it would change nothing (it is nobody's whenever it was made), so
  // nothing more is asked; its answer's own date, if any, still says since when its nick is a website buyer's.
  const madeAt = info.status === 'unknown' ? undefined : round.open.length === 0 ? (readDate(info.date, now) ?? 0) : await placePosted(round, transactionId, info);
  // Not placed yet: asked again on the follow-up schedule (a poll that lists it meanwhile places it,
  // polling.ts); pending, until it moves on; otherwise a few times, then it counts as undated.
  if (madeAt === undefined && !(await applyTx(round, transactionId, tx, answerOf(info.status))).effects.some((effect) => effect.kind === 'decide')) return;
  // Undated and not listed: made before any link, as polling counts an undated row (it pays no link issued before its post).
  const placed = madeAt ?? 0;
  await decideAndSettle(round, seenOf(transactionId, info, tx.nick, placed, placed, now), info.status, { ...tx, madeAt: placed });
}

/**
 * Lists the license in the due-time index for its next wake-up (the earliest server poll or work),
 * and writes the state when it changed. With open links, at most one poll interval away, so a link
 * issued meanwhile is looked at; with none, at its next work only (a new link makes its license due
 * at once: PaymentWatcher.watch), so a license following one pending payment costs nothing between
 * its follow-ups.
 */
async function wake(round: Pick<LicenseRound, 'deps' | 'license' | 'state' | 'readAs' | 'inboxTaken'>, feedOnly = false): Promise<void> {
  const { deps, state } = round;
  const now = deps.clock.now();
  if (feedOnly) {
    // Read for the purchase feed alone: the feed makes it due once a minute; no due-time entry.
    await saveRound(round);
    return;
  }
  const open = Object.keys(state.servers).length > 0;
  const times = [...(open ? [now + deps.pollMs] : []), ...Object.values(state.servers).map((poll) => poll.nextAt), ...Object.values(state.work), ...(state.postedDue !== undefined ? [state.postedDue] : [])];
  // Nothing left: one more visit, which finds the license idle and takes it out of the registry.
  if (times.length === 0) times.push(now + deps.pollMs);
  const next = Math.max(Math.min(...times), now + TICK_MS);
  const slot = slotOf(next);
  if (state.wakeSlot === undefined || state.wakeSlot <= slotOf(now) || slot < state.wakeSlot) state.wakeSlot = await deps.store.index.schedule(round.license, next, now);
  await saveRound(round);
  // What the inbox handed over is in the saved state now.
  if (round.inboxTaken && round.inboxTaken.length > 0) {
    await deps.store.clearInbox(round.license, round.inboxTaken);
    round.inboxTaken = [];
  }
}

/**
 * The license's client and gate, through a guild that still sells from it, or from the same shop
 * with a rotated key (the store lists the shop's purchases whichever of its keys asks).
 */
async function shopFor(deps: WatchDeps, license: string, guildIds: string[], work: Record<string, number>): Promise<ShopAccess | undefined> {
  const guilds = new Set(guildIds);
  if (guilds.size === 0 && Object.keys(work).length > 0) {
    for (const transactionId of Object.keys(work)) {
      const tx = (await deps.store.tx(await deps.shopKeyOf(license), transactionId)) ?? (await deps.store.tx(license, transactionId));
      for (const ref of [...(tx?.link ? [tx.link] : []), ...(tx?.candidates ?? []), ...(tx?.postedIn ? [{ guildId: tx.postedIn }] : [])]) guilds.add(ref.guildId);
    }
  }
  for (const guildId of guilds) {
    const shop = await deps.stores.forGuild(guildId);
    if (!shop || shop.source === 'demo') continue;
    if (shop.license === license || (await deps.stores.sameShop(license, shop.license))) return shop;
  }
  return undefined;
}

/**
 * Due now, or within half a round: the production timer's rounds drift by a few milliseconds, and
 * without this slack a poll due "now" would wait a whole round more (every 35 s instead of 30).
 */
export function isDue(at: number, now: number): boolean {
  return at - now < TICK_MS / 2;
}
