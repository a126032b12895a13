/**
 * A slash command's wire names: what Discord registers and sends back in every interaction, and
 * what the handlers read. Each feature declares them once (commands/<feature>/names.ts); the
 * catalogs hold only the texts beside them (descriptions, Polish names), keyed the same way.
 */
export interface CommandNames {
  readonly name: string;
  /** The options, by the key the catalogs and the code know them by. */
  readonly options?: Readonly<Record<string, string>>;
  /** Subcommands and subcommand groups (a group's own `subcommands`). */
  readonly subcommands?: Readonly<Record<string, CommandNames>>;
}

/** The key of a subcommand in a command's table: `status`, or `license set` for one in a group (as the router reads it). */
export function subcommandKey(...path: readonly string[]): string {
  return path.join(' ');
}
