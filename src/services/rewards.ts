import type { Clock } from '../clock.js';
import type { Coordination } from '../coordination/coordination.js';
import type { Logger } from '../logger.js';
import type { Product, Variant } from '../spaceis/schemas.js';
import type { PaymentLink } from '../storage/payment-link-record.js';
import { dayOf } from '../storage/payment-link-record.js';
import {
  MAX_REWARDS_PER_GUILD,
  REWARD_DAYS,
  type ExpiryEntry,
  type Reward,
  type RoleGrant,
  type RoleRewardRepository,
} from '../storage/role-rewards.js';
import type { OfferReader } from './catalog.js';
import { readItemRef } from './offer-search.js';
import type { SettledPayment } from './payment-events.js';
import { scheduleJob, type ScheduledJob } from './scheduled-job.js';
import { shortRef } from './short-ref.js';

export { MAX_REWARDS_PER_GUILD, REWARD_DAYS, type Reward } from '../storage/role-rewards.js';

/**
 * Roles for buyers: a guild's admins say which role a product (or one of its variants) earns,
 * optionally for some days. When a link is paid (PaymentEvents), the member who checked out gets
 * each matching role, once per link and role; a timed role is taken back when its time is up by a
 * pass that runs once across processes. Below Discord: the roles are given and taken through
 * `MemberRoles`, and what the admins must fix is told through `RewardNotices` (both in src/discord/).
 */

const DAY_MS = 86_400_000;

/** Why Discord would not give or take a role, as the admins must hear it. */
export type RoleProblem =
  /** The member is not in the server any more. */
  | 'member-left'
  /** The bot has neither Manage Roles nor Administrator. */
  | 'no-manage-roles'
  /** The role is not below the bot's highest role. */
  | 'role-above-bot'
  /** Discord or an integration gives this role: nobody else can. */
  | 'role-managed'
  /** @everyone: every member has it. */
  | 'role-everyone'
  /** The role was deleted. */
  | 'role-gone'
  /** Discord said no without a reason the bot could find (Missing Permissions all the same). */
  | 'refused'
  /** Discord did not answer (a timeout, a network failure, a 5xx). */
  | 'unreachable';

export type RoleAnswer<T> = { ok: true; value: T } | { ok: false; problem: RoleProblem };

/** Why a role changes, for the audit log: a paid link (for so many days, or for good), or its time being up. */
export type RoleReason = { kind: 'bought'; linkId: string; days: number | null } | { kind: 'ended'; linkId: string };

/** The member's roles in Discord (src/discord/member-roles.ts). */
export interface MemberRoles {
  /** Whether the member holds the role now (`member-left` when they are not in the server). */
  holds(guildId: string, userId: string, roleId: string): Promise<RoleAnswer<boolean>>;
  add(guildId: string, userId: string, roleId: string, reason: RoleReason): Promise<RoleAnswer<void>>;
  remove(guildId: string, userId: string, roleId: string, reason: RoleReason): Promise<RoleAnswer<void>>;
}

/** What the admins are told in the log channel: once per failure, with what to fix. */
export interface RewardNotices {
  grantFailed(failure: { guildId: string; userId: string; roleId: string; linkId: string; problem: RoleProblem }): Promise<void>;
  removalFailed(failure: { guildId: string; userId: string; roleId: string; problem: RoleProblem }): Promise<void>;
}

/** The operator's counters (src/ops/metrics.ts). */
export interface RewardCounters {
  granted(): void;
  removed(): void;
  failed(action: 'grant' | 'remove', problem: RoleProblem): void;
}

/** What a reward is for, found in the offer: a product, or one of its variants. */
export interface RewardItem {
  productId: string;
  variantId?: string;
  serverName: string;
  productName: string;
  variantName?: string;
}

export type AddRewardResult = { kind: 'added'; reward: Reward; replaced: Reward | undefined; rewards: Reward[] } | { kind: 'full' };

/** One role a paid link earns: for good (`days` null) or for so many days. */
export interface EarnedRole {
  roleId: string;
  days: number | null;
}

export interface RoleRewardsOptions {
  repository: RoleRewardRepository;
  roles: MemberRoles;
  notices: RewardNotices;
  clock: Clock;
  logger: Logger;
  counters?: RewardCounters;
}

export class RoleRewards {
  readonly #repository: RoleRewardRepository;
  readonly #roles: MemberRoles;
  readonly #notices: RewardNotices;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #counters: RewardCounters | undefined;

  constructor(options: RoleRewardsOptions) {
    this.#repository = options.repository;
    this.#roles = options.roles;
    this.#notices = options.notices;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#counters = options.counters;
  }

  list(guildId: string): Promise<Reward[]> {
    return this.#repository.rewards(guildId);
  }

