import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import { dayOf } from '../../storage/payment-link-record.js';
import type { ExpiryEntry, RoleRewardRepository } from '../../storage/role-rewards.js';
import type { RoleWorkEnds } from '../../storage/role-work-ends.js';
import { doublingBackoff } from '../jobs/backoff.js';
import type { BackgroundJob } from '../jobs/runner.js';
import type { MemberRoles, PassReadings, RewardCounters, RewardNotices, RoleAnswer, RoleProblem } from './types.js';

type Removal = 'removed' | 'failed' | 'gone' | 'later';

/** Refusals that hold for every member with the role (the role's place, the bot's permissions), not one grant. */
const ROLE_WIDE: ReadonlySet<RoleProblem> = new Set(['no-manage-roles', 'role-above-bot', 'role-managed', 'role-everyone']);

/**
 * Takes back timed roles whose time is up. Each grant is read again under its lock, so a role
 * extended meanwhile stays, and two passes (two processes) never take one role twice.
 *
 * Every retry has an end: a removal Discord refuses (403 50013, or a role and
 * member it no longer knows) is final: noted on the grant, kept for the guild's next /shop-admin
 * status, told once in the log channel, and never sent again (a rebuy meanwhile runs on from now,
 * timed). In a guild the bot left (GUILD_DELETE noted it, or Discord answered 404 10004 / 403
 * 50001 once), the grants are dropped without a request and nothing is posted. Only a removal
 * Discord did not answer (timeout, 5xx) is tried again at the next pass, untold.
 *
 * A role staff gave by hand while it was timed stays (the bot never undoes staff's own choice):
 * before the DELETE the guild's audit log is read back to the grant's start
 * (MemberRoles.givenByOthersSince); the newest change of that role for that member made by anyone
 * but the bot, if it gave the role, keeps it.
 * Without View Audit Log the role is taken back as before, said once (the log here, /shop-admin
 * status). Only Discord's own log can tell, as the bot asks for no privileged intent (it sees no
 * member updates).
 *
 * A refusal that holds for the whole role (its place above the bot's, Manage Roles taken away) is
 * remembered in this process: the role's later removals in that guild are checked first with reads
 * of the guild's roles (once per pass), and while the check finds the same problem they are noted
 * refused without a request. So a role Discord refuses costs one invalid request per process, not one
 * per member (1 000 members' roles ending in a guild that dragged the role up: 1, not 1 000).
 *
 * Cost per pass: one read of the index of days and one per due day; one read per guild with due
 * grants (did the bot leave it); per guild with due grants 1 to 3 GETs of the audit log, shared by
 * its grants in the pass (none where it may not read it); per due grant a read, one DELETE to Discord (a refused one adds two
 * reads of the guild's roles to say why, and two writes: the grant, the guild's refused list) and
 * one write; in a guild the bot left, a read and a delete per grant and no request at all.
 */
export class RoleExpiry {
  /** Guilds this process already said cannot have their audit log read. */
  readonly #toldNoAuditLog = new Set<string>();

  constructor(
    private readonly o: {
      repository: RoleRewardRepository;
      ends: RoleWorkEnds;
      roles: MemberRoles;
      notices: RewardNotices;
      clock: Clock;
      logger: Logger;
      counters: RewardCounters | undefined;
    },
  ) {}

  /** `<guild>:<role>` → the role-wide refusal Discord answered in this process (ROLE_WIDE). */
  readonly #refusedRoles = new Map<string, RoleProblem>();

