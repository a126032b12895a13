/**
 * The admin's step the store webhook bench phases share (bench/store-webhook-phase.ts,
 * bench/store-webhook-costs.ts): `/shop-admin store-webhook connect`, as an admin runs it.
 */
import { randomBytes } from 'node:crypto';
import { PermissionFlagsBits } from 'discord.js';
import { DEFAULT_BOT_PERMISSIONS, type FakeDiscord } from '../test/fakes/discord/fake-discord.js';
import { textOf } from '../test/support/ui.js';

export const SECOND = 1_000;
/** Sealing the webhook's token needs a key: one per bench run, never printed. */
export const ENCRYPTION_KEY = randomBytes(32).toString('base64');
export const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageWebhooks;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * The admin's step: `/shop-admin store-webhook connect` on a new channel; returns the address and
 * the text the bot's private answer tells the admin to paste in the panel.
 */
export async function connectAsAdmin(discord: FakeDiscord, name: string): Promise<{ url: string; template: string }> {
  const guildId = discord.defaultGuildId;
  discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageWebhooks);
  const channel = discord.addChannel(guildId, { name });
  const admin = discord.newUser({ username: `owner-${name}` });
  const handle = await discord.slash(admin, 'shop-admin', { subcommandGroup: 'store-webhook', subcommand: 'connect', options: { channel }, permissions: ADMIN });
  const answer = await handle.settled();
  const text = answer.message ? textOf(answer.message) : '';
  const url = /https?:\/\/\S+?\/webhooks\/\d+\/[\w-]+/.exec(text)?.[0];
  const template = text.split('\n').map((line) => line.replaceAll('`', '').trim()).find((line) => line.includes('{TRANSACTION_ID}') && !line.includes(' must '));
  if (!url || !template) throw new Error('store webhook: the connect answer gave no address or no text to paste');
  return { url, template };
}