  /**
   * A role for buyers of `item`, for `days` or for good. The same item and role again replaces the
   * reward (its days change); a guild holds at most MAX_REWARDS_PER_GUILD.
   */
  async add(guildId: string, input: { item: RewardItem; roleId: string; days: number | null; by: string }): Promise<AddRewardResult> {
    const days = input.days === null ? null : Math.min(REWARD_DAYS.max, Math.max(REWARD_DAYS.min, Math.trunc(input.days)));
    const reward: Reward = {
      id: rewardId(input.item, input.roleId),
      ...input.item,
      roleId: input.roleId,
      days,
      addedBy: input.by,
      addedAt: this.#clock.now(),
    };
    let replaced: Reward | undefined;
    let full = false;
    const { after } = await this.#repository.updateRewards(guildId, (current) => {
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
  async remove(guildId: string, rewardId: string): Promise<{ removed: Reward; rewards: Reward[] } | undefined> {
    let removed: Reward | undefined;
    const { after } = await this.#repository.updateRewards(guildId, (current) => {
      removed = current.find((reward) => reward.id === rewardId);
      return removed ? current.filter((reward) => reward.id !== rewardId) : undefined;
    });
    return removed && { removed, rewards: after };
  }

  /**
   * A settled payment: when paid, the member who checked out gets each role the link's items earn.
   * Each (link, role) is handled once, whatever the watcher sends: a stored marker says it was.
   */
  async onPayment(event: SettledPayment): Promise<void> {
    if (event.status !== 'paid') return;
    const { link } = event;
    const earned = earnedRoles(await this.#repository.rewards(link.guildId), link.items);
    for (const role of earned) await this.#grant(link, role);
  }

  async #grant(link: PaymentLink, earned: EarnedRole): Promise<void> {
    const { guildId, userId } = link;
    const { roleId } = earned;
    const log = this.#logger.child({ guild: guildId, user: userId, role: roleId, link: link.id });
    await this.#repository.withGrant(guildId, userId, roleId, async () => {
      if (await this.#repository.marker(guildId, link.id, roleId)) {
        log.debug('role for this paid link already handled');
        return;
      }
      const now = this.#clock.now();
      const fail = async (problem: RoleProblem) => {
        await this.#repository.mark(guildId, link.id, roleId, { at: now, outcome: 'failed' });
        this.#counters?.failed('grant', problem);
        log.warn({ problem }, 'could not give a buyer their role; told the log channel, not retried');
        await this.#notices.grantFailed({ guildId, userId, roleId, linkId: link.id, problem });
      };

      const held = await this.#roles.holds(guildId, userId, roleId);
      if (!held.ok) return fail(held.problem);
      const current = await this.#repository.grant(guildId, userId, roleId);
      // A role the member has that the bot never gave (given by hand) is theirs: never timed, never taken back.
      if (held.value && !current) {
        await this.#repository.mark(guildId, link.id, roleId, { at: now, outcome: 'held' });
        log.info('buyer already had the role, not from the bot; left as it is');
        return;
      }
      const next = nextGrant(current, earned.days, now, link.id);
      // Written before Discord is asked: a crash in between leaves a grant that ends on time, never a timed role kept for good.
      await this.#repository.saveGrant(guildId, userId, roleId, next, { at: now, outcome: 'granted' });
      if (!held.value) {
        const added = await this.#roles.add(guildId, userId, roleId, { kind: 'bought', linkId: link.id, days: earned.days });
        if (!added.ok) {
          await this.#repository.restoreGrant(guildId, userId, roleId, current);
          return fail(added.problem);
        }
      }
      this.#counters?.granted();
      log.info({ expiresAt: next.expiresAt, extended: held.value }, held.value ? 'buyer role extended' : 'buyer role given');
    });
  }

  /**
   * Takes back every timed role whose time is up. Each grant is read again under its lock, so a role
   * extended meanwhile stays, and two passes (two processes) never take one role twice. A removal
   * Discord refuses is told to the admins once and given up (they remove the role by hand); one
   * Discord did not answer is tried again at the next pass.
   */
  async removeDue(): Promise<{ removed: number; failed: number }> {
    const now = this.#clock.now();
    let removed = 0;
    let failed = 0;
    for (const { day, entries } of await this.#repository.dueDays(now)) {
      const handled: ExpiryEntry[] = [];
      for (const entry of entries) {
        const outcome = await this.#removeIfDue(entry, day, now);
        if (outcome === 'removed') removed++;
        if (outcome === 'failed') failed++;
        if (outcome !== 'later') handled.push(entry);
      }
      await this.#repository.dropFromDay(day, handled);
    }
    return { removed, failed };
  }

  async #removeIfDue([guildId, userId, roleId]: ExpiryEntry, day: string, now: number): Promise<'removed' | 'failed' | 'gone' | 'later'> {
    return this.#repository.withGrant(guildId, userId, roleId, async () => {
      const grant = await this.#repository.grant(guildId, userId, roleId);
      // Gone, made permanent, or extended into another day (indexed there): nothing to do on this day.
      if (!grant || grant.expiresAt === null || dayOf(grant.expiresAt) !== day) return 'gone';
      if (grant.expiresAt > now) return 'later';
      const log = this.#logger.child({ guild: guildId, user: userId, role: roleId, link: grant.linkId });
      const answer = await this.#roles.remove(guildId, userId, roleId, { kind: 'ended', linkId: grant.linkId });
      if (answer.ok) {
        await this.#repository.deleteGrant(guildId, userId, roleId);
        this.#counters?.removed();
        log.info('timed buyer role ended and was removed');
        return 'removed';
      }
      if (answer.problem === 'unreachable') {
        log.warn('Discord did not answer while removing an ended role; trying again at the next pass');
        return 'later';
      }
      await this.#repository.deleteGrant(guildId, userId, roleId);
      // Nothing left to take: the member left, or the role was deleted.
      if (answer.problem === 'member-left' || answer.problem === 'role-gone') {
        log.info({ problem: answer.problem }, 'ended role had nothing left to remove');
        return 'gone';
      }
      this.#counters?.failed('remove', answer.problem);
      log.warn({ problem: answer.problem }, 'could not remove an ended buyer role; told the log channel, not retried');
      await this.#notices.removalFailed({ guildId, userId, roleId, problem: answer.problem });
      return 'failed';
    });
  }
}

