/** Declared below the catalogs, which hold the texts beside the names (src/i18n/command-texts.ts). */
export type { CommandNames } from '../i18n/command-texts.js';

/** The key of a subcommand in a command's table: `status`, or `license set` for one in a group (as the router reads it). */
export function subcommandKey(...path: readonly string[]): string {
  return path.join(' ');
}
