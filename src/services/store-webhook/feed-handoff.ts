import type { BuyerRow } from '../../spaceis/client.js';
import type { PaymentLink } from '../../storage/payment-links.js';
import type { TxState } from '../../storage/payment-watch.js';
import type { PolledServer, PurchaseFeed } from '../purchase-feed.js';

/**
 * The purchase feed from the store's posts (issue 38, docs/store-webhook.md): a transaction a post
 * named and the store's answer settled as paid on one of the bot's links goes to the feed at once,
 * as the row a poll of latest buyers would list for it (the link's first item: the feed posts a cart
 * purchase by its first row). The feed's claims keep it posted once: the next poll that lists it
 * posts nothing more.
 */
export interface FeedHandOffDeps {
  feed: Pick<PurchaseFeed, 'handOff'>;
  /** The watcher's record of the transaction (under the shop's key). */
  tx(license: string, transactionId: string): Promise<TxState | undefined>;
  link(guildId: string, linkId: string): Promise<PaymentLink | undefined>;
}

export async function handPaidToFeed(deps: FeedHandOffDeps, license: string, transactionIds: readonly string[]): Promise<void> {
  const byServer = new Map<string, PolledServer>();
  for (const transactionId of transactionIds) {
    const tx = await deps.tx(license, transactionId);
    if (!tx || (tx.state !== 'settled' && tx.state !== 'notified') || tx.status !== 'paid' || !tx.link) continue;
    const link = await deps.link(tx.link.guildId, tx.link.linkId);
    const item = link?.items[0];
    // A record from before links kept their server: the feed's next poll posts it.
    if (!link || !item?.serverId) continue;
    const row: BuyerRow = { transactionId, nick: link.nick, productName: item.productName, variantName: item.variantName, method: undefined, amount: undefined, date: undefined };
    const polled = byServer.get(item.serverId) ?? { serverId: item.serverId, rows: [], madeAt: new Map<string, number>() };
    polled.rows.push(row);
    (polled.madeAt as Map<string, number>).set(transactionId, tx.madeAt ?? tx.at);
    byServer.set(item.serverId, polled);
  }
  if (byServer.size > 0) deps.feed.handOff(license, [...byServer.values()]);
}