/** The grant after a paid link: for good stays for good; a timed one runs on from its end if it has not ended yet. */
export function nextGrant(current: RoleGrant | undefined, days: number | null, now: number, linkId: string): RoleGrant {
  if (days === null || current?.expiresAt === null) return { expiresAt: null, grantedAt: now, linkId };
  const from = current && current.expiresAt > now ? current.expiresAt : now;
  return { expiresAt: from + days * DAY_MS, grantedAt: now, linkId };
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

/**
 * The product (and variant) an admin chose in `/shop-admin rewards add`: a suggestion's reference
 * (`p:<s>.<c>.<p>`, as `/shop item:` uses), or a product's exact name. `variant` is a variant's short
 * reference or exact name within that product. Every server of the license is searched, hidden ones too.
 */
export async function findRewardItem(
  reader: OfferReader,
  productInput: string,
  variantInput: string | null,
): Promise<{ kind: 'found'; item: RewardItem } | { kind: 'no-product' } | { kind: 'no-variant'; productName: string }> {
  const product = await findProduct(reader, productInput);
  if (!product) return { kind: 'no-product' };
  const item: RewardItem = { productId: product.product.id, serverName: product.serverName, productName: product.product.name };
  if (!variantInput?.trim()) return { kind: 'found', item };
  const { variants } = await reader.variants(product.serverId, product.categoryId, product.product.id);
  const variant = findVariant(variants, variantInput);
  if (!variant) return { kind: 'no-variant', productName: product.product.name };
  return { kind: 'found', item: { ...item, variantId: variant.id, variantName: variant.name } };
}

interface FoundProduct {
  serverId: string;
  serverName: string;
  categoryId: string;
  product: Product;
}

async function findProduct(reader: OfferReader, input: string): Promise<FoundProduct | undefined> {
  const refs = readItemRef(input);
  const servers = (await reader.servers()).filter((server) => !refs || shortRef(server.id) === refs.server);
  const wanted = input.trim().toLowerCase();
  const byName: FoundProduct[] = [];
  for (const server of servers) {
    const offer = await reader.server(server.id);
    for (const category of offer.categories) {
      if (refs && shortRef(category.id) !== refs.category) continue;
      for (const product of category.products) {
        const found = { serverId: server.id, serverName: server.name, categoryId: category.id, product };
        if (refs ? shortRef(product.id) === refs.product : product.name.toLowerCase() === wanted) byName.push(found);
      }
    }
  }
  // A typed name names a product only when no other product has it.
  return byName.length === 1 ? byName[0] : undefined;
}

function findVariant(variants: readonly Variant[], input: string): Variant | undefined {
  const typed = input.trim();
  const byRef = variants.find((variant) => shortRef(variant.id) === typed);
  if (byRef) return byRef;
  const named = variants.filter((variant) => variant.name.toLowerCase() === typed.toLowerCase());
  return named.length === 1 ? named[0] : undefined;
}

/** How often the removal pass runs while the bot runs (it also runs once at start). */
const EXPIRY_EVERY_MS = 5 * 60_000;

/**
 * Runs the removal pass of timed roles at start and then every few minutes, like the link pruner
 * (one process at a time on Redis); `stop()` waits for a pass in flight before Discord and storage close.
 */
export function scheduleRoleExpiry(rewards: Pick<RoleRewards, 'removeDue'>, logger: Logger, coordination: Pick<Coordination, 'runAlone'>): ScheduledJob {
  return scheduleJob({
    name: 'expire-roles',
    everyMs: EXPIRY_EVERY_MS,
    logger,
    coordination,
    doing: 'removing ended buyer roles',
    failed: 'could not remove ended buyer roles',
    work: async () => {
      const { removed, failed } = await rewards.removeDue();
      if (removed + failed > 0) logger.info({ removed, failed }, 'ended buyer roles handled');
    },
  });
}
