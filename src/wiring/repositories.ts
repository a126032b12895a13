import type Keyv from 'keyv';
import type { Clock } from '../clock.js';
import type { Coordination, Locks } from '../coordination/coordination.js';
import type { Logger } from '../logger.js';
import { CartRepository } from '../storage/carts.js';
import { CheckoutTimes } from '../storage/checkout-times.js';
import type { GuildSettingsRepository } from '../storage/guild-settings.js';
import { NickRepository } from '../storage/nicks.js';
import type { SecretBox } from '../security/secret-box.js';
import { PaymentLinkRepository } from '../storage/payment-links.js';
import { PaymentStepRefusals } from '../storage/payment-step-refusals.js';
import { PaymentReviewStore } from '../storage/payment-reviews.js';
import { PaymentWatchStore } from '../storage/payment-watch.js';
import { InsightsDigestStore } from '../storage/insights-digest.js';
import { PurchaseFeedStore } from '../storage/purchase-feed.js';
import { RoleRewardRepository } from '../storage/role-rewards.js';
import { RoleWorkEnds } from '../storage/role-work-ends.js';
import { VoucherAttempts } from '../storage/voucher-attempts.js';

/**
 * The repositories over the one Keyv store (services.storage): each takes the locks storage work
 * runs under (in this process on SQLite, through Redis when processes share it).
 */
export function openRepositories(deps: { keyv: Keyv; logger: Logger; locks: Locks; clock: Clock; redis: Coordination['redis']; guildSettings: GuildSettingsRepository; secretBox: SecretBox | undefined }) {
  const { keyv, logger, locks, clock, redis, guildSettings, secretBox } = deps;
  return {
    carts: new CartRepository(keyv, logger),
    nicks: new NickRepository(keyv),
    checkoutTimes: new CheckoutTimes(keyv),
    guildSettings,
    paymentLinks: new PaymentLinkRepository(keyv, logger, locks, secretBox),
    paymentWatch: new PaymentWatchStore(keyv, logger, locks),
    paymentReviews: new PaymentReviewStore(keyv, logger, locks),
    rewards: new RoleRewardRepository(keyv, logger, locks),
    roleWorkEnds: new RoleWorkEnds(keyv, logger, locks),
    paymentStepRefusals: new PaymentStepRefusals(keyv, logger, locks),
    purchaseFeed: new PurchaseFeedStore(keyv, logger, locks),
    insightsDigest: new InsightsDigestStore(keyv, logger, locks),
    voucherAttempts: new VoucherAttempts(keyv, redis, () => clock.now()),
  };
}

export type Repositories = ReturnType<typeof openRepositories>;
