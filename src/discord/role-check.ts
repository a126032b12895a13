import { PermissionFlagsBits, Routes, type APIGuildMember, type APIRole, type Guild, type REST } from 'discord.js';
import type { RoleProblem } from '../services/rewards.js';

/**
 * Whether the bot can give a role to buyers and take it back, by Discord's rules: it needs Manage
 * Roles (or Administrator) from its roles, and the role must be below its highest role; @everyone
 * and roles Discord manages (a bot's, an integration's, the boosters') are never given by anyone.
 * Read from the guild as the bot's cache has it (/shop-admin rewards add, list, status), or over
 * REST (a refused grant, in whichever process learned of the payment).
 */

export type RoleIssue = Extract<RoleProblem, 'role-everyone' | 'role-gone' | 'role-managed' | 'no-manage-roles' | 'role-above-bot'>;

/** What the rules read: the guild's roles and which of them the bot holds. */
export interface GuildRoleFacts {
  guildId: string;
  roles: readonly { id: string; position: number; managed: boolean; permissions: bigint }[];
  botRoleIds: readonly string[];
}

/** Every reason the bot cannot give `roleId`, most basic first; empty when it can. */
export function roleIssues(facts: GuildRoleFacts, roleId: string): RoleIssue[] {
  if (roleId === facts.guildId) return ['role-everyone'];
  const role = facts.roles.find((candidate) => candidate.id === roleId);
  if (!role) return ['role-gone'];
  if (role.managed) return ['role-managed'];
  const everyone = facts.roles.find((candidate) => candidate.id === facts.guildId);
  const mine = facts.roles.filter((candidate) => facts.botRoleIds.includes(candidate.id));
  const issues: RoleIssue[] = [];
  const permissions = [...(everyone ? [everyone] : []), ...mine].reduce((all, candidate) => all | candidate.permissions, 0n);
  if ((permissions & (PermissionFlagsBits.ManageRoles | PermissionFlagsBits.Administrator)) === 0n) issues.push('no-manage-roles');
  if (!mine.some((candidate) => higher(candidate, role))) issues.push('role-above-bot');
  return issues;
}

/** Discord's role order: by position; between equal positions the older role (the lower id) is higher. */
function higher(a: { id: string; position: number }, b: { id: string; position: number }): boolean {
  if (a.position !== b.position) return a.position > b.position;
  return BigInt(a.id) < BigInt(b.id);
}

/** The facts as the bot's cache holds them (the guild of an interaction this process serves). */
export function cachedRoleFacts(guild: Guild): GuildRoleFacts {
  const botId = guild.client.user.id;
  const me = guild.members.me;
  return {
    guildId: guild.id,
    roles: guild.roles.cache.map((role) => ({ id: role.id, position: role.position, managed: role.managed, permissions: role.permissions.bitfield })),
    // The bot's own member is kept in the cache (app.ts); without it, its managed role still names it.
    botRoleIds: me ? [...me.roles.cache.keys()] : guild.roles.cache.filter((role) => role.tags?.botId === botId).map((role) => role.id),
  };
}

/** The facts read over REST: for a guild this process may not hold (another shard's). */
export async function fetchedRoleFacts(rest: REST, guildId: string, botId: string): Promise<GuildRoleFacts> {
  const [roles, me] = (await Promise.all([rest.get(Routes.guildRoles(guildId)), rest.get(Routes.guildMember(guildId, botId))])) as [APIRole[], APIGuildMember];
  return {
    guildId,
    roles: roles.map((role) => ({ id: role.id, position: role.position, managed: role.managed, permissions: BigInt(role.permissions) })),
    botRoleIds: me.roles,
  };
}
