import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { BuyerRow } from '../spaceis/client.js';
import { PAYMENT_WATCH_LANE } from '../spaceis/gate-rules.js';
import type { GuildSettings, GuildSettingsRepository } from '../storage/guild-settings.js';
import type { PurchaseFeedStore } from '../storage/purchase-feed.js';
import { shortRef } from './short-ref.js';
import type { ShopAccess, StoreDirectory } from './store-directory.js';

/**
 * The purchase feed: every purchase the shop lists for a server a guild offers is posted in the
 * guild's feed channel (/shop-admin settings purchase-feed-channel:). Its source is the payment
 * watcher's poll of latest_buyers (src/services/payment-watch/watcher.ts): a guild with the feed on
 * makes its offered servers due once a minute (FEED_POLL_MS) even with no open link, and every
 * round hands what it read here (`publish`), inside the license's runAlone.
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

/** Where a purchase's variant is in today's offer, as the Buy button carries it (short references). */
export interface FeedItem {
  server: string;
  category: string;
  product: string;
  variant: string;
}

export interface FeedPurchase {
  transactionId: string;
  productName: string;
  variantName: string;
  /** undefined when the guild hides nicks (or the store listed none): "a player". */
  nick: string | undefined;
  madeAt: number;
  /** Absent when the names were not found in the offer: no Buy button then. */
  item?: FeedItem;
  /** The product's image as the store gives it; the post shows it only when Discord can (picture() in the view). */
  imageUrl?: string;
}

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
  stores: Pick<StoreDirectory, 'forGuild' | 'sameShop'>;
  poster: FeedPoster;
  clock: Clock;
  logger: Logger;
}

interface Target {
  settings: GuildSettings;
  feed: NonNullable<GuildSettings['purchaseFeed']>;
  shop: ShopAccess;
  servers: string[];
}

export class PurchaseFeed {
  /** The server ids last seen per license: the feed reads the list from the store only when nobody has it cached. */
  readonly #serverIds = new Map<string, string[]>();

  constructor(private readonly options: PurchaseFeedOptions) {}

  /** Per license, the servers guilds with the feed on offer (what a watcher round must read). */
  async demand(): Promise<Map<string, FeedDemand>> {
    const demand = new Map<string, FeedDemand>();
    for (const guildId of await this.options.store.guilds()) {
      const target = await this.#target(guildId);
      if (!target) continue;
      const entry = demand.get(target.shop.license) ?? { shop: target.shop, servers: new Set<string>() };
      for (const serverId of target.servers) entry.servers.add(serverId);
      demand.set(target.shop.license, entry);
    }
    return demand;
  }

  /** Posts the new purchases of a watcher round on `license` in every guild whose feed shows them. */
  async publish(license: string, polled: readonly PolledServer[]): Promise<void> {
    if (polled.length === 0) return;
    for (const guildId of await this.options.store.guilds()) {
      try {
        const target = await this.#target(guildId);
        if (!target) continue;
        if (target.shop.license !== license && !(await this.options.stores.sameShop(license, target.shop.license))) continue;
        await this.#publishIn(guildId, target, polled);
      } catch (error) {
        this.options.logger.warn({ err: error, guild: guildId }, 'purchase feed: could not post this round; the next round tries again');
      }
    }
  }

  async #target(guildId: string): Promise<Target | undefined> {
    const settings = await this.options.settings.get(guildId);
    const feed = settings.purchaseFeed;
    if (!feed || feed.refused) return undefined;
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
    const found = await this.#find(target.shop, serverId, productName, variantName);
    return { transactionId: row.transactionId, productName, variantName, nick, madeAt, ...found };
  }

  /**
   * latest_buyers names a purchase's product and variant, never their ids: they are looked up by
   * name in the server's offer (the offer cache). Not found (renamed, removed, a name shared by two
   * products in a way that does not settle it): the post goes out without a Buy button, and
   * without a thumbnail when the product itself is not found.
   */
  async #find(shop: ShopAccess, serverId: string, productName: string, variantName: string): Promise<Pick<FeedPurchase, 'item' | 'imageUrl'>> {
    try {
      const offer = shop.offers.peekServer(serverId) ?? (await shop.offers.server(serverId, PAYMENT_WATCH_LANE));
      for (const category of offer.categories) {
        const product = category.products.find((candidate) => sameName(candidate.name, productName));
        if (!product) continue;
        const image = product.imageUrl ? { imageUrl: product.imageUrl } : {};
        const { variants } = shop.offers.peekVariants(serverId, category.id, product.id) ?? (await shop.offers.variants(serverId, category.id, product.id, PAYMENT_WATCH_LANE));
        const variant = variants.find((candidate) => sameName(candidate.name, variantName));
        if (!variant) return image;
        return { ...image, item: { server: shortRef(serverId), category: shortRef(category.id), product: shortRef(product.id), variant: shortRef(variant.id) } };
      }
    } catch (error) {
      this.options.logger.debug({ err: error }, 'purchase feed: the offer could not be read; posted without a Buy button');
    }
    return {};
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
    if (!first) return;
    this.options.logger.warn({ guild: guildId, channel: channelId, reason }, 'purchase feed: the channel refused the bot; the feed is stopped until a channel is set again');
    await this.options.poster.refused(guildId, channelId, reason);
  }
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase() && b.trim() !== '';
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}
