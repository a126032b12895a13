/**
 * What roles for buyers need from below and above: Discord's answers about a member's roles
 * (`MemberRoles`, src/discord/member-roles.ts), what the admins are told (`RewardNotices`), and the
 * operator's counters. Nothing here knows Discord's library: src/discord/ turns its answers into these.
 */

/** Why Discord would not give or take a role, as the admins must hear it. */
export type RoleProblem =
  /** The member is not in the server any more. */
  | 'member-left'
  /** The bot is not in the server any more (removed, or the server deleted: 404 10004, 403 50001). */
  | 'bot-left'
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

/**
 * Permissions that give power over the server. A role carrying any of them, server-wide or through
 * one channel's overwrite, is never a reward: a purchase (or someone typing a buyer's nick) must not
 * buy moderation or administration.
 * Named as Discord's permission flags are.
 */
export const POWERFUL_PERMISSIONS = [
  'Administrator',
  'ManageGuild',
  'ManageRoles',
  'ManageChannels',
  'ManageWebhooks',
  'ManageMessages',
  'KickMembers',
  'BanMembers',
  'ModerateMembers',
  'MentionEveryone',
  // Moderation: voice, nicknames, threads, events, emoji and stickers, the audit log, pins.
  'MuteMembers',
  'DeafenMembers',
  'MoveMembers',
  'ManageNicknames',
  'ManageThreads',
  'ManageEvents',
  'ManageGuildExpressions',
  'ViewAuditLog',
  'PinMessages',
] as const;
export type PowerfulPermission = (typeof POWERFUL_PERMISSIONS)[number];

/** Why a role changes, for the audit log: a paid link (for so many days, or for good), or its time being up. */
export type RoleReason = { kind: 'bought'; linkId: string; days: number | null } | { kind: 'ended'; linkId: string };

/**
 * What one removal pass has read of Discord, shared by its calls (the guild's audit log is read once
 * for every role ending in the pass, not once per role); opaque here, kept by member-roles.ts.
 */
export type PassReadings = Map<string, unknown>;

/** The member's roles in Discord (src/discord/member-roles.ts). */
export interface MemberRoles {
  /** Whether the member holds the role now (`member-left` when they are not in the server). */
  holds(guildId: string, userId: string, roleId: string): Promise<RoleAnswer<boolean>>;
  /** The powerful permissions the role carries now (empty: none); `role-gone` when it was deleted. */
  powers(guildId: string, roleId: string): Promise<RoleAnswer<PowerfulPermission[]>>;
  /**
   * Whether someone other than the bot gave the member the role since `since` (the guild's audit log,
   * MEMBER_ROLE_UPDATE): `unknown` when the bot may not read the audit log (View Audit Log) or its
   * history does not reach back that far within the pages read.
   */
  givenByOthersSince(guildId: string, userId: string, roleId: string, since: number, pass?: PassReadings): Promise<RoleAnswer<boolean | 'no-audit-log' | 'unknown'>>;
  add(guildId: string, userId: string, roleId: string, reason: RoleReason): Promise<RoleAnswer<void>>;
  remove(guildId: string, userId: string, roleId: string, reason: RoleReason): Promise<RoleAnswer<void>>;
  /**
   * Whether the bot could take the role now, from reads of the guild's roles and its own (no change
   * sent: a read Discord answers is not an invalid request); the problem when it could not.
   */
  removable(guildId: string, roleId: string): Promise<RoleAnswer<void>>;
}

/** What the admins are told in the log channel: once per failure, with what to fix. */
export interface RewardNotices {
  grantFailed(failure: { guildId: string; userId: string; roleId: string; linkId: string; problem: RoleProblem }): Promise<void>;
  removalFailed(failure: { guildId: string; userId: string; roleId: string; problem: RoleProblem }): Promise<void>;
  /** The role was edited into power after it became a reward: not given (told once per role, not per buyer). */
  tooPowerful(notice: { guildId: string; userId: string; roleId: string; linkId: string; permissions: PowerfulPermission[] }): Promise<void>;
  /**
   * Another member paid with the link's nick lately, or (`manyNicks`) the buyer asked for that many unpaid links with other nicks:
   * not given; staff with Manage Roles may give it (the post's button). False when the post was not made (offered again).
   */
  nickShared(notice: { guildId: string; userId: string; roleId: string; linkId: string; nick: string; manyNicks?: number }): Promise<void | boolean>;
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

/** One role a paid link earns: for good (`days` null) or for so many days. */
export interface EarnedRole {
  roleId: string;
  days: number | null;
}
