/**
 * A slash command named inside a text, as the reader's client shows it: "/sklep-admin licencja ustaw"
 * in Polish, "/shop-admin license set" in English. Built from the command's declared names (the
 * features' names.ts for English, the Polish names in the catalogue's command texts) so a renamed
 * command or subcommand is renamed in every sentence too, and no text names a command by hand.
 */

/** A command's names as either tree holds them: wire names (names.ts) or Polish texts (plCommands). */
export interface NamedCommand {
  readonly name: string;
  readonly options?: Readonly<Record<string, string | { readonly name: string }>>;
  readonly subcommands?: Readonly<Record<string, NamedCommand>>;
}

type Subs<N> = N extends { readonly subcommands: infer S } ? S : never;
type Options<N> = N extends { readonly options: infer O } ? O : never;

/** "/command sub sub", from the command and the keys of its subcommands. */
export function slash<N extends NamedCommand, A extends keyof Subs<N> & string, B extends keyof Subs<Subs<N>[A]> & string>(
  command: N,
  sub?: A,
  subSub?: B,
): string {
  const parts = [command.name];
  const first = sub === undefined ? undefined : command.subcommands?.[sub];
  if (first) parts.push(first.name);
  const second = subSub === undefined ? undefined : first?.subcommands?.[subSub];
  if (second) parts.push(second.name);
  return `/${parts.join(' ')}`;
}

/** An option as it is typed after its command: "kanał-zakupów:". */
export function optionName<N extends NamedCommand>(command: N, option: keyof Options<N> & string): string {
  const value = command.options?.[option];
  const name = typeof value === 'string' ? value : value?.name;
  return `${name ?? option}:`;
}
