import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { shopAdminNames } from '../../../commands/admin/names.js';
import { cartNames } from '../../../commands/cart/names.js';
import { checkoutNames } from '../../../commands/checkout/names.js';
import { features } from '../../../commands/index.js';
import { linksNames } from '../../../commands/links/names.js';
import { shopNames } from '../../../commands/shop/names.js';
import { shopTopNames } from '../../../commands/top/names.js';
import { redeemNames } from '../../../commands/redeem/names.js';
import { subcommandKey, type CommandNames } from '../../../src/discord/command-names.js';

/**
 * The handlers read options, autocomplete focus and subcommands by the features' name constants;
 * these tests hold the registered definitions to the same constants, so a name the handlers read
 * is one Discord actually sends.
 */

const everyCommandNames: readonly CommandNames[] = [shopNames, cartNames, checkoutNames, linksNames, shopAdminNames, shopTopNames, redeemNames];

interface DefinedOption {
  type: number;
  name: string;
  options?: DefinedOption[];
}

const SUBCOMMAND_TYPES: readonly number[] = [ApplicationCommandOptionType.Subcommand, ApplicationCommandOptionType.SubcommandGroup];

/** The definition's options and subcommands at each level are exactly the ones the names declare. */
function expectDeclared(names: CommandNames, defined: readonly DefinedOption[], where: string): void {
  const subcommands = defined.filter((option) => SUBCOMMAND_TYPES.includes(option.type));
  const options = defined.filter((option) => !SUBCOMMAND_TYPES.includes(option.type));
  expect(options.map((option) => option.name).sort(), `${where}: options`).toEqual(Object.values(names.options ?? {}).sort());
  const declaredSubcommands = Object.values(names.subcommands ?? {});
  expect(subcommands.map((option) => option.name).sort(), `${where}: subcommands`).toEqual(declaredSubcommands.map((sub) => sub.name).sort());
  for (const sub of declaredSubcommands) {
    const found = subcommands.find((option) => option.name === sub.name)!;
    expect(found.type, `${where} ${sub.name}: a group exactly when it has subcommands`).toBe(
      sub.subcommands ? ApplicationCommandOptionType.SubcommandGroup : ApplicationCommandOptionType.Subcommand,
    );
    expectDeclared(sub, found.options ?? [], `${where} ${sub.name}`);
  }
}

/** The keys the router looks a subcommand up by: `status`, `license set`. */
function subcommandPaths(names: CommandNames, group: readonly string[] = []): string[] {
  return Object.values(names.subcommands ?? {}).flatMap((sub) =>
    sub.subcommands ? subcommandPaths(sub, [...group, sub.name]) : [subcommandKey(...group, sub.name)],
  );
}

function namesOf(commandName: string): CommandNames {
  const names = everyCommandNames.find((each) => each.name === commandName);
  if (!names) throw new Error(`/${commandName} has no names constant in this test`);
  return names;
}

const COMMANDS_DIR = fileURLToPath(new URL('../../../commands', import.meta.url));
const commands = features.flatMap((feature) => (feature.command ? [feature.command] : []));

describe('command names', () => {
  it('every slash command has its names constant, and every names constant a command', () => {
    expect(commands.map((command) => command.name).sort()).toEqual(everyCommandNames.map((names) => names.name).sort());
  });

  it('each definition registers exactly the options and subcommands its feature declares, by those names', () => {
    for (const command of commands) {
      const names = namesOf(command.name);
      const definition = command.definition();
      expect(definition.name, `/${command.name}`).toBe(names.name);
      expectDeclared(names, (definition.options ?? []) as DefinedOption[], `/${command.name}`);
    }
  });

  it('each subcommand table has a handler for every declared subcommand, under the key the router reads', () => {
    for (const command of commands) {
      const names = namesOf(command.name);
      const keys = typeof command.run === 'function' ? [] : Object.keys(command.run);
      expect(keys.sort(), `/${command.name}`).toEqual(subcommandPaths(names).sort());
    }
  });

  it('no handler reads an option or a focused option by a name written out instead of its constant', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
      );
    const literalRead = /options\.get\w*\(\s*['"`]|focused\.name\s*[!=]==?\s*['"`]/;
    const offenders = sources(COMMANDS_DIR).filter((file) => literalRead.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
    expect(sources(COMMANDS_DIR).length).toBeGreaterThan(20);
  });
});
