import { Routes, type REST, type RESTGetAPICurrentUserGuildsResult } from 'discord.js';

/**
 * The two places Discord keeps an application's commands: globally (every server) and in one server.
 * A server that has both shows every command twice, and Discord says nothing of it: register-commands
 * looks for the other set after registering one, and removes a set when asked.
 */

/** Servers asked for their own commands after a global registration: a newcomer's bot is in a few. */
const GUILDS_CHECKED = 25;

export async function hasGlobalCommands(rest: REST, applicationId: string): Promise<boolean> {
  return ((await rest.get(Routes.applicationCommands(applicationId))) as unknown[]).length > 0;
}

/** The bot's servers (of the first GUILDS_CHECKED) that also have commands of their own. */
export async function guildsWithOwnCommands(rest: REST, applicationId: string): Promise<{ id: string; name: string }[]> {
  const guilds = (await rest.get(Routes.userGuilds(), { query: new URLSearchParams({ limit: String(GUILDS_CHECKED) }) })) as RESTGetAPICurrentUserGuildsResult;
  const found: { id: string; name: string }[] = [];
  for (const guild of guilds.slice(0, GUILDS_CHECKED)) {
    const own = (await rest.get(Routes.applicationGuildCommands(applicationId, guild.id))) as unknown[];
    if (own.length > 0) found.push({ id: guild.id, name: guild.name });
  }
  return found;
}

/** Removes the global set (no guildId) or one server's. */
export async function clearCommands(rest: REST, applicationId: string, guildId?: string): Promise<void> {
  await rest.put(guildId ? Routes.applicationGuildCommands(applicationId, guildId) : Routes.applicationCommands(applicationId), { body: [] });
}

/** What register-commands prints when the set it just registered shows beside another. */
export function doubledInGuild(guildId: string): string {
  return (
    `The commands are also registered globally, so members of server ${guildId} see each of them twice. Keep one set: ` +
    `remove the global one with  npm run register-commands -- --clear-global  (then every server needs its own, as this one has), ` +
    `or this server's with  npm run register-commands -- --clear-guild ${guildId}`
  );
}

export function doubledGlobally(guild: { id: string; name: string }): string {
  return `Server ${guild.id} (${guild.name}) also has the commands of its own, so its members see each of them twice. Remove them with  npm run register-commands -- --clear-guild ${guild.id}`;
}
