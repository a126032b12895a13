import { Routes, type Client, type REST } from 'discord.js';
import type { Logger } from '../logger.js';
import { inviteUrl } from './bot-permissions.js';

/**
 * What a new owner needs once the bot is connected: the link that adds it to a server, and a warning
 * when Discord knows none of its commands (nobody ran register-commands), which is otherwise silent:
 * the bot says "ready" and nobody sees /shop.
 */

/** Guilds asked for their own commands when none are global: a newcomer's bot is in a few; a big bot registers globally. */
const GUILDS_CHECKED = 25;

/** Discord refused the token (401): what the bot and register-commands both say, naming the setting and the fix. */
export const TOKEN_REJECTED = 'Discord rejected DISCORD_TOKEN: copy the token again from the developer portal (Bot → Reset Token) into .env';

export const REGISTER_HINT = 'run  npm run register-commands -- --guild <server id>  (one server, at once) or  npm run register-commands  (every server, within about an hour)';

/** Where the application's commands are registered: globally, in one of the guilds asked, or nowhere. */
export async function registeredCommandsWhere(rest: REST, applicationId: string, guildIds: readonly string[]): Promise<'global' | 'guild' | 'none'> {
  const global = (await rest.get(Routes.applicationCommands(applicationId))) as unknown[];
  if (global.length > 0) return 'global';
  for (const guildId of guildIds.slice(0, GUILDS_CHECKED)) {
    const own = (await rest.get(Routes.applicationGuildCommands(applicationId, guildId))) as unknown[];
    if (own.length > 0) return 'guild';
  }
  return 'none';
}

/** Logs the invite link and, when no commands are registered, one warning naming the command to run. Never fails the start. */
export async function logStartUpHints(client: Client, logger: Logger): Promise<void> {
  const applicationId = client.application?.id;
  if (!applicationId) return;
  logger.info({ invite: inviteUrl(applicationId) }, 'invite link: open it to add the bot to a server');
  const guildIds = [...client.guilds.cache.keys()];
  const where = await registeredCommandsWhere(client.rest, applicationId, guildIds).catch((error: unknown) => {
    logger.info({ err: error }, 'could not ask Discord which commands are registered');
    return undefined;
  });
  if (where === 'global' || where === 'guild') logger.info({ where }, 'slash commands are registered');
  if (where !== 'none') return;
  const checked = guildIds.length > GUILDS_CHECKED ? ` (asked globally and in ${GUILDS_CHECKED} of its ${guildIds.length} servers)` : '';
  logger.warn(`no slash commands are registered for this bot${checked}, so members see no /shop: ${REGISTER_HINT}`);
}
