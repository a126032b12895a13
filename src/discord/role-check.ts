import { GuildMember, OverwriteType, PermissionFlagsBits, Routes, type APIGuildMember, type APIInteractionGuildMember, type APIRole, type Guild, type REST } from 'discord.js';
import { ROLE_PERMISSION } from './bot-permissions.js';
import { POWERFUL_PERMISSIONS, type PowerfulPermission, type RoleProblem } from '../services/rewards.js';

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
  /** What channels allow each role on top of its own permissions (role overwrites), when read. */
  channelAllows?: readonly { roleId: string; allow: bigint }[];
}

/**
 * The powers a role carries: its own permissions and any a channel's overwrite allows it (Manage
 * Messages in one channel is moderation all the same). Administrator first: it implies the rest.
 */
export function rolePowers(facts: GuildRoleFacts, roleId: string): PowerfulPermission[] {
  const role = facts.roles.find((candidate) => candidate.id === roleId);
  const channels = (facts.channelAllows ?? []).filter((overwrite) => overwrite.roleId === roleId).reduce((all, overwrite) => all | overwrite.allow, 0n);
  return powerfulPermissions((role?.permissions ?? 0n) | channels);
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
  if ((permissions & (ROLE_PERMISSION | PermissionFlagsBits.Administrator)) === 0n) issues.push('no-manage-roles');
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
    channelAllows: [...guild.channels.cache.values()].flatMap((channel) =>
      'permissionOverwrites' in channel
        ? channel.permissionOverwrites.cache.filter((overwrite) => overwrite.type === OverwriteType.Role).map((overwrite) => ({ roleId: overwrite.id, allow: overwrite.allow.bitfield }))
        : [],
    ),
  };
}

/** Role overwrites of the guild's channels, read over REST (one request): what rolePowers adds to a role's own permissions. */
export async function fetchedChannelAllows(rest: REST, guildId: string): Promise<{ roleId: string; allow: bigint }[]> {
  const channels = (await rest.get(Routes.guildChannels(guildId))) as { permission_overwrites?: { id: string; type: OverwriteType; allow: string }[] }[];
  return channels.flatMap((channel) =>
    (channel.permission_overwrites ?? []).filter((overwrite) => overwrite.type === OverwriteType.Role).map((overwrite) => ({ roleId: overwrite.id, allow: BigInt(overwrite.allow) })),
  );
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

/** The permissions among POWERFUL_PERMISSIONS a role's bits carry (Administrator first: it implies the rest). */
export function powerfulPermissions(bits: bigint): PowerfulPermission[] {
  return POWERFUL_PERMISSIONS.filter((name) => (bits & PermissionFlagsBits[name]) !== 0n);
}

/** Why a person may not hand out a role by Discord's rules: no Manage Roles of their own, or the role not below their highest. */
export type PersonIssue = 'no-manage-roles' | 'role-above-you';

/**
 * Discord's rule for a person giving a role by hand: Manage Roles (Administrator includes it) from
 * their server roles, not one channel's overwrite, and the role below their highest role; the
 * server owner may give any role. The bot gives reward roles on the admins' behalf, so it asks the same.
 */
export function personIssue(guild: Guild, member: GuildMember | APIInteractionGuildMember | null, userId: string, roleId: string): PersonIssue | undefined {
  if (guild.ownerId === userId) return undefined;
  // discord.js builds the member from the cached guild; without its roles nothing can be allowed.
  if (!(member instanceof GuildMember)) return 'no-manage-roles';
  if (!member.permissions.has(PermissionFlagsBits.ManageRoles)) return 'no-manage-roles';
  const role = guild.roles.cache.get(roleId);
  if (!role || member.roles.highest.comparePositionTo(role) <= 0) return 'role-above-you';
  return undefined;
}
