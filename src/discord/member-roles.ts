import { DiscordAPIError, RESTJSONErrorCodes, Routes, type APIGuildMember, type APIRole, type Client } from 'discord.js';
import { messages, type Locale } from '../i18n/index.js';
import type { Logger } from '../logger.js';
import type { MemberRoles, PowerfulPermission, RewardNotices, RoleAnswer, RoleProblem, RoleReason } from '../services/rewards.js';
import type { GuildLog } from './guild-log.js';
import { fetchedChannelAllows, fetchedRoleFacts, roleIssues, rolePowers } from './role-check.js';
import type { IdFor } from './routes.js';

/** Discord cuts an audit-log reason at 512 characters. */
const REASON_LIMIT = 512;

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
    if (error.code === RESTJSONErrorCodes.UnknownMember) return 'member-left';
    if (error.code === RESTJSONErrorCodes.UnknownGuild || error.code === RESTJSONErrorCodes.MissingAccess) return 'bot-left';
    if (error.code === RESTJSONErrorCodes.UnknownRole) return 'role-gone';
    if (error.code !== RESTJSONErrorCodes.MissingPermissions) return error.status >= 500 ? 'unreachable' : 'refused';
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
    nickShared: async (notice) => {
      await guildLog.post(notice.guildId, { kind: 'role-held-back', ...notice, giveId: giveId(notice.linkId, notice.roleId) });
    },
  };
}
