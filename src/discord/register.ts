import { ApplicationCommandType, Routes, type REST, type RESTGetCurrentApplicationResult } from 'discord.js';
import type { Feature } from './feature.js';

/**
 * Puts every slash and message command's definition to Discord, globally or for one guild; returns
 * them as a member finds them: `/shop` for a slash command, `Apps → Check payment link` for a
 * message command (it has no slash: it sits in a message's Apps menu).
 */
export async function registerCommands(rest: REST, features: readonly Feature[], guildId?: string): Promise<string[]> {
  const application = (await rest.get(Routes.currentApplication())) as RESTGetCurrentApplicationResult;
  const body = features.flatMap((feature) => [
    ...(feature.command ? [feature.command.definition()] : []),
    ...(feature.messageCommand ? [feature.messageCommand.definition()] : []),
  ]);
  const route = guildId ? Routes.applicationGuildCommands(application.id, guildId) : Routes.applicationCommands(application.id);
  await rest.put(route, { body });
  return body.map((command) => ('type' in command && command.type === ApplicationCommandType.Message ? `Apps → ${command.name}` : `/${command.name}`));
}
