import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { PaymentLink } from '../storage/payment-link-record.js';
import type { Reward, RoleRewardRepository } from '../storage/role-rewards.js';
import type { RefusedRemoval, RoleWorkEnds } from '../storage/role-work-ends.js';
import type { HeldRole, HeldRoles } from '../storage/held-roles.js';
import type { SettledPayment } from './payment-events.js';
import { RoleExpiry } from './rewards/expiry.js';
import { beneficiaryOf, RoleGranter, type GrantResult, type MemberLinks, type NickOwners } from './rewards/granting.js';
import { earnedRoles, RewardList, type AddRewardResult } from './rewards/reward-list.js';
import { MANY_NICKS } from './rewards/copycat-signs.js';
import type { MemberRoles, RewardCounters, RewardItem, RewardNotices } from './rewards/types.js';

export { MAX_REWARDS_PER_GUILD, REWARD_DAYS, type Reward } from '../storage/role-rewards.js';
export type { RefusedRemoval } from '../storage/role-work-ends.js';
export { earnedRoles, rewardId, type AddRewardResult } from './rewards/reward-list.js';
export { nextGrant, type GrantResult, type NickOwners } from './rewards/granting.js';
export { findRewardItem } from './rewards/reward-item.js';
export { roleExpiryJob } from './rewards/expiry.js';
export * from './rewards/types.js';

/**
 * Roles for buyers: a guild's admins say which role a product (or one of its variants) earns,
 * optionally for some days. When a link is paid (PaymentEvents), the member who checked out gets
 * each matching role, once per link and role; a timed role is taken back when its time is up by a
 * pass that runs once across processes. The parts, each in src/services/rewards/: the admins' list
 * (reward-list.ts), giving a role and its checks (granting.ts), the removal pass (expiry.ts), and
 * finding the item in the offer (reward-item.ts). Below Discord: roles are given and taken through
 * `MemberRoles`, and what the admins must fix is told through `RewardNotices` (both in src/discord/).
 */

export interface RoleRewardsOptions {
  repository: RoleRewardRepository;
  /** Where role work ends for good: guilds the bot left, removals Discord refused (src/storage/role-work-ends.ts). */
  ends: RoleWorkEnds;
  roles: MemberRoles;
  notices: RewardNotices;
  clock: Clock;
  logger: Logger;
  /** Who else paid with a link's nick lately; without it (older tests) every nick counts as the buyer's own. */
  nicks?: NickOwners;
  /** The link a Give role button names, and a buyer's recent links (the payment link records). */
  links?: { get(guildId: string, id: string): Promise<PaymentLink | undefined> } & Partial<MemberLinks>;
  counters?: RewardCounters;
  /** Roles held back for staff, listed in /shop-admin status and /links user (storage/held-roles.ts); without it (older tests) only posted. */
  held?: HeldRoles;
}

/** What a member of staff's Give role press came to, and whose link it was. */
export interface GiveResult {
  outcome: GrantResult | { kind: 'no-link' } | { kind: 'not-earned' };
  userId: string | undefined;
}

export class RoleRewards {
  readonly #list: RewardList;
  readonly #granter: RoleGranter;
  readonly #expiry: RoleExpiry;
  readonly #repository: RoleRewardRepository;
  readonly #ends: RoleWorkEnds;
  readonly #clock: Clock;
  readonly #links: RoleRewardsOptions['links'];
  readonly #nicks: NickOwners;
  readonly #held: HeldRoles | undefined;
  readonly #notices: RewardNotices;

  constructor(options: RoleRewardsOptions) {
    const { repository, ends, roles, notices, clock, logger, counters } = options;
    this.#ends = ends;
    this.#clock = clock;
    this.#repository = repository;
    this.#links = options.links;
    this.#held = options.held;
    this.#notices = notices;
    this.#list = new RewardList(repository, clock);
    const nicks = options.nicks ?? { usedByOthers: async () => false, record: async () => undefined };
    this.#nicks = nicks;
    const links = options.links?.listForMemberSince ? (options.links as MemberLinks) : undefined;
    this.#granter = new RoleGranter({ repository, ends, roles, notices, nicks, links, held: options.held, clock, logger, counters });
    this.#expiry = new RoleExpiry({ repository, ends, roles, notices, clock, logger, counters });
  }

  list(guildId: string): Promise<Reward[]> {
    return this.#list.list(guildId);
  }

  /** See RewardList.add: who may add it and which role may be a reward are checked by the command first. */
  add(guildId: string, input: { item: RewardItem; roleId: string; days: number | null; by: string }): Promise<AddRewardResult> {
    return this.#list.add(guildId, input);
  }

  remove(guildId: string, rewardId: string): Promise<{ removed: Reward; rewards: Reward[] } | undefined> {
    return this.#list.remove(guildId, rewardId);
  }

