import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import type { PaymentLink } from '../../storage/payment-link-record.js';
import type { RoleGrant, RoleRewardRepository } from '../../storage/role-rewards.js';
import type { RoleWorkEnds } from '../../storage/role-work-ends.js';
import type { HeldRoles } from '../../storage/held-roles.js';
import { NICK_USE_DAYS } from '../../storage/nick-uses.js';
import { foreignUnpaidLinks, MANY_NICKS, MANY_NICKS_READ, MANY_NICKS_WINDOW_MS } from './copycat-signs.js';
import type { EarnedRole, MemberRoles, RewardCounters, RewardNotices, RoleProblem } from './types.js';

const DAY_MS = 86_400_000;
/** Links a grant keeps as unconfirmed (Discord did not answer their grant): a bound, not a list that grows. */
const MAX_UNCONFIRMED = 10;

/** Who else paid with a nick lately (src/storage/nick-uses.ts): a link paid on sound evidence is a nick's use. */
export interface NickOwners {
  usedByOthers(guildId: string, nick: string, userId: string, since: number): Promise<boolean>;
  record(guildId: string, nick: string, userId: string, at: number): Promise<void>;
}

/** The member's recent links, for the signs of a copycat (copycat-signs.ts). */
export interface MemberLinks {
  listForMemberSince(guildId: string, userId: string, since: number, max: number): Promise<PaymentLink[]>;
}

/**
 * What became of one (link, role): `retry` when Discord did not answer (nothing recorded: the same
 * payment offered again gives it); every other outcome is recorded and final for that link and role.
 */
export type GrantResult =
  | { kind: 'granted' | 'held' | 'powerful' | 'withheld' | 'retry' }
  /** A gift for a player chosen by nick alone: no member of the server to give the role to. */
  | { kind: 'no-member' }
  | { kind: 'already'; by: string | undefined }
  | { kind: 'failed'; problem: RoleProblem }
  /** Staff pressed Give role for a link whose role was not held back (nothing to give). */
  | { kind: 'not-withheld' };

export interface GranterOptions {
  repository: RoleRewardRepository;
  /** Guilds the bot left: nothing is asked of Discord there. */
  ends: RoleWorkEnds;
  roles: MemberRoles;
  notices: RewardNotices;
  nicks: NickOwners;
  /** Without it (older tests) the member's other links are not looked at. */
  links?: MemberLinks | undefined;
  /** Roles held back, listed for staff (storage/held-roles.ts); the caller posts them. Without it (older tests) posted at once. */
  held?: Pick<HeldRoles, 'add'> | undefined;
  clock: Clock;
  logger: Logger;
  counters: RewardCounters | undefined;
}

/**
 * Gives one role a paid link earns, checked as Discord checks a person who would give it by hand:
 * a role carrying power over the server is never given (told once per role), and a link whose nick
 * another member of the guild paid with in the last NICK_USE_DAYS, or whose buyer asked for
 * MANY_NICKS unpaid links with other nicks around it (copycat-signs.ts), is held back for staff.
 * Each (link, role) ends in a stored marker, written once Discord answered; a grant is written before
 * Discord is asked (a crash leaves a grant that ends on time), and found again by its link on a retry.
 */
export class RoleGranter {
  constructor(private readonly o: GranterOptions) {}

