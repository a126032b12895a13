import { PermissionFlagsBits } from 'discord.js';
import { expect } from 'vitest';
import { DEFAULT_BOT_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import type { Member } from './buyer.js';
import type { Harness } from './harness.js';

/** The store's purchase webhook in tests: an admin connects it, the store (or anyone with its URL) posts. */

/** An admin who may connect the store webhook: Manage Server, and Manage Webhooks (the bot makes one on their behalf). */
export const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageWebhooks;
export const TEMPLATE = 'Gracz {NICK} kupił {PRODUCT} ({VARIANT}), kwota: {AMOUNT}, transakcja: {TRANSACTION_ID}';

/** Resolves once the bot logged `more` further lines with this message (h.logged counts from the start). */
export function loggedMore(h: Harness, message: string, more = 1): Promise<void> {
  const already = h.logs.filter((line) => (JSON.parse(line) as { msg?: string }).msg === message).length;
  return h.logged(message, already + more);
}

export async function connectStoreWebhook(h: Pick<Harness, 'discord'>, admin: Member): Promise<{ id: string; token: string; url: string; channelId: string }> {
  h.discord.setBotPermissions(h.discord.defaultGuildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageWebhooks);
  const channel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-posts' });
  await admin.sub('shop-admin', 'store-webhook connect', { channel });
  const [hook] = h.discord.webhooksIn(channel);
  return { id: hook!.id, token: hook!.token, url: `${h.discord.apiUrl}/webhooks/${hook!.id}/${hook!.token}`, channelId: channel };
}

/** A post made with the webhook's URL, as the store (or whoever holds the URL) makes it. */
export async function postAsStore(hook: { url: string }, content: string): Promise<void> {
  const response = await fetch(`${hook.url}?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content }) });
  expect(response.status).toBe(200);
}
