import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { BuyerRow } from '../spaceis/client.js';
import { PAYMENT_WATCH_LANE } from '../spaceis/gate-rules.js';
import type { GuildSettings, GuildSettingsRepository } from '../storage/guild-settings.js';
import type { PurchaseFeedStore } from '../storage/purchase-feed.js';
import { findFeedItem, type FeedPurchase } from './feed-item.js';
import { PerKeyQueue } from './per-key-queue.js';
import type { ShopAccess, StoreDirectory } from './store-directory.js';

/**
 * The purchase feed: every purchase the shop lists for a server a guild offers is posted in the
 * guild's feed channel (/shop-admin settings purchase-feed-channel:). Its source is the payment
 * watcher's poll of latest_buyers (src/services/payment-watch/watcher.ts): a guild with the feed on
 * makes its offered servers due once a minute (FEED_POLL_MS) even with no open link, and every
 * round hands what it read over (`handOff`) and goes on: the feed posts outside the watcher's lock,
 * each guild on its own (src/services/per-key-queue.ts), so a slow channel never delays a payment
 * confirmation or another guild. So the feed has no timer of its own: it runs, backs off and stops
 * with the payment rounds, the JobRunner's `payment-watch` job (src/services/payment-watch/watcher.ts, `paymentWatchJob`).
 *
 * While a guild's store webhook is healthy and posted within 10 minutes, its feed reads no latest
 * buyers: the posts bring every purchase (src/services/store-webhook/feed-handoff.ts, `setRests`).
 *
 * Cost: one read of the registry (`feed-guilds`) per watcher tick, and the guilds' settings from
 * their in-process cache; per guild and round, a claim (a read and a write) for each listed
 * transaction this process has not seen claimed yet, and Discord posts for the new ones. A license
 * read for the feed alone is visited (locked, its watch state read and written) once a minute.
 *
 * Exactly once: each transaction posted in a guild is claimed in storage, one record per id kept
 * 30 days, before the post (PurchaseFeedStore.claim), so neither a restart nor a second process
 * posts one twice however many purchases other servers have; nothing made before the feed was switched on (`since`) is posted. A post never holds
 * a payment URL, an amount or a payment method: only names, the nick (unless hidden) and the time.
 */

/** How often a server is read for the feed alone (no open link buys from it): 60 requests an hour per offered server. */
export const FEED_POLL_MS = 60_000;
/** Up to this many new purchases in a guild in one round are posted one message each; more are listed together. */
export const FEED_SINGLE_POSTS = 3;
/** At most this many purchases in one listing (each with its own Buy button: fits Discord's 5 rows of 5). */
export const FEED_LINES_PER_POST = 10;

export type { FeedItem, FeedPurchase } from './feed-item.js';

export interface FeedPost {
  guildId: string;
  channelId: string;
  purchases: FeedPurchase[];
}

export type FeedRefusal = NonNullable<NonNullable<GuildSettings['purchaseFeed']>['refused']>['reason'];
export type FeedPostOutcome = { kind: 'posted' } | { kind: 'refused'; reason: FeedRefusal } | { kind: 'failed' };

/** Discord's side (src/discord/purchase-feed-poster.ts). */
export interface FeedPoster {
  post(post: FeedPost): Promise<FeedPostOutcome>;
  /** The feed channel refused the bot: the admins are told in the log channel, once. */
  refused(guildId: string, channelId: string, reason: FeedRefusal): Promise<void>;
}

/** What the feed wants read for one license: through which shop access, and which servers. */
export interface FeedDemand {
  shop: ShopAccess;
  servers: Set<string>;
  /** A visit for the feed alone is due (once a minute); a license with open links is visited anyway. */
  due: boolean;
}

/** One server's latest buyers as a watcher round read them, with when each transaction was made. */
export interface PolledServer {
  serverId: string;
  rows: BuyerRow[];
  madeAt: ReadonlyMap<string, number>;
}

export interface PurchaseFeedOptions {
  store: PurchaseFeedStore;
  settings: Pick<GuildSettingsRepository, 'get' | 'update'>;
  stores: Pick<StoreDirectory, 'forGuild'>;
  poster: FeedPoster;
  clock: Clock;
  logger: Logger;
  /** Whether the purchase paid one of the bot's gift links (the payment watcher's record of it; app.ts). */
  isGift?: (license: string, transactionId: string) => Promise<boolean>;
}

/**
 * Whether the guild's feed may go without reading latest buyers now: the store's purchase webhook
 * posts every purchase (src/services/store-webhook/health.ts, `feedRests`). Set by its wiring.
 */
export type FeedRests = (guildId: string) => Promise<boolean>;

