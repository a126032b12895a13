import type { Logger } from '../../logger.js';
import { DAY_MS, type StoreWebhookRecord, type StoreWebhookRepository } from '../../storage/store-webhooks.js';

/**
 * Polling as the safety net (docs/store-webhook.md): while a guild's store webhook is
 * connected and healthy, the payment watcher polls the servers of its open links every
 * SAFETY_NET_POLL_MS instead of every PAYMENT_POLL_SECONDS (`pollIntervalFor`, the one input this
 * gives the watcher's schedule).
 *
 * Healthy means: no three misses in a day. A miss is a paid transaction a poll settled that no post
 * had named, and that no post names within ANNOUNCED_WITHIN_MS after (the post may simply be late).
 * On the third miss in 24 h the webhook "seems off" (a wrong URL, the webhook disabled in the panel, a
 * text without {TRANSACTION_ID}): the log channel says so once, status says so while it lasts, and
 * polling goes back to every PAYMENT_POLL_SECONDS. The next post that names a transaction ends it.
 *
 * The purchase feed rests on the posts too (`feedRests`): while the webhook is healthy and a post
 * arrived within FEED_RESTS_MS, the feed reads no latest buyers for the guild (the posts bring it
 * every purchase, website ones included: feed-handoff.ts); after that, once a minute as before.
 *
 * Kept on the guild's record (storage/store-webhooks.ts), so every process on Redis reads the same.
 * Cost: one record read per round of a license whose open links' guilds connected a webhook; for the
 * feed, one record read a minute per connected guild with the feed on (remembered in this process).
 */

export const SAFETY_NET_POLL_MS = 5 * 60_000;
/** While a post arrived within this long (and the webhook is healthy), the purchase feed rests on the posts: no latest_buyers read for it. */
export const FEED_RESTS_MS = 10 * 60_000;
/** The guild's record is read again for the feed's question after this (this process's own posts are known at once). */
const FEED_VIEW_MS = 60_000;
export const ANNOUNCED_WITHIN_MS = 2 * 60_000;
export const MISSES_FOR_NOTICE = 3;
/** Posted ids are remembered this long (a poll at the safety-net cadence finds a payment within it). */
const ANNOUNCED_KEPT_MS = 15 * 60_000;
/** At most this many ids are remembered either way (announced ones are ids the store confirmed as purchases). */
const IDS_KEPT = 200;

export interface HealthDeps {
  repository: Pick<StoreWebhookRepository, 'update' | 'get'>;
  /** Whether the guild has a webhook connected, as this process knows it (no storage read). */
  connected(guildId: string): boolean;
  /** Posts, once per episode, that the webhook seems off in the guild's log channel. */
  noticeOff(guildId: string): Promise<void>;
  now(): number;
  logger: Logger;
}

export class StoreWebhookHealth {
  /** Per guild, for the feed: the last post and whether the webhook seemed off, as last read (and when). */
  readonly #feedView = new Map<string, { lastPostAt: number | undefined; off: boolean; readAt: number }>();

  constructor(private readonly deps: HealthDeps) {}

  /**
   * Whether the purchase feed may skip reading latest buyers for this guild: its webhook is connected,
   * healthy, and posted within FEED_RESTS_MS. No storage read for a guild without a webhook; else at
   * most one a minute (a post or a notice in this process is known at once; another process's within
   * a minute, and late only ever toward reading: the last post it saw is never newer than the real one).
   */
  async feedRests(guildId: string): Promise<boolean> {
    if (!this.deps.connected(guildId)) return false;
    const now = this.deps.now();
    let view = this.#feedView.get(guildId);
    if (!view || now - view.readAt >= FEED_VIEW_MS) {
      const record = await this.deps.repository.get(guildId);
      view = { lastPostAt: Math.max(record?.lastPostAt ?? 0, view?.lastPostAt ?? 0) || undefined, off: record?.seemsOffAt !== undefined, readAt: now };
      this.#feedView.set(guildId, view);
    }
    return !view.off && view.lastPostAt !== undefined && now - view.lastPostAt < FEED_RESTS_MS;
  }

  /** A post from the guild's webhook was read in this process (whatever it named). */
  notePost(guildId: string): void {
    const view = this.#feedView.get(guildId);
    if (view) view.lastPostAt = this.deps.now();
  }

