import type { Logger } from '../../logger.js';
import type { PostedId, PostedIdStore } from '../../storage/posted-ids.js';
import type { TxState } from '../../storage/payment-watch.js';
import type { StoreWebhookConnections } from './connections.js';
import { nickBeside, postText, transactionIdsIn } from './post-text.js';

/**
 * Takes a store's post (docs/store-webhook.md, "What the bot does with a post") from the message as
 * the webhook's token returned it to the payment watcher. The post is never trusted, neither as to
 * what was paid nor as to when: it is news that the store may have something to say, and only the
 * store's answer settles anything (placed in time by the store's own evidence: payment-watch/sense.ts, `placePosted`).
 *
 * Each id the post names is queued (storage/posted-ids.ts: durable, bounded, never dropped for a
 * quota) under one of three kinds, each with its own budget of store questions: an id the bot already
 * follows, an id beside which the post names the nick of an open link (the bot gave the admin the
 * text to paste, so the nick stands in the id's line), and any other. An id already settled, set
 * aside, or asked about and unknown to the store is not queued again (a repost costs no question).
 * Then the license's round runs (PaymentWatcher.follow), taking what the budgets allow.
 */

export interface PostReaderDeps {
  connections: Pick<StoreWebhookConnections, 'notePost'>;
  /** The guild's license, or undefined (no shop, or the demo: nothing to ask). */
  licenseOf(guildId: string): Promise<string | undefined>;
  /** The watcher's record of the transaction (under the license's shop). */
  tx(license: string, transactionId: string): Promise<TxState | undefined>;
  /** The license's open links: each one's nick and budget key. */
  openNicks(license: string): Promise<{ key: string; nick: string }[]>;
  queue: Pick<PostedIdStore, 'add'>;
  /** PaymentWatcher.follow: the license's round, now. */
  follow(license: string): Promise<void>;
  /** The post named these ids, which the store already confirmed as purchases (health.ts: a payment a post named is no miss). */
  announced(guildId: string, transactionIds: readonly string[]): Promise<void>;
  /** Whether the store's answer made this transaction a paid, settled link (for the status count). */
  settledPaid(license: string, transactionId: string): Promise<boolean>;
  /** The ids the store answered about: those it confirms as paid go to the purchase feed at once (feed-handoff.ts). */
  toFeed(guildId: string, license: string, transactionIds: readonly string[]): Promise<void>;
  now(): number;
  logger: Logger;
}

/** A transaction's record that says the store confirmed it as a purchase (any status it gives). */
export const storeConfirmed = (tx: TxState | undefined): boolean => tx?.status !== undefined && tx.status !== 'unknown';

export class StorePostReader {
  /** Unknown ids the queue's bound pushed out since the start (the operator's figure). */
  dropped = 0;

  constructor(private readonly deps: PostReaderDeps) {}

  async read(guildId: string, message: { content?: unknown; embeds?: unknown }): Promise<void> {
    const { deps } = this;
    const text = postText(message);
    const ids = [...new Set(transactionIdsIn(text).map((id) => id.toLowerCase()))];
    const license = await deps.licenseOf(guildId);
    if (!license || ids.length === 0) {
      await deps.connections.notePost(guildId, 0);
      deps.logger.debug({ guild: guildId, ids: ids.length }, 'store webhook: post read');
      return;
    }
    const now = deps.now();
    const open = await deps.openNicks(license);
    const queued: PostedId[] = [];
    const confirmed: string[] = [];
    for (const id of ids) {
      const tx = await deps.tx(license, id);
      if (storeConfirmed(tx)) confirmed.push(id);
      if (tx && (tx.state === 'matched' || (tx.state === 'seen' && tx.status !== 'unknown'))) queued.push({ id, at: now, kind: 'followed', key: id, guildId });
      else if (!tx) {
        const link = nickBeside(text, id, open);
        queued.push(link ? { id, at: now, kind: 'nick', key: link.key, guildId } : { id, at: now, kind: 'unknown', key: '', guildId });
      }
    }
    if (confirmed.length > 0) await deps.announced(guildId, confirmed);
    const dropped = await deps.queue.add(license, queued);
    if (dropped > 0) {
      this.dropped += dropped;
      deps.logger.info({ guild: guildId, dropped, total: this.dropped }, 'store webhook: the queue of posted ids is full; the oldest unknown ones went');
    }
    if (queued.length > 0) await deps.follow(license);
    const answered: string[] = [];
    let paid = 0;
    for (const id of ids) {
      if (!storeConfirmed(await deps.tx(license, id))) continue;
      answered.push(id);
      // Counted once: when this post brought it (a repost of a settled one counts nothing more).
      if (queued.some((entry) => entry.id === id) && (await deps.settledPaid(license, id))) paid += 1;
    }
    if (answered.length > 0) await deps.toFeed(guildId, license, answered);
    await deps.connections.notePost(guildId, paid);
    deps.logger.debug({ guild: guildId, ids: ids.length, queued: queued.length, answered: answered.length, confirmed: paid }, 'store webhook: post read');
  }
}