interface Target {
  settings: GuildSettings;
  feed: NonNullable<GuildSettings['purchaseFeed']>;
  shop: ShopAccess;
  servers: string[];
}

/** One guild's work for the feed: what rounds read, posted in order. */
interface GuildWork {
  target: Target;
  polled: PolledServer[];
}

export class PurchaseFeed {
  /** The server ids last seen per license: the feed reads the list from the store only when nobody has it cached. */
  readonly #serverIds = new Map<string, string[]>();
  /** The guilds with the feed on as the last `demand()` found them (one registry read a round), by license. */
  #targets = new Map<string, Map<string, Target>>();
  /** When the watcher should next visit a license for the feed alone (this process's view). */
  readonly #nextVisit = new Map<string, number>();
  readonly #queue: PerKeyQueue<GuildWork>;
  #rests: FeedRests | undefined;

  constructor(private readonly options: PurchaseFeedOptions) {
    this.#queue = new PerKeyQueue<GuildWork>(
      (guildId, work) => this.#publishIn(guildId, work.target, work.polled),
      (waiting, more) => ({ target: more.target, polled: [...waiting.polled, ...more.polled] }),
      (guildId, error) => this.options.logger.warn({ err: error, guild: guildId }, 'purchase feed: could not post this round; the next round tries again'),
    );
  }

  /**
   * Per license, the servers guilds with the feed on offer (what a watcher round must read), and
   * whether a visit for the feed alone is due (a license only the feed reads is visited once a
   * minute, not every tick). Reads the registry once; guilds whose feed is off or was refused leave it.
   */
  async demand(): Promise<Map<string, FeedDemand>> {
    const now = this.options.clock.now();
    const demand = new Map<string, FeedDemand>();
    const targets = new Map<string, Map<string, Target>>();
    const reading = new Set<string>();
    for (const guildId of await this.options.store.guilds()) {
      const target = await this.#target(guildId);
      if (!target) continue;
      const license = target.shop.license;
      const entry = demand.get(license) ?? { shop: target.shop, servers: new Set<string>(), due: false };
      // A guild whose store webhook posts its purchases reads none itself: it stays a target (what
      // rounds read for open links, and the posts, reach it), but asks for no server.
      if (!(await this.#rests?.(guildId))) {
        reading.add(license);
        for (const serverId of target.servers) entry.servers.add(serverId);
      }
      demand.set(license, entry);
      targets.set(license, (targets.get(license) ?? new Map<string, Target>()).set(guildId, target));
    }
    // The minute's visit is taken only by a license some guild reads for (the first after a rest comes at once).
    for (const license of reading) demand.get(license)!.due = this.#visitDue(license, now);
    this.#targets = targets;
    return demand;
  }

  /** The store webhook's input (wiring/store-webhook.ts): which guilds' feeds rest on its posts. */
  setRests(rests: FeedRests): void {
    this.#rests = rests;
  }

  /** Whether some guild on this license has the feed on (as the last `demand()` found it): a post's purchases are worth asking about. */
  wants(license: string): boolean {
    return (this.#targets.get(license)?.size ?? 0) > 0;
  }

  /**
   * A watcher round on `license` hands over what it read (rows may be none); returns at once. The
   * feed matches them to the guilds of the shop found by the round's `demand()` and posts in each
   * guild on its own, outside the watcher's lock: a slow channel delays nobody's confirmation.
   */
  handOff(license: string, polled: readonly PolledServer[]): void {
    if (polled.length === 0) return;
    // Only the guilds on this very license: a guild on another key of the same shop has its own
    // license in the feed's demand, visited and handed over by itself (the store lists one shop's
    // purchases whichever key asks; the claims keep each posted once). Comparing shops here cost a
    // storage read per pair of licenses a round (2 450 a minute for 50 licenses).
    for (const [guildId, target] of this.#targets.get(license) ?? []) this.#queue.push(guildId, { target, polled: [...polled] });
  }

  /** Resolves when everything handed over is posted (tests; a stopping bot). */
  async settled(): Promise<void> {
    await this.#queue.settled();
  }

  /** Due now (the visit is then taken: the next one a minute later, whatever the round reads). */
  #visitDue(license: string, now: number): boolean {
    if (now < (this.#nextVisit.get(license) ?? 0)) return false;
    this.#nextVisit.set(license, now + FEED_POLL_MS);
    return true;
  }



  async #target(guildId: string): Promise<Target | undefined> {
    const settings = await this.options.settings.get(guildId);
    const feed = settings.purchaseFeed;
    if (!feed || feed.refused) {
      // Switched off, or refused: nothing to read for it any more until a channel is set again.
      await this.options.store.include(guildId, false);
      return undefined;
    }
    const shop = await this.options.stores.forGuild(guildId);
    // The demo shop's purchases are never real: nothing to post.
    if (!shop || shop.source === 'demo') return undefined;
    const hidden = new Set(settings.hiddenServerIds);
    const servers = (await this.#serversOf(shop)).filter((id) => !hidden.has(id));
    return { settings, feed, shop, servers };
  }

  async #serversOf(shop: ShopAccess): Promise<string[]> {
    const cached = shop.offers.peekServers();
    if (cached) {
      const ids = cached.map((server) => server.id);
      this.#serverIds.set(shop.license, ids);
      return ids;
    }
    const known = this.#serverIds.get(shop.license);
    if (known) return known;
    try {
      const ids = (await shop.offers.servers(PAYMENT_WATCH_LANE)).map((server) => server.id);
      this.#serverIds.set(shop.license, ids);
      return ids;
    } catch {
      return [];
    }
  }

  async #publishIn(guildId: string, target: Target, polled: readonly PolledServer[]): Promise<void> {
    const offered = new Set(target.servers);
    const rows = new Map<string, { row: BuyerRow; serverId: string; madeAt: number }>();
    for (const { serverId, rows: listed, madeAt } of polled) {
      // A hidden server's purchases are not posted.
      if (!offered.has(serverId)) continue;
      for (const row of listed) {
        const made = madeAt.get(row.transactionId);
        // A cart purchase listed one row per item is one transaction: its first row names it.
        if (made === undefined || made < target.feed.since || rows.has(row.transactionId)) continue;
        rows.set(row.transactionId, { row, serverId, madeAt: made });
      }
    }
    if (rows.size === 0) return;
    const ordered = [...rows.values()].sort((a, b) => a.madeAt - b.madeAt);
    const wanted = new Set(await this.options.store.claim(guildId, ordered.map(({ row }) => row.transactionId)));
    if (wanted.size === 0) return;
    const purchases: FeedPurchase[] = [];
    for (const { row, serverId, madeAt } of ordered) {
      if (!wanted.has(row.transactionId)) continue;
      purchases.push(await this.#purchase(target, serverId, row, madeAt));
    }
    await this.#post(guildId, target.feed.channelId, purchases);
  }

  /** One purchase as posted: names as listed, and (when the offer still has them) the variant and the product's image. */
  async #purchase(target: Target, serverId: string, row: BuyerRow, madeAt: number): Promise<FeedPurchase> {
    const productName = row.productName ?? '';
    const variantName = row.variantName ?? '';
    const nick = target.settings.purchaseFeedNicks === 'hide' ? undefined : row.nick;
    const found = await findFeedItem(target.shop, serverId, productName, variantName, this.options.logger);
    const gift = (await this.options.isGift?.(target.shop.license, row.transactionId)) ?? false;
    return { transactionId: row.transactionId, productName, variantName, nick, madeAt, ...found, ...(gift ? { gift } : {}) };
  }

  /** A few purchases one message each; a burst listed, FEED_LINES_PER_POST a message; one message at a time (Discord's pace). */
  async #post(guildId: string, channelId: string, purchases: FeedPurchase[]): Promise<void> {
    const groups = purchases.length <= FEED_SINGLE_POSTS ? purchases.map((purchase) => [purchase]) : chunks(purchases, FEED_LINES_PER_POST);
    for (const group of groups) {
      const outcome = await this.options.poster.post({ guildId, channelId, purchases: group });
      if (outcome.kind === 'refused') return this.#refused(guildId, channelId, outcome.reason);
      if (outcome.kind === 'failed') this.options.logger.warn({ guild: guildId, purchases: group.length }, 'purchase feed: a post failed; those purchases are not posted again');
    }
  }

  /** The channel refused the bot: the feed stops (until a channel is set again) and the admins are told, once. */
  async #refused(guildId: string, channelId: string, reason: FeedRefusal): Promise<void> {
    const at = this.options.clock.now();
    let first = false;
    await this.options.settings.update(guildId, (settings) => {
      const feed = settings.purchaseFeed;
      if (!feed || feed.channelId !== channelId || feed.refused) return settings;
      first = true;
      return { ...settings, purchaseFeed: { ...feed, refused: { at, reason } } };
    });
    // Out of the registry: a refused channel costs no more reads (setting a channel again puts it back).
    await this.options.store.include(guildId, false);
    if (!first) return;
    this.options.logger.warn({ guild: guildId, channel: channelId, reason }, 'purchase feed: the channel refused the bot; the feed is stopped until a channel is set again');
    await this.options.poster.refused(guildId, channelId, reason);
  }
}


function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}