  async removeDue(): Promise<{ removed: number; failed: number }> {
    const now = this.o.clock.now();
    let removed = 0;
    let failed = 0;
    // Per pass: whether the bot left each guild (read once per guild, set when Discord says so mid-pass),
    // and the guilds whose audit log it may not read (asked once per pass).
    const left = new Map<string, boolean>();
    const noAuditLog = new Set<string>();
    // What this pass read of Discord: each guild's audit log once, for all its ending roles.
    const readings: PassReadings = new Map();
    // Per pass: a refused role checked again with reads, once (undefined: nothing in the way now).
    const checked = new Map<string, RoleProblem | undefined>();
    for (const { day, entries } of await this.o.repository.dueDays(now)) {
      const handled: ExpiryEntry[] = [];
      for (const entry of entries) {
        const outcome = await this.#removeIfDue(entry, day, now, left, { noAuditLog, readings }, checked);
        if (outcome === 'removed') removed++;
        if (outcome === 'failed') failed++;
        // Only a removal Discord did not answer stays in its day: the next pass tries it again.
        if (outcome !== 'later') handled.push(entry);
      }
      await this.o.repository.dropFromDay(day, handled);
    }
    return { removed, failed };
  }

  /** The role-wide refusal still in the way of taking this role (reads, no change sent), for a role Discord refused before. */
  async #stillRefused(guildId: string, roleId: string, checked: Map<string, RoleProblem | undefined>): Promise<RoleAnswer<void>> {
    const key = `${guildId}:${roleId}`;
    if (!this.#refusedRoles.has(key)) return { ok: true, value: undefined };
    if (!checked.has(key)) {
      const answer = await this.o.roles.removable(guildId, roleId);
      checked.set(key, answer.ok ? undefined : answer.problem);
      if (answer.ok) this.#refusedRoles.delete(key);
    }
    const problem = checked.get(key);
    return problem === undefined ? { ok: true, value: undefined } : { ok: false, problem };
  }

  async #removeIfDue(
    [guildId, userId, roleId]: ExpiryEntry,
    day: string,
    now: number,
    left: Map<string, boolean>,
    audit: { noAuditLog: Set<string>; readings: PassReadings },
    checked: Map<string, RoleProblem | undefined>,
  ): Promise<Removal> {
    const { repository, ends } = this.o;
    if (!left.has(guildId)) left.set(guildId, await ends.botLeft(guildId));
    return repository.withGrant(guildId, userId, roleId, async (): Promise<Removal> => {
      const grant = await repository.grant(guildId, userId, roleId);
      // Gone, made permanent, or extended into another day (indexed there): nothing to do on this day.
      if (!grant || grant.expiresAt === null || dayOf(grant.expiresAt) !== day) return 'gone';
      if (grant.expiresAt > now) return 'later';
      const log = this.o.logger.child({ guild: guildId, user: userId, role: roleId, link: grant.linkId });
      if (left.get(guildId)) {
        await repository.deleteGrant(guildId, userId, roleId);
        log.debug('the bot left this guild: ended role dropped, nothing sent');
        return 'gone';
      }
      // A role Discord refused before is checked with reads first: the same refusal is not asked for again,
      // and neither is the audit log (nothing could be taken anyway).
      const blocked = await this.#stillRefused(guildId, roleId, checked);
      let answer: RoleAnswer<void> = blocked;
      if (blocked.ok) {
        // A role staff gave by hand while it was timed is theirs: the time bought ends, the role stays.
        const byHand = await this.#givenByHand(guildId, userId, roleId, grant.timedSince ?? grant.grantedAt, audit, log);
        if (byHand === 'later') return 'later';
        if (byHand === true) {
          await repository.deleteGrant(guildId, userId, roleId);
          log.info('staff gave the role by hand during the timed grant: left as it is');
          return 'gone';
        }
        // Discord already said the bot is not in the guild: no DELETE to be refused as well.
        answer = byHand === 'bot-left' ? { ok: false, problem: 'bot-left' } : await this.o.roles.remove(guildId, userId, roleId, { kind: 'ended', linkId: grant.linkId });
      }
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
      if (answer.problem === 'bot-left') {
        // Told once by Discord: the guild's other grants go without a request, now and at later passes.
        left.set(guildId, true);
        await ends.noteBotLeft(guildId, now);
        await repository.deleteGrant(guildId, userId, roleId);
        log.info('Discord says the bot is no longer in this guild: its ended roles are dropped');
        return 'gone';
      }
      // Nothing left to take: the member left, or the role was deleted.
      if (answer.problem === 'member-left' || answer.problem === 'role-gone') {
        await repository.deleteGrant(guildId, userId, roleId);
        log.info({ problem: answer.problem }, 'ended role had nothing left to remove');
        return 'gone';
      }
      // Refused: final. The grant stays (a rebuy stays timed), out of every day's index.
      if (ROLE_WIDE.has(answer.problem) && blocked.ok) {
        this.#refusedRoles.set(`${guildId}:${roleId}`, answer.problem);
        checked.set(`${guildId}:${roleId}`, answer.problem);
      }
      await repository.updateGrant(guildId, userId, roleId, { ...grant, removalFailed: { at: now, problem: answer.problem } });
      this.o.counters?.failed('remove', answer.problem);
      log.warn({ problem: answer.problem }, 'Discord refused to remove an ended buyer role; told once, not tried again');
      await ends.noteRefused(guildId, { userId, roleId, problem: answer.problem, at: now });
      await this.o.notices.removalFailed({ guildId, userId, roleId, problem: answer.problem });
      return 'failed';
    });
  }
  /**
   * Whether someone other than the bot gave the role since the grant began (the guild's audit log).
   * Without View Audit Log, or history that does not reach back that far: false, the role is taken
   * back as before (said once per guild and process here, and in /shop-admin status). `later`:
   * Discord did not answer; the next pass asks again. `bot-left`: Discord answered that the bot is
   * not in the guild (404 10004 / 403 50001).
   */
  async #givenByHand(guildId: string, userId: string, roleId: string, since: number, audit: { noAuditLog: Set<string>; readings: PassReadings }, log: Logger): Promise<boolean | 'later' | 'bot-left'> {
    const { noAuditLog } = audit;
    if (noAuditLog.has(guildId)) return false;
    const answer = await this.o.roles.givenByOthersSince(guildId, userId, roleId, since, audit.readings);
    if (!answer.ok) return answer.problem === 'unreachable' ? 'later' : answer.problem === 'bot-left' ? 'bot-left' : false;
    if (answer.value === 'no-audit-log') {
      noAuditLog.add(guildId);
      if (!this.#toldNoAuditLog.has(guildId)) {
        this.#toldNoAuditLog.add(guildId);
        log.warn('the bot may not read the audit log (View Audit Log): a role staff gave by hand during a timed grant is taken back with it');
      }
      return false;
    }
    if (answer.value === 'unknown') {
      log.info('the audit log does not reach back to the grant within the pages read: the role is taken back');
      return false;
    }
    return answer.value;
  }
}

