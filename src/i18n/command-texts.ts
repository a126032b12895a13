/**
 * The shape of the slash commands' texts in the catalogs, for any command's wire names: a text for
 * every command, subcommand and option declared there, and for nothing else. English is the wire
 * name itself, so its catalog holds only descriptions; Polish holds names too. Which commands there
 * are is the features' business: each declares its names in commands/<feature>/names.ts, the
 * registry commands/names.ts lists them, and commands/command-texts.ts holds the catalogs to them.
 */

/**
 * A slash command's wire names: what Discord registers and sends back in every interaction, and
 * what the handlers read. Each feature declares them once (commands/<feature>/names.ts; the
 * settings' options come from src/settings/guild-settings-table.ts); the catalogs hold only the
 * texts beside them (descriptions, Polish names), keyed the same way.
 */
export interface CommandNames {
  readonly name: string;
  /** The options, by the key the catalogs and the code know them by. */
  readonly options?: Readonly<Record<string, string>>;
  /** Subcommands and subcommand groups (a group's own `subcommands`). */
  readonly subcommands?: Readonly<Record<string, CommandNames>>;
}

export type OptionsOf<N> = N extends { options: infer O extends Readonly<Record<string, string>> } ? O : never;
export type SubcommandsOf<N> = N extends { subcommands: infer S extends Readonly<Record<string, CommandNames>> } ? S : never;

/** One text per command, subcommand and option of `N`, each a `Node`. */
type TextTree<N, Node> = Node &
  ([OptionsOf<N>] extends [never] ? unknown : { options: { [K in keyof OptionsOf<N>]: Node } }) &
  ([SubcommandsOf<N>] extends [never] ? unknown : { subcommands: { [K in keyof SubcommandsOf<N>]: TextTree<SubcommandsOf<N>[K], Node> } });

export interface EnglishText {
  description: string;
}
export interface PolishText {
  name: string;
  description: string;
}

export type EnglishTexts<N> = TextTree<N, EnglishText>;
export type PolishTexts<N> = TextTree<N, PolishText>;
