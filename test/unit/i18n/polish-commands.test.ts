import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { shopAdminNames } from '../../../commands/admin/names.js';
import { cartNames } from '../../../commands/cart/names.js';
import { checkoutNames } from '../../../commands/checkout/names.js';
import { linksNames } from '../../../commands/links/names.js';
import { redeemNames } from '../../../commands/redeem/names.js';
import { shopNames } from '../../../commands/shop/names.js';
import { shopTopNames } from '../../../commands/top/names.js';
import { slash } from '../../../src/i18n/command-mention.js';
import { en } from '../../../src/i18n/en.js';
import { pl, plCommands } from '../../../src/i18n/pl.js';
import { allTexts, polishCommandTexts } from './catalogue-texts.js';

/** Every command's English (wire) name, from the features' declarations. */
const englishNames = [shopAdminNames, cartNames, checkoutNames, linksNames, redeemNames, shopNames, shopTopNames].map((names) => names.name);

/** Every command's Polish name, from the catalogue's command texts. */
const polishNames = Object.values(plCommands).map((command) => command.name);

/** "/shop-admin", "/links"… as a command: not followed by a letter or a hyphen ("/shop" is not "/shop-top"). */
const englishCommand = (): RegExp => new RegExp(`/(${englishNames.join('|')})(?![\\p{L}-])`, 'u');

describe('commands named in Polish texts', () => {
  it('no Polish text names a command by its English name', () => {
    const pattern = englishCommand();
    const found = [...allTexts(pl), ...polishCommandTexts()].filter(({ text }) => pattern.test(text)).map(({ path, text }) => `${path}: ${text}`);
    expect([...new Set(found)]).toEqual([]);
  });

  it('the check catches an English command in a Polish sentence', () => {
    const pattern = englishCommand();
    expect(pattern.test('Sprawdź licencję przez /shop-admin status.')).toBe(true);
    expect(pattern.test('Sprawdź licencję komendą /sklep-admin status.')).toBe(false);
  });

  it('a Polish text names a command by its declared Polish names', () => {
    const status = `/${plCommands.shopAdmin.name} ${plCommands.shopAdmin.subcommands.status.name}`;
    expect(status).toBe('/sklep-admin status');
    expect(pl.log.licenseProblem(401, undefined)).toContain(`komendą ${status}.`);
    expect(slash(plCommands.shopAdmin, 'license', 'set')).toBe('/sklep-admin licencja ustaw');
    expect(pl.admin.notConfigured).toContain('/sklep-admin licencja ustaw');
    expect(pl.links.linkTooLong).toContain(`/${plCommands.links.name} ${plCommands.links.subcommands.verify.name}`);
    expect(pl.feed.refused('#k', 'r')).toContain('/sklep-admin ustawienia kanał-zakupów:');
  });

  it('an English text names a command by its wire names, as an English client shows it', () => {
    expect(slash(shopAdminNames, 'license', 'set')).toBe('/shop-admin license set');
    expect(en.log.licenseProblem(401, undefined)).toContain('with /shop-admin status.');
    expect(en.admin.notConfigured).toContain('/shop-admin license set');
    expect(en.feed.refused('#k', 'r')).toContain('/shop-admin settings purchase-feed-channel:');
    expect(en.links.linkTooLong).toContain('/links verify');
  });
});

/**
 * A command named by hand in a catalogue's source: "/sklep" or "/shop-admin" in the text of a string
 * or template literal, outside `${…}`. A command built from its names (`${cmd.shop}`) is not in that
 * text, so only a name written out is found; a URL's path ("…/sklep/") is not a command.
 */
function handWrittenCommands(file: string): string[] {
  const names = [...new Set([...englishNames, ...polishNames])].sort((a, b) => b.length - a.length);
  return handWrittenIn(readFileSync(resolve(import.meta.dirname, '../../../src/i18n', file), 'utf8'), names).map((found) => `${file}:${found}`);
}

function handWrittenIn(source: string, names: readonly string[]): string[] {
  const parsed = ts.createSourceFile('catalogue.ts', source, ts.ScriptTarget.Latest, true);
  const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const command = new RegExp(`(?<![\\p{L}\\p{N}_./-])/(${escaped.join('|')})(?![\\p{L}\\p{N}_-])`, 'u');
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) {
      const match = command.exec(node.text);
      if (match) found.push(`${parsed.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${match[0]} in "${node.text.slice(0, 80)}"`);
    }
    node.forEachChild(visit);
  };
  visit(parsed);
  return found;
}

describe('commands named by hand', () => {
  it('no text in either catalogue writes a command out: each is built from its registered names', () => {
    expect([...handWrittenCommands('pl.ts'), ...handWrittenCommands('en.ts')]).toEqual([]);
  });

  it('the check finds a command written out, in either language, and nothing built or inside a URL', () => {
    const names = ['sklep', 'sklep-top', 'shop-admin'];
    expect(handWrittenIn("const a = 'Użyj /sklep, aby przejrzeć ofertę.';", names)).toHaveLength(1);
    expect(handWrittenIn('const a = (x: string) => `panel i /sklep-top to pomijają ${x}`;', names)).toHaveLength(1);
    expect(handWrittenIn('const a = (x: string) => `${x} Post it again with /shop-admin panel.`;', names)).toHaveLength(1);
    expect(handWrittenIn('const a = `Użyj ${cmd.shop}, aby przejrzeć ofertę.`;', names)).toEqual([]);
    expect(handWrittenIn("const a = 'https://sklep.example.pl/sklep/vip';", names)).toEqual([]);
    expect(handWrittenIn("// Użyj /sklep\nconst a = 1;", names)).toEqual([]);
  });
});
