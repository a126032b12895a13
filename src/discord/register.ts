import { Routes, type REST, type RESTGetCurrentApplicationResult } from 'discord.js';
import type { Feature } from './feature.js';

/** Puts every slash and message command's definition to Discord, globally or for one guild; returns the names registered. */
export async function registerCommands(rest: REST, features: readonly Feature[], guildId?: string): Promise<string[]> {
  const application = (await rest.get(Routes.currentApplication())) as RESTGetCurrentApplicationResult;
  const body = features.flatMap((feature) => [
    ...(feature.command ? [feature.command.definition()] : []),
    ...(feature.messageCommand ? [feature.messageCommand.definition()] : []),
  ]);
  const route = guildId ? Routes.applicationGuildCommands(application.id, guildId) : Routes.applicationCommands(application.id);
  await rest.put(route, { body });
  return body.map((command) => command.name);
}
