import type { Client } from 'discord.js';
import { RefusedPaymentSteps } from '../services/payment-watch/tell.js';
import type Keyv from 'keyv';
import { adminRoutes } from '../../commands/admin/routes.js';
import { feedPostView } from '../../commands/shop/feed-views.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Coordination, Locks } from '../coordination/coordination.js';
import type { GuildLog } from '../discord/guild-log.js';
import { DiscordMemberRoles, rewardNotices } from '../discord/member-roles.js';
import type { DmChannels } from '../discord/dm-channels.js';
import { LinkDelivery, type LinkDeliveryOptions } from '../discord/payment-links/delivery.js';
import { giftDmListener } from '../discord/payment-links/gift-dm.js';
import { reviewNotices } from '../discord/payment-links/review-posts.js';
import { settledLinkSteps } from '../discord/payment-links/settled-links.js';
import { purchaseFeedPoster } from '../discord/purchase-feed-poster.js';
import type { Logger } from '../logger.js';
import type { BotMetrics } from '../ops/metrics.js';
import type { CartService } from '../services/cart-service.js';
import { CheckoutService } from '../services/checkout-service.js';
import { GiftMessages } from '../services/gift-messages.js';
import { PaymentEvents, type StepHandlers } from '../services/payment-events.js';
import { StaffReviewService } from '../services/payment-watch/review.js';
import { PaymentWatcher } from '../services/payment-watch/watcher.js';
import { PurchaseFeed } from '../services/purchase-feed.js';
import { RoleRewards } from '../services/rewards.js';
import { followGuildDepartures } from '../discord/guild-departures.js';
import type { StoreDirectory } from '../services/store-directory.js';
import { NickUses } from '../storage/nick-uses.js';
import { HeldRoles } from '../storage/held-roles.js';
import { WebsiteBuyerStore } from '../storage/website-buyers.js';
import { OncePerId } from '../storage/once-per-id.js';
import type { Repositories } from './repositories.js';

/**
 * After the Pay button, wired: the payment watcher polls the store, a purchase several members'
 * links could have paid waits for staff, and a settled link's steps are run and recorded by the
 * watcher's outbox (src/services/payment-watch/tell.ts). This part's handlers (buyers' roles, the
 * member's DM, the log post, metrics, the gift message) are returned as `steps`; app.ts adds the
 * store webhook's and the insights' and hands the whole record over at once (PaymentEvents.use).
 * The purchase feed reads what the watcher's polls read.
 */
export function wirePayments(deps: {
  config: Config;
  client: Client;
  keyv: Keyv;
  locks: Locks;
  coordination: Coordination;
  repositories: Repositories;
  directory: StoreDirectory;
  carts: CartService;
  guildLog: GuildLog;
  metrics: BotMetrics;
  clock: Clock;
  logger: Logger;
  linkDelivery: Pick<LinkDeliveryOptions, 'dmWaitMs' | 'dmQueueLimit'> | undefined;
  dmChannels: DmChannels;
  quietWaitMs: number | undefined;
}) {
  const { config, client, keyv, locks, coordination, repositories, directory, guildLog, metrics, clock, logger } = deps;
  const { paymentLinks } = repositories;
  const paymentEvents = new PaymentEvents(logger);
  const purchaseFeed = new PurchaseFeed({
    store: repositories.purchaseFeed,
    settings: repositories.guildSettings,
    stores: directory,
    poster: purchaseFeedPoster(client, guildLog, logger, feedPostView),
    clock,
    logger,
    // A purchase that paid a gift link is posted as "a gift" (the watcher's record of the transaction names its link).
    isGift: async (license, transactionId) => {
      const tx = await repositories.paymentWatch.tx(await directory.shopKey(license), transactionId);
      const link = tx?.link && (await paymentLinks.get(tx.link.guildId, tx.link.linkId));
      return Boolean(link && link.gift);
    },
  });
  const reviews = new StaffReviewService({
    store: repositories.paymentReviews,
    links: paymentLinks,
    watch: repositories.paymentWatch,
    stores: directory,
    events: paymentEvents,
    clock,
    logger,
    notices: reviewNotices(guildLog),
  });
  const payments = new PaymentWatcher({
    review: reviews,
    websiteBuyers: new WebsiteBuyerStore(keyv, logger),
    store: repositories.paymentWatch,
    links: paymentLinks,
    settings: repositories.guildSettings,
    stores: directory,
    coordination,
    events: paymentEvents,
    clock,
    logger,
    pollSeconds: config.PAYMENT_POLL_SECONDS,
    feed: purchaseFeed,
    ...(deps.quietWaitMs !== undefined ? { quietWaitMs: deps.quietWaitMs } : {}),
  });
  const nickUses = new NickUses(keyv, logger, locks);
  const checkout = new CheckoutService({ carts: deps.carts, nicks: repositories.nicks, checkoutTimes: repositories.checkoutTimes, paymentLinks, clock, logger, payments });
  const delivery = new LinkDelivery({ client, dmChannels: deps.dmChannels, logger, records: checkout, clock, metrics, ...deps.linkDelivery });
  const rewards = new RoleRewards({
    repository: repositories.rewards,
    ends: repositories.roleWorkEnds,
    roles: new DiscordMemberRoles(client, (guildId) => guildLog.localeFor(guildId), logger),
    notices: rewardNotices(guildLog, (linkId, roleId) => adminRoutes.giveRole.build(undefined, { link: linkId, role: roleId })),
    nicks: nickUses,
    links: paymentLinks,
    held: new HeldRoles(keyv, logger, locks),
    clock,
    logger,
    counters: {
      granted: () => metrics.rolesGranted.inc(),
      removed: () => metrics.rolesRemoved.inc(),
      failed: (action, problem) => metrics.roleFailures.inc({ action, problem }),
    },
  });
  const settledSteps = settledLinkSteps({ client, delivery, guildLog, metrics, posted: new OncePerId(keyv, 'pay-posted', locks), logger, rolesHeld: (link) => rewards.heldFor(link.guildId, link.id) });
  const gifts = new GiftMessages(keyv, repositories.guildSettings, locks);
  // The watcher records each step when done and offers one that failed again (tell.ts); they run in PAYMENT_STEPS' order.
  const steps = {
    // Before the DM: the paid DM says when a role waits for staff (held-roles.ts).
    roles: (event) => rewards.onPayment(event),
    ...settledSteps,
    // The recipient of a paid gift is told once (src/discord/payment-links/gift-dm.ts).
    gift: giftDmListener({ client, gifts, guildLog, logger }),
  } satisfies Partial<StepHandlers>;
  // A step Discord refused for good, told once: the log channel and the next /shop-admin status.
  const refusedSteps = new RefusedPaymentSteps({
    store: repositories.paymentStepRefusals,
    clock,
    post: (guildId, refused) => guildLog.post(guildId, { kind: 'payment-step-refused', ...refused }),
  });
  paymentEvents.onRefused((event, step, reason) => refusedSteps.tell(event, step, reason));
  followGuildDepartures(client, rewards, logger);
  return { paymentEvents, steps, purchaseFeed, reviews, payments, checkout, delivery, gifts, rewards, refusedSteps };
}
