/**
 * Channel webhooks as Discord keeps them (the kind a shop panel posts purchases through), and what the
 * gateway shows of a message to a session given its intents. The routes live in `fake-discord.ts`;
 * this file holds the state, the payload and the rules.
 */
import { randomBytes } from 'node:crypto';
import type { FakeUser } from './types.js';
import type { Json } from './payloads.js';

/** Discord refuses a 16th webhook in one channel (30007). */
export const MAX_WEBHOOKS_PER_CHANNEL = 15;

/** Gateway intents that decide whether and how a guild message reaches a session. */
export const GUILD_MESSAGES_INTENT = 1 << 9;
export const MESSAGE_CONTENT_INTENT = 1 << 15;

export interface WebhookState {
  id: string;
  /** The secret in the webhook's URL: whoever holds it can post, read and delete its messages. */
  token: string;
  guildId: string;
  channelId: string;
  name: string;
  /** The application that created it (set when a bot created it, as on Discord). */
  applicationId: string | null;
  /** Who created it: the `user` of the webhook object. */
  creator: FakeUser;
}

export function newWebhookToken(): string {
  // Discord's tokens are 68 URL-safe characters.
  return randomBytes(51).toString('base64url');
}

/** Discord's name rules for a webhook: 1 to 80 characters, not containing "clyde" or "discord". */
export function webhookNameError(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length < 1 || name.length > 80) return 'Must be between 1 and 80 in length.';
  const lower = name.toLowerCase();
  if (lower.includes('clyde') || lower.includes('discord')) return `Webhook names cannot contain the substring "${lower.includes('clyde') ? 'clyde' : 'discord'}".`;
  return undefined;
}

/** The webhook object; `withToken` is false where Discord leaves the token out (reads by token). */
export function webhookJson(hook: WebhookState, creator: Json, withToken: boolean): Json {
  return {
    id: hook.id,
    type: 1,
    guild_id: hook.guildId,
    channel_id: hook.channelId,
    name: hook.name,
    avatar: null,
    application_id: hook.applicationId,
    user: creator,
    ...(withToken ? { token: hook.token } : {}),
  };
}

/** A webhook message's author: the webhook's id and name, marked as a bot, discriminator 0000. */
export function webhookAuthor(hook: WebhookState, username: unknown): FakeUser {
  return { id: hook.id, username: typeof username === 'string' && username.length > 0 ? username : hook.name, global_name: null };
}

/**
 * What MESSAGE_CREATE a session with these intents gets: nothing without Guild Messages; without the
 * privileged Message Content intent, the message with its content, embeds, attachments and components
 * blanked (Discord does so for every message that does not mention the bot, webhook posts included).
 */
export function messageCreateFor(intents: number, message: Json): Json | undefined {
  if ((intents & GUILD_MESSAGES_INTENT) === 0) return undefined;
  if ((intents & MESSAGE_CONTENT_INTENT) !== 0) return message;
  return { ...message, content: '', embeds: [], attachments: [], components: [] };
}