/** How often the removal pass runs while the bot runs (it also runs once at start). */
const EXPIRY_EVERY_MS = 5 * 60_000;

/**
 * The removal pass as a job (src/services/jobs/runner.ts): at start and then every few minutes, one
 * process at a time on Redis; a failed pass (storage down) waits 1, 2, 4 … 30 minutes, said once.
 */
export function roleExpiryJob(rewards: { removeDue(): Promise<{ removed: number; failed: number }> }, logger: Logger): BackgroundJob {
  return {
    name: 'expire-roles',
    everyMs: EXPIRY_EVERY_MS,
    backoff: doublingBackoff(60_000, 30 * 60_000),
    cost: {
      storeRequestsPerHour: '0 (Discord: per guild and pass 1 to 3 GETs of the audit log, per role due 1 DELETE, never again once refused; without View Audit Log no GET where the guild is on this process, else one refused GET per guild and pass; a role refused as a whole: 1 refused DELETE per process, then 2 reads of the guild per pass and no audit read while it stays refused; 0 in a guild the bot left)',
      readsPerRound: '1 + 1 per due day + 1 per guild with due grants + 1 per due grant',
      writesPerRound: '1 per due grant + 1 per due day',
    },
    doing: 'removing ended buyer roles',
    failed: 'could not remove ended buyer roles',
    work: async () => {
      const { removed, failed } = await rewards.removeDue();
      if (removed + failed > 0) logger.info({ removed, failed }, 'ended buyer roles handled');
    },
  };
}
