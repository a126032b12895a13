import {
  ApplicationCommandOptionType,
  InteractionContextType,
  type APIApplicationCommandStringOption,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type {
  EnglishText,
  EnglishTexts,
  OptionsOf,
  PolishText,
  PolishTexts,
  SubcommandsOf,
} from '../i18n/command-texts.js';
import { enCommands } from '../i18n/en.js';
import { plCommands } from '../i18n/pl.js';
import type { CommandNames } from './command-names.js';

/** A command or subcommand of a feature: its wire names (from the feature) beside its texts in both catalogs. */
export interface CommandTexts<N extends CommandNames> {
  readonly names: N;
  readonly en: EnglishTexts<N>;
  readonly pl: PolishTexts<N>;
}

/**
 * A command's texts, looked up in the catalogs by its key there; `names` is the feature's own
 * constant. Features call it through commands/command-texts.ts, which ties each key to its names.
 */
export function catalogTexts<N extends CommandNames>(key: keyof typeof enCommands & keyof typeof plCommands, names: N): CommandTexts<N> {
  return { names, en: enCommands[key], pl: plCommands[key] } as unknown as CommandTexts<N>;
}

/** A subcommand (or subcommand group) of `parent`, by its key. */
export function subcommandTexts<N extends CommandNames, K extends keyof SubcommandsOf<N> & string>(
  parent: CommandTexts<N>,
  key: K,
): CommandTexts<SubcommandsOf<N>[K]> {
  const { names, en, pl } = parent as unknown as LooseTexts;
  return { names: names.subcommands![key]!, en: en.subcommands![key]!, pl: pl.subcommands![key]! } as unknown as CommandTexts<SubcommandsOf<N>[K]>;
}

/** What Discord reads for a localized command or option: English names, with the Polish ones beside them. */
interface Localized {
  name: string;
  description: string;
  name_localizations: { pl: string };
  description_localizations: { pl: string };
}

/** A command's or subcommand's name (the wire name) and description, with the Polish localizations. */
export function localized(command: CommandTexts<CommandNames>): Localized {
  return localizedText(command.names.name, command.en, command.pl);
}

/** One option of a command or subcommand, named and described like `localized`. */
export function localizedOption<N extends CommandNames>(command: CommandTexts<N>, key: keyof OptionsOf<N> & string): Localized {
  const { names, en, pl } = command as unknown as LooseTexts;
  return localizedText(names.options![key]!, en.options![key]!, pl.options![key]!);
}

function localizedText(name: string, english: EnglishText, polish: PolishText): Localized {
  return {
    name,
    description: english.description,
    name_localizations: { pl: polish.name },
    description_localizations: { pl: polish.description },
  };
}

/** The texts' tree without the per-command typing, for walking it by key. */
interface LooseTexts {
  names: CommandNames;
  en: LooseNode<EnglishText>;
  pl: LooseNode<PolishText>;
}
type LooseNode<Text> = Text & { options?: Record<string, Text>; subcommands?: Record<string, LooseNode<Text>> };

type CommandBody = RESTPostAPIChatInputApplicationCommandsJSONBody;

/** A slash command for servers (never DMs), named by its feature and described from the catalogs. */
export function guildCommand(command: CommandTexts<CommandNames>, extra: Omit<CommandBody, 'name' | 'description'> = {}): CommandBody {
  return { ...localized(command), contexts: [InteractionContextType.Guild], ...extra };
}

/** An optional text option of `command`, named by its feature and described from the catalogs. */
export function optionalText<N extends CommandNames>(
  command: CommandTexts<N>,
  key: keyof OptionsOf<N> & string,
  extra: Partial<APIApplicationCommandStringOption> = {},
): APIApplicationCommandStringOption {
  return { type: ApplicationCommandOptionType.String, ...localizedOption(command, key), required: false, ...extra } as APIApplicationCommandStringOption;
}
