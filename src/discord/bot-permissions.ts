import { OAuth2Scopes, PermissionFlagsBits } from 'discord.js';

/**
 * What the bot does in a server, and the permission each needs. The admins' channel checks read these,
 * and the invite link asks for exactly their sum: a permission the bot uses is added here, where the
 * invite picks it up.
 */

/** Posting in a channel (the purchase feed, the log channel, the shop panel): seeing it, writing, embeds. */
export const POST_PERMISSIONS = [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages, PermissionFlagsBits.EmbedLinks] as const;
/** Posts that carry files: the demo shop's pictures on its panel. */
export const FILE_PERMISSION = PermissionFlagsBits.AttachFiles;
/** Replacing a classic shop panel: the bot fetches its old message before posting the new one. */
export const HISTORY_PERMISSION = PermissionFlagsBits.ReadMessageHistory;
/** Giving and taking back reward roles. */
export const ROLE_PERMISSION = PermissionFlagsBits.ManageRoles;
/**
 * Reading the audit log when a timed reward role ends: a role staff gave by hand meanwhile is left
 * alone (src/services/rewards/expiry.ts). Without it the role is taken back all the same.
 */
export const AUDIT_LOG_PERMISSION = PermissionFlagsBits.ViewAuditLog;

/** Everything above, as the number Discord's invite link carries. */
export const BOT_PERMISSIONS: bigint = [...POST_PERMISSIONS, FILE_PERMISSION, HISTORY_PERMISSION, ROLE_PERMISSION, AUDIT_LOG_PERMISSION].reduce((all, bit) => all | bit, 0n);

/**
 * The store webhook (docs/store-webhook.md) makes a webhook in one channel the admins choose: it needs
 * Manage Webhooks there, and only there. Left out of the invite every owner opens (with it server-wide
 * the bot could make webhooks in every channel); its docs give an invite that asks for it too, for an
 * owner who would rather grant it with the bot's role than in the channel.
 */
export const STORE_WEBHOOK_PERMISSION = PermissionFlagsBits.ManageWebhooks;

/** The link a server owner opens to add the bot with its slash commands and the permissions it uses. */
export function inviteUrl(applicationId: string): string {
  const query = new URLSearchParams({ client_id: applicationId, scope: [OAuth2Scopes.Bot, OAuth2Scopes.ApplicationsCommands].join(' '), permissions: BOT_PERMISSIONS.toString() });
  return `https://discord.com/oauth2/authorize?${query.toString()}`;
}
