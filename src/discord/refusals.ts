import { DiscordAPIError, RESTJSONErrorCodes } from 'discord.js';

/**
 * Discord's answers that are final for the request that got them: asking again
 * gets the same answer, and every such 4xx counts towards Discord's ban of the bot's address (10 000
 * invalid requests in 10 minutes). Background work records them and never sends the request again.
 * The one list of them: buyers' roles (member-roles.ts), the purchase feed (purchase-feed-poster.ts)
 * and a settled payment's steps (payment-links/settled-links.ts, gift-dm.ts) read it here.
 */
export type DiscordRefusal =
  /** 403 50001: the bot cannot see the channel (or is not in the server any more). */
  | 'missing-access'
  /** 403 50013: a permission is missing (Send Messages in the channel, Manage Roles, role order). */
  | 'missing-permissions'
  /** 403 50007: the member does not take DMs from the bot (closed them, or blocked it). */
  | 'dms-closed'
  /** 404 10003: the channel was deleted. */
  | 'unknown-channel'
  /** 404 10004: the server is gone for the bot. */
  | 'unknown-guild'
  /** 404 10007: the member left the server. */
  | 'unknown-member'
  /** 404 10008: the message was deleted. */
  | 'unknown-message'
  /** 404 10011: the role was deleted. */
  | 'unknown-role'
  /** 404 10013: the account is gone. */
  | 'unknown-user';

const FINAL = new Map<number, DiscordRefusal>([
  [RESTJSONErrorCodes.MissingAccess, 'missing-access'],
  [RESTJSONErrorCodes.MissingPermissions, 'missing-permissions'],
  [RESTJSONErrorCodes.CannotSendMessagesToThisUser, 'dms-closed'],
  [RESTJSONErrorCodes.UnknownChannel, 'unknown-channel'],
  [RESTJSONErrorCodes.UnknownGuild, 'unknown-guild'],
  [RESTJSONErrorCodes.UnknownMember, 'unknown-member'],
  [RESTJSONErrorCodes.UnknownMessage, 'unknown-message'],
  [RESTJSONErrorCodes.UnknownRole, 'unknown-role'],
  [RESTJSONErrorCodes.UnknownUser, 'unknown-user'],
]);

/** The final refusal `error` is, or undefined for anything that may pass (a 5xx, a time-out, a 429, another 4xx). */
export function discordRefusalOf(error: unknown): DiscordRefusal | undefined {
  if (!(error instanceof DiscordAPIError) || typeof error.code !== 'number') return undefined;
  return FINAL.get(error.code);
}