  /**
   * A settled payment: when paid, the member who checked out gets each role the link's items earn.
   * Every payment the watcher settles is one without doubt (one member's links could match) or
   * confirmed by staff (`confirmedBy`); the nick and the role are checked per role (granting.ts).
   * Each (link, role) is handled once, whatever the watcher sends: a stored marker says it was.
   * 'retry' when Discord did not answer for some role: offering the same event again gives it.
   */
  async onPayment(event: SettledPayment): Promise<'done' | 'retry'> {
    if (event.status !== 'paid') return 'done';
    const { link } = event;
    // A paid link is what makes a nick a member's (a free checkout never does), and only one paid on
    // sound evidence: not one staff confirmed (it went to them on thin evidence), nor one of a member
    // casting a net of many nicks. Else a copycat's win would hold back the real player's roles.
    const owner = beneficiaryOf(link);
    const foreign = await this.#granter.foreignNicks(link);
    if (owner && event.confirmedBy === undefined && foreign < MANY_NICKS) await this.#nicks.record(link.guildId, link.nick, owner, event.at);
    let retry = false;
    for (const role of earnedRoles(await this.#repository.rewards(link.guildId), link.items)) {
      if ((await this.#granter.grant(link, role, undefined, foreign)).kind === 'retry') retry = true;
    }
    if (!(await this.#postHeld(link))) retry = true;
    return retry ? 'retry' : 'done';
  }

  /**
   * The log posts of this link's roles held back and not posted yet: a post Discord did not take asks
   * for the payment's roles step again (offered again with backoff, and given up with it: src/services/payment-watch/tell.ts);
   * the role stays listed for staff (/shop-admin status, /links user) either way.
   */
  async #postHeld(link: PaymentLink): Promise<boolean> {
    if (!this.#held) return true;
    let posted = true;
    for (const entry of await this.#held.list(link.guildId)) {
      if (entry.linkId !== link.id || entry.posted) continue;
      const { at: _at, posted: _posted, ...notice } = entry;
      if ((await this.#notices.nickShared({ guildId: link.guildId, ...notice })) === false) posted = false;
      else await this.#held.markPosted(link.guildId, entry.linkId, entry.roleId);
    }
    return posted;
  }

  /** Whether a role this link earned waits for staff (the paid DM says so). A storage failure: not said. */
  async heldFor(guildId: string, linkId: string): Promise<boolean> {
    return (await this.heldBack(guildId).catch(() => [])).some((entry) => entry.linkId === linkId);
  }

  /** Roles held back for staff in the guild, newest first (/shop-admin status, /links user). */
  async heldBack(guildId: string): Promise<HeldRole[]> {
    return (await this.#held?.list(guildId)) ?? [];
  }

  /**
   * A member of staff pressed Give role on a log post about a role held back (the nick was not only
   * the buyer's). Their own rights were checked by the handler; the role is checked again here.
   */
  async giveHeldBack(guildId: string, linkId: string, roleId: string, by: string): Promise<GiveResult> {
    const link = await this.#links?.get(guildId, linkId);
    if (!link) return { outcome: { kind: 'no-link' }, userId: undefined };
    const marker = await this.#repository.marker(guildId, linkId, roleId);
    const earned = earnedRoles(await this.#repository.rewards(guildId), link.items).find((role) => role.roleId === roleId);
    const days = marker?.days !== undefined ? marker.days : earned?.days;
    if (days === undefined) {
      await this.#held?.forget(guildId, linkId, roleId);
      return { outcome: { kind: 'not-earned' }, userId: beneficiaryOf(link) };
    }
    const outcome = await this.#granter.grant(link, { roleId, days }, by);
    // Given, or decided for good: no longer listed for staff (a retry or a refusal for the presser's rights keeps it).
    if (outcome.kind !== 'retry' && outcome.kind !== 'not-withheld') await this.#held?.forget(guildId, linkId, roleId);
    return { outcome, userId: beneficiaryOf(link) };
  }

  /**
   * The bot was removed from a guild (GUILD_DELETE) or joined it again (GUILD_CREATE): while it is
   * out, the grants and removals owed there are dropped without a request to Discord.
   */
  async botLeft(guildId: string): Promise<void> {
    await this.#ends.noteBotLeft(guildId, this.#clock.now());
  }

  async botJoined(guildId: string): Promise<void> {
    await this.#ends.forgetBotLeft(guildId);
  }

  /** Ended roles Discord refused to take back since the last status: each shown once (/shop-admin status). */
  takeRefusedRemovals(guildId: string): Promise<RefusedRemoval[]> {
    return this.#ends.takeRefused(guildId);
  }

  /** Takes back every timed role whose time is up (expiry.ts). */
  removeDue(): Promise<{ removed: number; failed: number }> {
    return this.#expiry.removeDue();
  }
}
