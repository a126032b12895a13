import {
  ApplicationCommandOptionType,
  InteractionContextType,
  type APIApplicationCommandStringOption,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { en } from '../i18n/en.js';
import { pl } from '../i18n/pl.js';

type CommandTexts = keyof typeof en.commands;

/** A command's or option's name and description in English with the Polish localizations, from the one catalog. */
export function localized(key: CommandTexts): Localized {
  return localizedFrom((catalog) => catalog.commands[key]);
}

type NameAndDescription = { name: string; description: string };

/** What Discord reads for a localized command or option: English names, with the Polish ones beside them. */
interface Localized {
  name: string;
  description: string;
  name_localizations: { pl: string };
  description_localizations: { pl: string };
}

/** Like `localized`, for texts anywhere in the catalogs (e.g. `(m) => m.admin.status`). */
export function localizedFrom(pick: (catalog: typeof en) => NameAndDescription): Localized {
  const english = pick(en);
  const polish = pick(pl);
  return {
    name: english.name,
    description: english.description,
    name_localizations: { pl: polish.name },
    description_localizations: { pl: polish.description },
  };
}

type CommandBody = RESTPostAPIChatInputApplicationCommandsJSONBody;

/** A slash command for servers (never DMs), named and described from the catalogs. */
export function guildCommand(key: CommandTexts, extra: Omit<CommandBody, 'name' | 'description'> = {}): CommandBody {
  return { ...localized(key), contexts: [InteractionContextType.Guild], ...extra };
}

/** An optional text option, named and described from the catalogs. */
export function optionalText(key: CommandTexts, extra: Partial<APIApplicationCommandStringOption> = {}): APIApplicationCommandStringOption {
  return { type: ApplicationCommandOptionType.String, ...localized(key), required: false, ...extra } as APIApplicationCommandStringOption;
}

