import type { Clock } from '../../clock.js';
import type { Coordination } from '../../coordination/coordination.js';
import type { Logger } from '../../logger.js';
import { dayOf } from '../../storage/payment-link-record.js';
import type { ExpiryEntry, RoleRewardRepository } from '../../storage/role-rewards.js';
import { scheduleJob, type ScheduledJob } from '../scheduled-job.js';
import type { MemberRoles, RewardCounters, RewardNotices } from './types.js';

type Removal = 'removed' | 'failed' | 'gone' | 'later';

/**
 * Takes back timed roles whose time is up. Each grant is read again under its lock, so a role
 * extended meanwhile stays, and two passes (two processes) never take one role twice. A removal
 * Discord refuses is told to the admins once and noted on the grant, which stays: the next pass
 * tries again (once they fixed the bot's rights, it goes), and a rebuy meanwhile runs on from now,
 * timed. One Discord did not answer is tried again at the next pass, untold.
 *
 * Cost per pass: one read of the index of days and one per due day; per due grant a read, one
 * DELETE to Discord (a refused one adds two reads of the guild's roles to say why) and one write.
 */
export class RoleExpiry {
  constructor(
    private readonly o: {
      repository: RoleRewardRepository;
      roles: MemberRoles;
      notices: RewardNotices;
      clock: Clock;
      logger: Logger;
      counters: RewardCounters | undefined;
    },
  ) {}

  async removeDue(): Promise<{ removed: number; failed: number }> {
    const now = this.o.clock.now();
    let removed = 0;
    let failed = 0;
    for (const { day, entries } of await this.o.repository.dueDays(now)) {
      const handled: ExpiryEntry[] = [];
      for (const entry of entries) {
        const outcome = await this.#removeIfDue(entry, day, now);
        if (outcome === 'removed') removed++;
        if (outcome === 'failed') failed++;
        // A refused removal stays in its day: the next pass tries it again.
        if (outcome === 'removed' || outcome === 'gone') handled.push(entry);
      }
      await this.o.repository.dropFromDay(day, handled);
    }
    return { removed, failed };
  }

  async #removeIfDue([guildId, userId, roleId]: ExpiryEntry, day: string, now: number): Promise<Removal> {
    const { repository } = this.o;
    return repository.withGrant(guildId, userId, roleId, async (): Promise<Removal> => {
      const grant = await repository.grant(guildId, userId, roleId);
      // Gone, made permanent, or extended into another day (indexed there): nothing to do on this day.
      if (!grant || grant.expiresAt === null || dayOf(grant.expiresAt) !== day) return 'gone';
      if (grant.expiresAt > now) return 'later';
      const log = this.o.logger.child({ guild: guildId, user: userId, role: roleId, link: grant.linkId });
      const answer = await this.o.roles.remove(guildId, userId, roleId, { kind: 'ended', linkId: grant.linkId });
      if (answer.ok) {
        await repository.deleteGrant(guildId, userId, roleId);
        this.o.counters?.removed();
        log.info('timed buyer role ended and was removed');
        return 'removed';
      }
      if (answer.problem === 'unreachable') {
        log.warn('Discord did not answer while removing an ended role; trying again at the next pass');
        return 'later';
      }
      // Nothing left to take: the member left, or the role was deleted.
      if (answer.problem === 'member-left' || answer.problem === 'role-gone') {
        await repository.deleteGrant(guildId, userId, roleId);
        log.info({ problem: answer.problem }, 'ended role had nothing left to remove');
        return 'gone';
      }
      if (grant.removalFailed) return 'later';
      await repository.updateGrant(guildId, userId, roleId, { ...grant, removalFailed: { at: now, problem: answer.problem } });
      this.o.counters?.failed('remove', answer.problem);
      log.warn({ problem: answer.problem }, 'could not remove an ended buyer role; told the log channel, tried again every pass');
      await this.o.notices.removalFailed({ guildId, userId, roleId, problem: answer.problem });
      return 'failed';
    });
  }
}

/** How often the removal pass runs while the bot runs (it also runs once at start). */
const EXPIRY_EVERY_MS = 5 * 60_000;

/**
 * Runs the removal pass of timed roles at start and then every few minutes, like the link pruner
 * (one process at a time on Redis); `stop()` waits for a pass in flight before Discord and storage close.
 */
export function scheduleRoleExpiry(rewards: { removeDue(): Promise<{ removed: number; failed: number }> }, logger: Logger, coordination: Pick<Coordination, 'runAlone'>): ScheduledJob {
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
