import type { EnglishTexts, PolishTexts } from '../src/i18n/command-texts.js';
import type { enCommands } from '../src/i18n/en.js';
import type { plCommands } from '../src/i18n/pl.js';
import { catalogTexts, type CommandTexts } from '../src/discord/localize.js';
import { commandNames, type CommandKey, type CommandNamesByKey } from './names.js';

/**
 * The catalogues' slash-command texts held to the features' wire names (the registry,
 * commands/names.ts). Fails to compile when a catalogue lacks a text for a command, subcommand or
 * option a feature declares, or has one for something no feature declares.
 */

export type { CommandKey, CommandNamesByKey } from './names.js';

export type EnglishCommandTexts = { [K in CommandKey]: EnglishTexts<CommandNamesByKey[K]> };
export type PolishCommandTexts = { [K in CommandKey]: PolishTexts<CommandNamesByKey[K]> };

/** True only when each type is assignable to the other: nothing missing, nothing extra. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Compile-time checks: an error here names a catalog whose command texts do not match the features' names.
export const englishTextsMatchNames: Same<typeof enCommands, EnglishCommandTexts> = true;
export const polishTextsMatchNames: Same<typeof plCommands, PolishCommandTexts> = true;

/** A command's texts, looked up in the catalogues by its key there, beside its names from the registry (commands/names.ts). */
export function commandTexts<K extends CommandKey>(key: K): CommandTexts<CommandNamesByKey[K]> {
  return catalogTexts(key, commandNames[key]);
}
