import type { BuyerRow, TransactionInfo } from '../../spaceis/client.js';
import { isStoreError } from '../../spaceis/errors.js';
import { PAYMENT_WATCH_LANE } from '../../spaceis/gate-rules.js';
import type { PaymentLink } from '../../storage/payment-links.js';
import type { TxState } from '../../storage/payment-watch.js';
import { readDate } from '../../spaceis/purchase-date.js';
import type { PolledServer, PurchaseFeed } from '../purchase-feed.js';
import type { ShopAccess } from '../store-directory.js';

/**
 * The purchase feed from the store's posts (docs/store-webhook.md): every transaction a
 * post named that the store confirms as paid goes to the feed at once, whether or not it paid one of
 * the bot's links, so the feed can rest on the posts (no latest_buyers read while they come:
 * health.ts, `feedRests`).
 *
 * - Paid on one of the bot's links (the watcher settled it from the post): the row is the link's first
 *   item (the feed posts a cart purchase by its first row); nothing more is asked.
 * - Anything else (a purchase on the shop's website): one `transaction/info` under the guild's license,
 *   only while some guild on it has the feed on, and only for an id the watcher has not found unknown
 *   to the store (a forged id costs nothing more) or pending. The row is built from the answer, read
 *   leniently: the nick, the first item's product, variant and server (docs/spaceis-api.md, "Payments");
 *   never the e-mail (stripped by the client's schema) or the amount. No server in the answer: nothing
 *   posted (the feed's next read of latest buyers lists it).
 *
 * The feed's claims keep each transaction posted once: a poll that lists it later posts nothing more.
 * Cost: at most one transaction/info per posted id that is not a settled link's (so a website purchase
 * posted while the license has open links costs two: the watcher's and this one); only ids the
 * watcher's round already asked about (paced by their queue, storage/posted-ids.ts) are handed here.
 */
export interface FeedHandOffDeps {
  feed: Pick<PurchaseFeed, 'handOff' | 'wants'>;
  /** The watcher's record of the transaction (under the shop's key). */
  tx(license: string, transactionId: string): Promise<TxState | undefined>;
  link(guildId: string, linkId: string): Promise<PaymentLink | undefined>;
  /** The guild's shop (client and gate), to ask about a website purchase. */
  shop(guildId: string): Promise<ShopAccess | undefined>;
  now(): number;
  /** A store request that failed: logged by the caller's logger, never with the license key. */
  failed(transactionId: string, error: unknown): void;
}

export async function handPostedToFeed(deps: FeedHandOffDeps, guildId: string, license: string, transactionIds: readonly string[]): Promise<void> {
  const byServer = new Map<string, PolledServer>();
  const add = (serverId: string, row: BuyerRow, madeAt: number) => {
    const polled = byServer.get(serverId) ?? { serverId, rows: [], madeAt: new Map<string, number>() };
    polled.rows.push(row);
    (polled.madeAt as Map<string, number>).set(row.transactionId, madeAt);
    byServer.set(serverId, polled);
  };
  let shop: ShopAccess | undefined;
  for (const transactionId of transactionIds) {
    const tx = await deps.tx(license, transactionId);
    if (tx && (tx.state === 'settled' || tx.state === 'notified') && tx.status === 'paid' && tx.link) {
      const link = await deps.link(tx.link.guildId, tx.link.linkId);
      const item = link?.items[0];
      // A record from before links kept their server: the feed's next poll posts it.
      if (link && item?.serverId) add(item.serverId, { transactionId, nick: link.nick, productName: item.productName, variantName: item.variantName, method: undefined, amount: undefined, date: undefined }, tx.madeAt ?? tx.at);
      continue;
    }
    // Unknown to the store (forged, mistyped) or still pending: nothing to post, nothing more to ask.
    if (!deps.feed.wants(license) || tx?.state === 'unknown' || tx?.status === 'pending') continue;
    shop ??= await deps.shop(guildId);
    if (!shop || shop.license !== license) return;
    const info = await ask(deps, shop, transactionId);
    if (info?.status !== 'paid') continue;
    const item = info.items?.[0];
    if (!item?.serverId) continue;
    const now = deps.now();
    add(item.serverId, { transactionId, nick: info.nick, productName: item.productName, variantName: item.variantName, method: undefined, amount: undefined, date: undefined }, readDate(info.date, now) ?? now);
  }
  if (byServer.size > 0) deps.feed.handOff(license, [...byServer.values()]);
}

async function ask(deps: FeedHandOffDeps, shop: ShopAccess, transactionId: string): Promise<TransactionInfo | undefined> {
  try {
    const answer = await shop.client.transactionInfo(transactionId, { lane: PAYMENT_WATCH_LANE });
    return answer.kind === 'ok' ? answer.value : undefined;
  } catch (error) {
    if (!isStoreError(error)) throw error;
    deps.failed(transactionId, error);
    return undefined;
  }
}
