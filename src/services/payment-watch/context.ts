import type { Clock } from '../../clock.js';
import type { Coordination } from '../../coordination/coordination.js';
import type { Logger } from '../../logger.js';
import type { GuildSettingsRepository } from '../../storage/guild-settings.js';
import type { ShopLicenses } from './shop-licenses.js';
import type { PaymentLink, PaymentLinkRepository } from '../../storage/payment-links.js';
import type { PaymentWatchStore, TxState, WatchState } from '../../storage/payment-watch.js';
import type { WebsiteBuyerStore } from '../../storage/website-buyers.js';
import type { PaymentEvents } from '../payment-events.js';
import type { PolledServer, PurchaseFeed } from '../purchase-feed.js';
import type { ShopAccess, StoreDirectory } from '../store-directory.js';
import type { ReviewReason, SeenTransaction, WatchedLink } from './matcher.js';

/** What the payment watcher is built with (app.ts wires it: src/wiring/payments.ts). */
export interface PaymentWatcherOptions {
  store: PaymentWatchStore;
  /** `listForMemberSince`: a member's recent links, for the signs of a copycat (member-history.ts); without it (older tests) none are read. */
  links: Pick<PaymentLinkRepository, 'get' | 'getEach' | 'update'> & Partial<Pick<PaymentLinkRepository, 'listForMemberSince'>>;
  settings: Pick<GuildSettingsRepository, 'get'>;
  stores: Pick<StoreDirectory, 'forGuild' | 'sameShop' | 'shopKey'>;
  coordination: Pick<Coordination, 'runAlone'>;
  events: Pick<PaymentEvents, 'steps' | 'run' | 'refused'>;
  clock: Clock;
  logger: Logger;
  /** PAYMENT_POLL_SECONDS: how often each server is polled while its license has open links. */
  pollSeconds: number;
  /** The purchase feed: the servers it wants read (once a minute), and every round's rows, handed over (it posts on its own). */
  feed?: Pick<PurchaseFeed, 'demand' | 'handOff'>;
  /** Where a purchase several members' links could have paid waits for staff (review.ts). */
  review?: { raise(transaction: SeenTransaction, candidates: readonly OpenLink[], reason?: ReviewReason): Promise<void> };
  /** Nicks seen buying outside the bot, per shop (website-buyers.ts): a link with one never settles by itself. */
  websiteBuyers?: Pick<WebsiteBuyerStore, 'note' | 'lastSeen'>;
  /** How long a round waits for the license's gate to be quiet before skipping it (QUIET_WAIT_MS; tests shorten it). */
  quietWaitMs?: number;
}

/** What every part of the watcher is given: its options, and what watcher.ts adds to them. */
export interface WatchDeps extends Omit<PaymentWatcherOptions, 'pollSeconds' | 'quietWaitMs'> {
  pollMs: number;
  /** Resolves true when the license's gate would take a background request now (false: skip this round). */
  quiet(shop: ShopAccess, license: string): Promise<boolean>;
  stopping(): boolean;
  /** StoreDirectory.shopKey, remembered for a while (the shop's other keys are looked up at each decision). */
  shopKeyOf(license: string): Promise<string>;
  /** The other licenses (keys) of a shop, noted as rounds meet them (shop-licenses.ts). */
  shopLicenses: Pick<ShopLicenses, 'note' | 'others'>;
  /** The poll interval for the servers of a license's open links, when something other than `pollMs` decides it (PaymentWatcher.setPollIntervalFor). */
  pollIntervalFor?: PollIntervalFor;
  /** The store confirmed a transaction a guild's webhook posted (its health counts it: PaymentWatcher.setPostConfirmed). */
  postConfirmed?: (guildId: string, transactionId: string) => Promise<void>;
}

/**
 * The one outside input to the watcher's schedule: how often (ms) the servers of this license's open
 * links are polled, given the guilds of those links; undefined: every `pollMs`. The store's purchase
 * webhook gives it (src/services/store-webhook/health.ts: every 5 minutes while it is healthy).
 */
export type PollIntervalFor = (license: string, guildIds: readonly string[]) => Promise<number | undefined>;

/** An open link as the watcher matches it: its record's fields, and until when it is watched. */
export interface OpenLink extends WatchedLink {
  userId: string;
  serverIds: string[];
  until: number;
  record: PaymentLink;
}

/** One license's round: what it reads once and passes around. */
export interface LicenseRound {
  deps: WatchDeps;
  license: string;
  /** The key transactions are kept under: the shop's, so a rotated key finds them (see watcher.ts). */
  shop: string;
  access: ShopAccess;
  state: WatchState;
  /** The state as read, to write it only when it changed. */
  readAs: string;
  /** Work taken from the license's inbox (storage/payment-watch.ts), cleared once the state holding it is saved. */
  inboxTaken?: string[];
  open: OpenLink[];
  /** When the open links were read (a transaction made after it is looked for again before it is set aside). */
  openReadAt: number;
  log: Logger;
  /** What this round read, for the purchase feed (when it wants this license). */
  polled: PolledServer[];
}

export type { TxState };
