import { AuditLogEvent, DiscordAPIError, PermissionFlagsBits, RESTJSONErrorCodes, Routes, SnowflakeUtil, type APIGuildMember, type APIRole, type Client, type RESTGetAPIAuditLogResult } from 'discord.js';
import { messages, type Locale } from '../i18n/index.js';
import type { Logger } from '../logger.js';
import type { MemberRoles, PassReadings, PowerfulPermission, RewardNotices, RoleAnswer, RoleProblem, RoleReason } from '../services/rewards.js';
import type { GuildLog } from './guild-log.js';
import { discordRefusalOf } from './refusals.js';
import { fetchedChannelAllows, fetchedRoleFacts, roleIssues, rolePowers } from './role-check.js';
import type { IdFor } from './routes.js';

/** Discord cuts an audit-log reason at 512 characters. */
const REASON_LIMIT = 512;
/** Audit-log entries Discord gives per page (its most). */
const AUDIT_PAGE = 100;
/**
 * Pages read back at most per ended role: a bound in a guild whose roles change all day (other bots).
 * History that does not reach back to the grant's start within them is `unknown` (taken back, as before).
 */
const AUDIT_PAGES = 3;
/** A guild's audit log as one removal pass has read it so far (PassReadings). */
interface AuditPages {
  entries: RESTGetAPIAuditLogResult['audit_log_entries'];
  pages: number;
  /** The last page read was not full: nothing older to read. */
  end: boolean;
}

/**
 * Buyers' roles in Discord: one `PUT` or `DELETE /guilds/{guild}/members/{user}/roles/{role}` each,
 * with the reason in the audit log (in the guild's language), through REST, so it works for any
 * guild whatever shard this process runs. A refusal is turned into what the admins must fix: Discord
 * says only "Missing Permissions", so the guild's roles are read to tell Manage Roles from role order.
 */
export class DiscordMemberRoles implements MemberRoles {
  constructor(
    private readonly client: Client,
    private readonly localeFor: (guildId: string) => Promise<Locale>,
    private readonly logger: Logger,
  ) {}