  /**
   * The poll interval for the servers of a license's open links: the safety net's when a guild of
   * those links has a healthy webhook, undefined (the watcher's own) otherwise.
   */
  async pollIntervalFor(license: string, guildIds: readonly string[]): Promise<number | undefined> {
    void license;
    for (const guildId of new Set(guildIds)) {
      if (!this.deps.connected(guildId)) continue;
      const healthy = await this.#review(guildId);
      if (healthy) return SAFETY_NET_POLL_MS;
    }
    return undefined;
  }

  /** Whether the guild has a webhook whose health is kept (checked before anything is read for it). */
  covers(guildId: string): boolean {
    return this.deps.connected(guildId);
  }

  /** A post named these transactions and the store confirmed them as purchases (a random id counts nothing); ends "seems off". */
  async noteAnnounced(guildId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const now = this.deps.now();
    await this.deps.repository.update(guildId, (record) => {
      const named = new Set(ids);
      const announced = [...(record.announced ?? []).filter((entry) => entry.at > now - ANNOUNCED_KEPT_MS && !named.has(entry.id)), ...ids.map((id) => ({ id, at: now }))];
      const unannounced = (record.unannounced ?? []).filter((entry) => !named.has(entry.id));
      const { seemsOffAt: _off, ...rest } = record;
      return { record: { ...rest, announced: announced.slice(-IDS_KEPT), unannounced, misses: [] }, result: undefined };
    });
    const view = this.#feedView.get(guildId);
    if (view) view.off = false;
  }

  /**
   * A link's payment settled as paid, made at `madeAt` (as the watcher placed it): if no post had
   * named it, it is a miss once ANNOUNCED_WITHIN_MS have passed since then without one (at once when
   * the poll found it later than that; else at the next round, settlement or status).
   */
  async noteSettled(guildId: string, transactionId: string, madeAt: number | undefined): Promise<void> {
    if (!this.deps.connected(guildId)) return;
    const at = Math.min(madeAt ?? this.deps.now(), this.deps.now());
    await this.deps.repository.update(guildId, (record) => {
      if ((record.announced ?? []).some((entry) => entry.id === transactionId)) return undefined;
      if ((record.unannounced ?? []).some((entry) => entry.id === transactionId)) return undefined;
      return { record: { ...record, unannounced: [...(record.unannounced ?? []), { id: transactionId, at }].slice(-IDS_KEPT) }, result: undefined };
    });
    await this.#review(guildId);
  }

  /** Since when the guild's webhook seems off, for status (misses due by now are counted first). */
  async seemsOffSince(guildId: string): Promise<number | undefined> {
    if (!this.deps.connected(guildId)) return undefined;
    await this.#review(guildId);
    return (await this.deps.repository.get(guildId))?.seemsOffAt;
  }

  /** Counts the misses now due; true while the webhook is healthy. Posts the notice when this turned it off. */
  async #review(guildId: string): Promise<boolean> {
    const now = this.deps.now();
    const record = await this.deps.repository.get(guildId);
    if (!record) return false;
    if (!dueMisses(record, now)) return record.seemsOffAt === undefined;
    const turnedOff = await this.deps.repository.update(guildId, (current) => {
      const due = (current.unannounced ?? []).filter((entry) => entry.at <= now - ANNOUNCED_WITHIN_MS);
      if (due.length === 0) return { record: current, result: false };
      const misses = [...(current.misses ?? []).filter((at) => at > now - DAY_MS), ...due.map(() => now)];
      const off = current.seemsOffAt === undefined && misses.length >= MISSES_FOR_NOTICE;
      const unannounced = (current.unannounced ?? []).filter((entry) => entry.at > now - ANNOUNCED_WITHIN_MS);
      return { record: { ...current, unannounced, misses, ...(off ? { seemsOffAt: now } : {}) }, result: off };
    });
    if (turnedOff) {
      const view = this.#feedView.get(guildId);
      if (view) view.off = true;
      this.deps.logger.warn({ guild: guildId }, 'store webhook: three payments in a day were found by polling, not by a post; the webhook seems off');
      await this.deps.noticeOff(guildId);
      return false;
    }
    return (await this.deps.repository.get(guildId))?.seemsOffAt === undefined;
  }
}

function dueMisses(record: StoreWebhookRecord, now: number): boolean {
  return (record.unannounced ?? []).some((entry) => entry.at <= now - ANNOUNCED_WITHIN_MS);
}
