import type { Clock } from './clock.js';
import type { JobRunner } from './services/jobs/runner.js';
import type { GuildLog } from './discord/guild-log.js';
import type { LinkDelivery } from './discord/payment-links/delivery.js';
import type { Logger } from './logger.js';
import type { BotMetrics } from './ops/metrics.js';
import type { SecretBox } from './security/secret-box.js';
import type { CartService } from './services/cart-service.js';
import type { CheckoutService } from './services/checkout-service.js';
import type { GuildSetup } from './services/guild-setup.js';
import type { GiftMessages } from './services/gift-messages.js';
import type { LinkCheck } from './services/link-check.js';
import type { PaymentLinks } from './services/payment-links.js';
import type { RoleRewards } from './services/rewards.js';
import type { StoreDirectory } from './services/store-directory.js';
import type { CartRepository } from './storage/carts.js';
import type { CheckoutTimes } from './storage/checkout-times.js';
import type { GuildSettingsRepository } from './storage/guild-settings.js';
import type { NickRepository } from './storage/nicks.js';
import type { PaymentLinkRepository } from './storage/payment-links.js';
import type { PaymentWatchStore } from './storage/payment-watch.js';
import type { PaymentEvents } from './services/payment-events.js';
import type { PaymentWatcher } from './services/payment-watch/watcher.js';
import type { StaffReviewService } from './services/payment-watch/review.js';
import type { PaymentReviewStore } from './storage/payment-reviews.js';
import type { RoleRewardRepository } from './storage/role-rewards.js';
import type { RoleWorkEnds } from './storage/role-work-ends.js';
import type { PaymentStepRefusals } from './storage/payment-step-refusals.js';
import type { RefusedPaymentSteps } from './services/payment-watch/tell.js';
import type { ShopCommunity } from './services/community.js';
import type { PanelRefresher } from './services/panel-refresh.js';
import type { InsightsDigestStore } from './storage/insights-digest.js';
import type { PurchaseFeedStore } from './storage/purchase-feed.js';
import type { PurchaseFeed } from './services/purchase-feed.js';
import type { VoucherService } from './services/vouchers.js';
import type { VoucherAttempts } from './storage/voucher-attempts.js';
import type { StoreWebhookConnections } from './services/store-webhook/connections.js';
import type { Insights } from './services/insights/insights.js';

/** The repositories: what the services above are built on. */
export interface BotStorage {
  carts: CartRepository;
  nicks: NickRepository;
  checkoutTimes: CheckoutTimes;
  guildSettings: GuildSettingsRepository;
  paymentLinks: PaymentLinkRepository;
  /** What the payment watcher keeps: open links per license, its schedule, handled transactions. */
  paymentWatch: PaymentWatchStore;
  /** Purchases waiting for staff: one record per transaction, a list per guild, the log post made once. */
  paymentReviews: PaymentReviewStore;
  /** Roles for buyers: the rewards admins set, and the timed grants. */
  rewards: RoleRewardRepository;
  /** Where role work ends for good: guilds the bot left, removals Discord refused. */
  roleWorkEnds: RoleWorkEnds;
  /** A settled payment's Discord steps Discord refused for good, per guild, until /shop-admin status shows them once. */
  paymentStepRefusals: PaymentStepRefusals;
  /** The purchase feed's registry of guilds and the transactions it posted per guild. */
  purchaseFeed: PurchaseFeedStore;
  /** The weekly insights digest's registry of guilds and its weekly claims. */
  insightsDigest: InsightsDigestStore;
  /** Recent voucher attempts per member and guild: the limits against guessing codes. */
  voucherAttempts: VoucherAttempts;
}

/**
 * Everything a handler may use, built once by the composition root (app.ts). Services below the
 * handlers take only the parts they use, never this whole object.
 */
export interface BotServices {
  logger: Logger;
  /** The background jobs (payment rounds, role expiry, pruner, panels, webhook reload): `status()`, and `runNow(name)` for tests and the bench. */
  jobs: JobRunner;
  clock: Clock;
  stores: StoreDirectory;
  /** Follows the payments of issued links at the store (its rounds: `tick()`), and says whether it can for a license. */
  payments: PaymentWatcher;
  /** The purchase feed: posts what the watcher's rounds hand over, outside them (`settled()`: all of it posted). */
  feed: PurchaseFeed;
  /** Where settled payments are told: the DM and log listener is registered by app.ts; others (buyers' roles) may add theirs. */
  paymentEvents: PaymentEvents;
  /** A settled payment's Discord steps Discord refused for good: told once in the log channel, and `take`n by /shop-admin status. */
  refusedSteps: RefusedPaymentSteps;
  /** Purchases several members' links could have paid, waiting for a moderator to choose the link (who paid is a guess). */
  reviews: StaffReviewService;
  /** Every change to a member's cart (lock, rules, expiry, license check, side effects). */
  carts: CartService;
  /** The nick, the payment link for a cart, and the record of where it was delivered. */
  checkout: CheckoutService;
  /** Payment links as members and moderators use them: their own, a member's, a withdrawal. */
  links: PaymentLinks;
  /** "Check payment link" for every member: whether the URLs in a message are the bot's own, with its per-member limit. */
  linkCheck: LinkCheck;
  /** The gift DM's rules (guild setting, members' opt-out, once per link) and "Don't send me gift messages". */
  gifts: GiftMessages;
  /** The admins' changes to the guild's settings: license, demo, panel, servers, settings. */
  setup: GuildSetup;
  /** Roles for buyers: the guild's rewards, roles given for paid links, timed ones taken back when due. */
  rewards: RoleRewards;
  /** Goals, top supporters and latest purchases the shop publishes (read leniently; a 404 switches one off for a while). */
  community: ShopCommunity;
  /** Keeps the shop panels' goals current (its rounds: `tick()`), and notes what a freshly posted panel shows. */
  panels: PanelRefresher;
  /** Voucher codes: a member redeems one for a nick (with the limits against guessing); admins generate them. */
  vouchers: VoucherService;
  /** The store's purchase webhook per guild (docs/store-webhook.md): connect, disconnect, status; the reader of its posts. */
  storeWebhooks: StoreWebhookConnections;
  /** What members did with the shop through this bot, counted without naming anyone (`counting`), and the admins' report. */
  insights: Insights;
  /** The repositories under the services: the router reads settings through them, tests seed them; commands/ never (test/unit/architecture.test.ts). */
  storage: BotStorage;
  guildLog: GuildLog;
  /** Takes payment links to their buyers: the DM, or the reply when DMs are closed or slow. */
  delivery: LinkDelivery;
  /** Seals guilds' license keys; undefined when ENCRYPTION_KEY is not configured. */
  secretBox: SecretBox | undefined;
  /** Which storage adapter is in use, for the admins' status page. */
  storageBackend: string;
  /** The operator's metrics (GET /metrics when HEALTH_PORT is set). */
  metrics: BotMetrics;
  /** Whether storage can be written and read right now, for the admins' status page. */
  storageWorks: () => Promise<boolean>;
}