  async holds(guildId: string, userId: string, roleId: string): Promise<RoleAnswer<boolean>> {
    try {
      const member = (await this.client.rest.get(Routes.guildMember(guildId, userId))) as APIGuildMember;
      return { ok: true, value: member.roles.includes(roleId) };
    } catch (error) {
      return { ok: false, problem: await this.#problem(error, guildId, roleId) };
    }
  }

  /**
   * Read over REST, not from the cache: a role edited a moment ago must not be given on the old
   * permissions, and the guild may be another shard's. Two requests per role a paid link earns.
   */
  async powers(guildId: string, roleId: string): Promise<RoleAnswer<PowerfulPermission[]>> {
    try {
      // The guild's channels too: a role may get its power from one channel's overwrite (two requests per role earned).
      const [roles, channelAllows] = await Promise.all([this.client.rest.get(Routes.guildRoles(guildId)) as Promise<APIRole[]>, fetchedChannelAllows(this.client.rest, guildId)]);
      const role = roles.find((candidate) => candidate.id === roleId);
      if (!role) return { ok: false, problem: 'role-gone' };
      return { ok: true, value: rolePowers({ guildId, botRoleIds: [], roles: [{ id: role.id, position: role.position, managed: role.managed, permissions: BigInt(role.permissions) }], channelAllows }, roleId) };
    } catch (error) {
      return { ok: false, problem: await this.#problem(error, guildId, roleId) };
    }
  }

  /**
   * Reads the guild's audit log of member role updates (action 25), newest first: the newest change
   * of this role for this member decides. Made by anyone but the bot (staff by hand, another bot) and
   * giving the role: true. The bot's own give (the grant's start) or a removal: false. Reading stops
   * at the first such entry, or at one older than `since` (nothing changed the role since the grant
   * began; Discord's clock and the bot's are taken to agree within seconds), or after AUDIT_PAGES
   * pages (`unknown`). Needs View Audit Log: checked in the cache first when the guild is on this
   * process's shards, so a guild without it costs no refused request; otherwise the refusal (403
   * 50013) says so. Cost: 1 to AUDIT_PAGES requests per guild and removal pass (`pass`: the pages read
   * are shared by every role ending in it, and read further only when one needs older entries).
   */
  async givenByOthersSince(guildId: string, userId: string, roleId: string, since: number, pass?: PassReadings): Promise<RoleAnswer<boolean | 'no-audit-log' | 'unknown'>> {
    const me = this.client.guilds.cache.get(guildId)?.members.me;
    if (me && !me.permissions.has(PermissionFlagsBits.ViewAuditLog)) return { ok: true, value: 'no-audit-log' };
    const botId = this.client.user?.id ?? '';
    const floor = BigInt(SnowflakeUtil.generate({ timestamp: since }).toString()) >> 22n;
    // The pages this pass has read of the guild's log, newest first: read further only when needed.
    const key = `audit-log:${guildId}`;
    const read = (pass?.get(key) as AuditPages | undefined) ?? { entries: [], pages: 0, end: false };
    pass?.set(key, read);
    try {
      for (let index = 0; ; ) {
        if (index >= read.entries.length) {
          if (read.end) return { ok: true, value: false };
          if (read.pages >= AUDIT_PAGES) return { ok: true, value: 'unknown' };
          const before = read.entries.at(-1)?.id;
          const query = new URLSearchParams({ action_type: String(AuditLogEvent.MemberRoleUpdate), limit: String(AUDIT_PAGE), ...(before ? { before } : {}) });
          const { audit_log_entries: entries } = (await this.client.rest.get(Routes.guildAuditLog(guildId), { query })) as RESTGetAPIAuditLogResult;
          read.entries.push(...entries);
          read.pages += 1;
          if (entries.length < AUDIT_PAGE) read.end = true;
          continue;
        }
        const entry = read.entries[index]!;
        const touching = entry.target_id !== userId ? [] : (entry.changes ?? []).filter(
          (change) => (change.key === '$add' || change.key === '$remove') && ((change.new_value ?? []) as { id: string }[]).some((role) => role.id === roleId),
        );
        if (touching.length > 0) return { ok: true, value: entry.user_id !== botId && touching.some((change) => change.key === '$add') };
        if (BigInt(entry.id) >> 22n < floor) return { ok: true, value: false };
        index += 1;
      }
    } catch (error) {
      // Not kept for the pass: the next role asks again (a blip), or learns the same refusal.
      pass?.delete(key);
      if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.MissingPermissions) return { ok: true, value: 'no-audit-log' };
      return { ok: false, problem: await this.#problem(error, guildId, roleId) };
    }
  }

  add(guildId: string, userId: string, roleId: string, reason: RoleReason): Promise<RoleAnswer<void>> {
    return this.#change('put', guildId, userId, roleId, reason);
  }

  remove(guildId: string, userId: string, roleId: string, reason: RoleReason): Promise<RoleAnswer<void>> {
    return this.#change('delete', guildId, userId, roleId, reason);
  }

  async removable(guildId: string, roleId: string): Promise<RoleAnswer<void>> {
    try {
      const issue = roleIssues(await fetchedRoleFacts(this.client.rest, guildId, this.client.user?.id ?? ''), roleId)[0];
      return issue ? { ok: false, problem: issue } : { ok: true, value: undefined };
    } catch (error) {
      return { ok: false, problem: await this.#problem(error, guildId, roleId) };
    }
  }

  async #change(method: 'put' | 'delete', guildId: string, userId: string, roleId: string, reason: RoleReason): Promise<RoleAnswer<void>> {
    try {
      await this.client.rest[method](Routes.guildMemberRole(guildId, userId, roleId), { reason: await this.#reason(guildId, reason) });
      return { ok: true, value: undefined };
    } catch (error) {
      return { ok: false, problem: await this.#problem(error, guildId, roleId) };
    }
  }

  async #reason(guildId: string, reason: RoleReason): Promise<string> {
    const locale = await this.localeFor(guildId).catch((): Locale => 'en');
    const t = messages(locale).rewards;
    const text = reason.kind === 'bought' ? t.auditBought(reason.linkId, reason.days) : t.auditEnded(reason.linkId);
    return text.slice(0, REASON_LIMIT);
  }

  async #problem(error: unknown, guildId: string, roleId: string): Promise<RoleProblem> {
    if (!(error instanceof DiscordAPIError)) {
      this.logger.warn({ err: error, guild: guildId }, 'Discord did not answer a role change');
      return 'unreachable';
    }
    const refusal = discordRefusalOf(error);
    if (refusal === 'unknown-member') return 'member-left';
    if (refusal === 'unknown-guild' || refusal === 'missing-access') return 'bot-left';
    if (refusal === 'unknown-role') return 'role-gone';
    if (refusal !== 'missing-permissions') return error.status >= 500 ? 'unreachable' : 'refused';
    try {
      return roleIssues(await fetchedRoleFacts(this.client.rest, guildId, this.client.user?.id ?? ''), roleId)[0] ?? 'refused';
    } catch (diagnosis) {
      this.logger.debug({ err: diagnosis, guild: guildId }, "could not read the guild's roles to explain a refused role change");
      return 'refused';
    }
  }
}

/**
 * The admins hear of a role the bot could not give or take in the guild's log channel, once each.
 * `giveId` builds the Give role button of a held-back role (its route is commands/admin's).
 */
export function rewardNotices(guildLog: GuildLog, giveId: (linkId: string, roleId: string) => IdFor<'button'>): RewardNotices {
  return {
    grantFailed: async (failure) => {
      await guildLog.post(failure.guildId, { kind: 'role-grant-failed', ...failure });
    },
    removalFailed: async (failure) => {
      await guildLog.post(failure.guildId, { kind: 'role-removal-failed', ...failure });
    },
    tooPowerful: async (notice) => {
      await guildLog.post(notice.guildId, { kind: 'role-too-powerful', ...notice });
    },
    nickShared: (notice) => guildLog.post(notice.guildId, { kind: 'role-held-back', ...notice, giveId: giveId(notice.linkId, notice.roleId) }),
  };
}