  /**
   * A payment (`by` undefined), or a member of staff giving a role the payment held back (`by` their id).
   * `foreign`: the buyer's unpaid links for other nicks (`foreignNicks`), when the caller read them already.
   */
  async grant(link: PaymentLink, earned: EarnedRole, by?: string, foreign?: number): Promise<GrantResult> {
    const { repository, roles, clock } = this.o;
    const { guildId } = link;
    const userId = beneficiaryOf(link);
    if (!userId) return { kind: 'no-member' };
    const { roleId } = earned;
    const log = this.o.logger.child({ guild: guildId, user: userId, role: roleId, link: link.id });
    return repository.withGrant(guildId, userId, roleId, async (): Promise<GrantResult> => {
      const marker = await repository.marker(guildId, link.id, roleId);
      if (by === undefined && marker) return { kind: 'already', by: marker.by };
      if (by !== undefined && marker?.outcome !== 'withheld') return marker ? { kind: 'already', by: marker.by } : { kind: 'not-withheld' };
      const days = by !== undefined && marker?.days !== undefined ? marker.days : earned.days;
      const now = clock.now();
      if (await this.o.ends.botLeft(guildId)) return this.#failed(link, roleId, 'bot-left', now);

      const powers = await roles.powers(guildId, roleId);
      if (!powers.ok) return this.#failed(link, roleId, powers.problem, now);
      if (powers.value.length > 0) {
        await repository.mark(guildId, link.id, roleId, { at: now, outcome: 'powerful' });
        log.warn({ permissions: powers.value }, 'reward role carries power over the server: not given');
        if (!(await repository.powerTold(guildId, roleId))) {
          await this.o.notices.tooPowerful({ guildId, userId, roleId, linkId: link.id, permissions: powers.value });
          await repository.notePowerTold(guildId, roleId, now);
        }
        return { kind: 'powerful' };
      }
      if (await repository.powerTold(guildId, roleId)) await repository.forgetPowerTold(guildId, roleId);

      if (by === undefined && (await this.o.nicks.usedByOthers(guildId, link.nick, userId, now - NICK_USE_DAYS * DAY_MS))) {
        await repository.mark(guildId, link.id, roleId, { at: now, outcome: 'withheld', days });
        log.info('another member checked out with this nick lately: role held back for staff');
        await this.#heldBack({ guildId, userId, roleId, linkId: link.id, nick: link.nick }, now);
        return { kind: 'withheld' };
      }
      const many = by === undefined ? (foreign ?? (await this.foreignNicks(link))) : 0;
      if (many >= MANY_NICKS) {
        await repository.mark(guildId, link.id, roleId, { at: now, outcome: 'withheld', days });
        log.info({ foreignLinks: many }, 'the buyer asked for links for many other nicks lately: role held back for staff');
        await this.#heldBack({ guildId, userId, roleId, linkId: link.id, nick: link.nick, manyNicks: many }, now);
        return { kind: 'withheld' };
      }

      const held = await roles.holds(guildId, userId, roleId);
      if (!held.ok) return this.#failed(link, roleId, held.problem, now);
      const current = await repository.grant(guildId, userId, roleId);
      // An earlier attempt for this link saved its grant and then Discord did not answer: that grant stands
      // (another link may have extended it since: the link is then among its unconfirmed ones).
      const retried = current !== undefined && (current.linkId === link.id || (current.unconfirmed ?? []).includes(link.id));
      // A role the member has that the bot never gave (given by hand) is theirs: never timed, never taken back.
      if (held.value && !current) {
        await repository.mark(guildId, link.id, roleId, { at: now, outcome: 'held', ...(by ? { by } : {}) });
        log.info('buyer already had the role, not from the bot; left as it is');
        return { kind: 'held' };
      }
      const pending = current?.unconfirmed ?? [];
      const next = retried ? current : { ...nextGrant(current, days, now, link.id), ...(pending.length > 0 ? { unconfirmed: pending } : {}) };
      if (!retried) await repository.saveGrant(guildId, userId, roleId, next);
      const without = (grant: RoleGrant): RoleGrant => ({ ...grant, unconfirmed: (grant.unconfirmed ?? []).filter((id) => id !== link.id) });
      if (!held.value) {
        const added = await roles.add(guildId, userId, roleId, { kind: 'bought', linkId: link.id, days });
        if (!added.ok && added.problem === 'unreachable') {
          // The grant stays as saved, with this link noted, so the retry finds it whatever extends it meanwhile.
          if (!(next.unconfirmed ?? []).includes(link.id)) {
            await repository.updateGrant(guildId, userId, roleId, { ...next, unconfirmed: [...(next.unconfirmed ?? []), link.id].slice(-MAX_UNCONFIRMED) });
          }
          return this.#failed(link, roleId, added.problem, now);
        }
        if (!added.ok) {
          // Refused: put back what was (a grant another link extended keeps that link's time).
          if (!retried) await repository.restoreGrant(guildId, userId, roleId, current);
          else if (next.linkId === link.id) await repository.restoreGrant(guildId, userId, roleId, undefined);
          else await repository.updateGrant(guildId, userId, roleId, without(next));
          return this.#failed(link, roleId, added.problem, now);
        }
      }
      if ((next.unconfirmed ?? []).includes(link.id)) await repository.updateGrant(guildId, userId, roleId, without(next));
      await repository.mark(guildId, link.id, roleId, { at: now, outcome: 'granted', ...(by ? { by } : {}) });
      this.o.counters?.granted();
      log.info({ expiresAt: next.expiresAt, extended: held.value, by }, held.value ? 'buyer role extended' : 'buyer role given');
      return { kind: 'granted' };
    });
  }

