import type { Clock } from '../../clock.js';
import type { PaymentLink } from '../../storage/payment-link-record.js';
import { MAX_REWARDS_PER_GUILD, REWARD_DAYS, type Reward, type RoleRewardRepository } from '../../storage/role-rewards.js';
import { shortRef } from '../short-ref.js';
import type { EarnedRole, RewardItem } from './types.js';

/**
 * A guild's rewards as the admins keep them: which role a product (or one variant) earns, for how
 * long. Who may add one, and which roles may be rewards at all, is Discord's business and checked
 * by the command (commands/admin/rewards.ts) before `add`; granting checks the role again (granting.ts).
 */

export type AddRewardResult = { kind: 'added'; reward: Reward; replaced: Reward | undefined; rewards: Reward[] } | { kind: 'full' };

export class RewardList {
  constructor(
    private readonly repository: RoleRewardRepository,
    private readonly clock: Clock,
  ) {}

  list(guildId: string): Promise<Reward[]> {
    return this.repository.rewards(guildId);
  }

  /**
   * A role for buyers of `item`, for `days` or for good. The same item and role again replaces the
   * reward (its days change); a guild holds at most MAX_REWARDS_PER_GUILD.
   */
  async add(guildId: string, input: { item: RewardItem; roleId: string; days: number | null; by: string }): Promise<AddRewardResult> {
    const days = input.days === null ? null : Math.min(REWARD_DAYS.max, Math.max(REWARD_DAYS.min, Math.trunc(input.days)));
    const reward: Reward = { id: rewardId(input.item, input.roleId), ...input.item, roleId: input.roleId, days, addedBy: input.by, addedAt: this.clock.now() };
    let replaced: Reward | undefined;
    let full = false;
    const { after } = await this.repository.updateRewards(guildId, (current) => {
      replaced = current.find((other) => other.id === reward.id);
      if (!replaced && current.length >= MAX_REWARDS_PER_GUILD) {
        full = true;
        return undefined;
      }
      return replaced ? current.map((other) => (other.id === reward.id ? reward : other)) : [...current, reward];
    });
    if (full) return { kind: 'full' };
    return { kind: 'added', reward, replaced, rewards: after };
  }

  /** Removes a reward; members who have its role keep it (a timed one still ends when due). Undefined when there was none. */
  async remove(guildId: string, id: string): Promise<{ removed: Reward; rewards: Reward[] } | undefined> {
    let removed: Reward | undefined;
    const { after } = await this.repository.updateRewards(guildId, (current) => {
      removed = current.find((reward) => reward.id === id);
      return removed ? current.filter((reward) => reward.id !== id) : undefined;
    });
    return removed && { removed, rewards: after };
  }
}

/**
 * The roles a paid link's items earn. A reward counts each matching item's quantity (2 × "VIP 30
 * days" earns 60 days); a role earned by several rewards is given once, for good if any says so,
 * else for the longest. Items recorded without their product id (older links) match variant rewards only.
 */
export function earnedRoles(rewards: readonly Reward[], items: readonly PaymentLink['items'][number][]): EarnedRole[] {
  const byRole = new Map<string, number | null>();
  for (const reward of rewards) {
    const quantity = items
      .filter((item) => (reward.variantId ? item.variantId === reward.variantId : item.productId === reward.productId))
      .reduce((sum, item) => sum + item.quantity, 0);
    if (quantity === 0) continue;
    const days = reward.days === null ? null : reward.days * quantity;
    const before = byRole.get(reward.roleId);
    if (before === undefined) byRole.set(reward.roleId, days);
    else byRole.set(reward.roleId, before === null || days === null ? null : Math.max(before, days));
  }
  return [...byRole].map(([roleId, days]) => ({ roleId, days }));
}

/** The same id for the same item and role: adding them again replaces the reward. */
export function rewardId(item: Pick<RewardItem, 'productId' | 'variantId'>, roleId: string): string {
  return shortRef(`${item.productId}\n${item.variantId ?? ''}\n${roleId}`);
}

export { MAX_REWARDS_PER_GUILD, REWARD_DAYS };
