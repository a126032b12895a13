import type { WindowCounter } from '../../coordination/window-counter.js';
import type { Logger } from '../../logger.js';
import type { StoreWebhookConnections } from './connections.js';
import { postText, transactionIdsIn } from './post-text.js';

/**
 * Takes a store's post (issue 38, docs/store-webhook.md) from the message as the webhook's token
 * returned it to the payment watcher: the transaction ids in it, each asked about with
 * transaction/info under the guild's license and decided exactly as a polled purchase
 * (PaymentWatcher.follow). The post is never trusted: only the store's answer settles anything.
 *
 * Whoever holds the URL can post anything: at most ASKS_PER_MINUTE ids a minute per license are
 * handed over (shared by every process on Redis); the rest are dropped and counted.
 */

export const ASKS_PER_MINUTE = 10;
const MINUTE_MS = 60_000;

export interface PostReaderDeps {
  connections: Pick<StoreWebhookConnections, 'notePost'>;
  /** The guild's license, or undefined (no shop, or the demo: nothing to ask). */
  licenseOf(guildId: string): Promise<string | undefined>;
  /** PaymentWatcher.follow: the one hand-over to the payment wing. */
  follow(license: string, transactionIds: readonly string[]): Promise<boolean>;
  /** The post named these ids (health.ts: a payment a post named is no miss), before any is handed over. */
  announced(guildId: string, transactionIds: readonly string[]): Promise<void>;
  /** Whether the store's answer made this transaction a paid, settled link (for the status count). */
  settledPaid(license: string, transactionId: string): Promise<boolean>;
  /** The ids the post named and the license may ask about, after the watcher took them: those the store confirms as paid go to the purchase feed at once (feed-handoff.ts). */
  toFeed(guildId: string, license: string, transactionIds: readonly string[]): Promise<void>;
  asks: WindowCounter;
  now(): number;
  logger: Logger;
}

export class StorePostReader {
  /** Ids dropped by the per-license limit since the start (the operator's figure). */
  dropped = 0;

  constructor(private readonly deps: PostReaderDeps) {}

  async read(guildId: string, message: { content?: unknown; embeds?: unknown }): Promise<void> {
    const { deps } = this;
    const ids = transactionIdsIn(postText(message));
    const license = await deps.licenseOf(guildId);
    if (!license || ids.length === 0) {
      await deps.connections.notePost(guildId, 0);
      deps.logger.debug({ guild: guildId, ids: ids.length }, 'store webhook: post read');
      return;
    }
    await deps.announced(guildId, ids);
    const allowed: string[] = [];
    for (const id of ids) {
      if ((await deps.asks.hit(`store-webhook:${license}`, MINUTE_MS, deps.now())) <= ASKS_PER_MINUTE) allowed.push(id);
      else this.dropped += 1;
    }
    if (allowed.length < ids.length) deps.logger.info({ guild: guildId, dropped: ids.length - allowed.length, total: this.dropped }, 'store webhook: more transaction ids than the license may ask about this minute; dropped');
    const followed = allowed.length > 0 && (await deps.follow(license, allowed));
    const paid: string[] = [];
    if (followed) for (const id of allowed) if (await deps.settledPaid(license, id)) paid.push(id);
    const confirmed = paid.length;
    if (allowed.length > 0) await deps.toFeed(guildId, license, allowed);
    await deps.connections.notePost(guildId, confirmed);
    deps.logger.debug({ guild: guildId, ids: ids.length, asked: allowed.length, followed, confirmed }, 'store webhook: post read');
  }
}