  /** Listed for staff (the caller posts it, RoleRewards.onPayment), or posted at once without the list. */
  async #heldBack(notice: { guildId: string; userId: string; roleId: string; linkId: string; nick: string; manyNicks?: number }, at: number): Promise<void> {
    const { guildId, ...entry } = notice;
    if (this.o.held) await this.o.held.add(guildId, { ...entry, at });
    else await this.o.notices.nickShared(notice);
  }

  /** The buyer's (not a gift's recipient's) unpaid links with other nicks around this one. */
  async foreignNicks(link: PaymentLink): Promise<number> {
    if (!this.o.links) return 0;
    const recent = await this.o.links.listForMemberSince(link.guildId, link.userId, link.createdAt - MANY_NICKS_WINDOW_MS, MANY_NICKS_READ);
    return foreignUnpaidLinks(link, recent);
  }

  /** Not answered: nothing recorded, tried again when the payment is offered again. Refused: recorded and told once. */
  async #failed(link: PaymentLink, roleId: string, problem: RoleProblem, now: number): Promise<GrantResult> {
    const { guildId } = link;
    const userId = beneficiaryOf(link) ?? link.userId;
    const log = this.o.logger.child({ guild: guildId, user: userId, role: roleId, link: link.id });
    if (problem === 'unreachable') {
      log.warn('Discord did not answer while giving a buyer their role; tried again when the payment is offered again');
      return { kind: 'retry' };
    }
    await this.o.repository.mark(guildId, link.id, roleId, { at: now, outcome: 'failed' });
    this.o.counters?.failed('grant', problem);
    if (problem === 'bot-left') {
      // Nobody there to tell, and a post would be one more refused request.
      await this.o.ends.noteBotLeft(guildId, now);
      log.info('the bot is no longer in this guild: role not given, not retried');
      return { kind: 'failed', problem };
    }
    log.warn({ problem }, 'could not give a buyer their role; told the log channel, not retried');
    await this.o.notices.grantFailed({ guildId, userId, roleId, linkId: link.id, problem });
    return { kind: 'failed', problem };
  }
}

/**
 * The grant after a paid link: for good stays for good; a timed one runs on from its end if it has
 * not ended yet, else from now (a grant whose removal failed has ended: the rebuy runs from now).
 */
export function nextGrant(current: RoleGrant | undefined, days: number | null, now: number, linkId: string): RoleGrant {
  if (days === null || current?.expiresAt === null) return { expiresAt: null, grantedAt: now, linkId };
  const runsOn = current !== undefined && current.expiresAt > now;
  const from = runsOn ? current.expiresAt : now;
  return { expiresAt: from + days * DAY_MS, grantedAt: now, timedSince: runsOn ? (current.timedSince ?? current.grantedAt) : now, linkId };
}

/**
 * Who a paid link's roles go to: the buyer, or for a gift the member it was for (never the buyer);
 * undefined for a gift to a player chosen by nick alone (no member to give a role to).
 */
export function beneficiaryOf(link: Pick<PaymentLink, 'userId' | 'gift'>): string | undefined {
  return link.gift ? link.gift.recipientId : link.userId;
}
