import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pl } from '../../../src/i18n/pl.js';
import { allTexts, polishCommandTexts } from './catalogue-texts.js';

/** The forbidden terms of docs/polish-glossary.md's table, by the thing they name. */
function forbiddenTerms(): { thing: string; term: string }[] {
  const page = readFileSync(resolve(import.meta.dirname, '../../../docs/polish-glossary.md'), 'utf8');
  const rows = page
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
  const header = rows[0]!;
  const thing = header.indexOf('thing');
  const forbidden = header.indexOf('forbidden');
  return rows
    .slice(2)
    .flatMap((cells) => (cells[forbidden] ?? '').split(';').map((term) => ({ thing: cells[thing]!, term: term.trim() })))
    .filter((entry) => entry.term !== '');
}

/** The term at the start of a word, any case. */
const contains = (text: string, term: string): boolean =>
  new RegExp(`(^|[^\\p{L}])${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'iu').test(text);

describe('Polish glossary', () => {
  it('the glossary lists forbidden terms', () => {
    const terms = forbiddenTerms().map((entry) => entry.term);
    expect(terms).toContain('przedmiot');
    expect(terms).toContain('na tym serwerze');
    expect(terms).toContain('złóż zamówienie');
    expect(terms).toContain('otwarte');
    expect(terms).toContain('link płatności');
  });

  it('no Polish text, command name or command description uses a forbidden term', () => {
    const texts = [...allTexts(pl), ...polishCommandTexts()];
    const found = forbiddenTerms().flatMap(({ thing, term }) =>
      texts.filter(({ text }) => contains(text, term)).map(({ path, text }) => `${path}: „${term}” (${thing}) in "${text.slice(0, 120)}"`),
    );
    expect([...new Set(found)]).toEqual([]);
  });

  it('finds a term at the start of a word in any case, not inside another word', () => {
    expect(contains('Dodaj Przedmioty do koszyka', 'przedmiot')).toBe(true);
    expect(contains('bezprzedmiotowy', 'przedmiot')).toBe(false);
  });

  it('writes a cart line one way, product first, everywhere: „2 × VIP — 30 dni”', () => {
    const line = '2 × VIP — 30 dni';
    expect(pl.cart.line(2, '30 dni', 'VIP')).toBe(line);
    expect(pl.added.line(2, '30 dni', 'VIP')).toBe(line);
    expect(pl.cart.lineOption(2, '30 dni', 'VIP')).toBe(line);
    expect(pl.cart.editLine('30 dni', 'VIP')).toBe('VIP — 30 dni');
    expect(pl.quantity.title('VIP', '30 dni')).toBe('VIP — 30 dni');
    expect(pl.feed.bought('Steve', '30 dni', 'VIP')).toContain('**VIP — 30 dni**');
  });

  it('quotes every Discord permission it names inside a sentence: „Zarządzanie rolami”', () => {
    const channelPermissions = ['Wyświetlanie kanału', 'Wysyłanie wiadomości', 'Osadzanie linków', 'Załączanie plików'];
    const names = [...Object.values(pl.rewards.permission), ...channelPermissions].filter((name) => name !== 'Administrator');
    const texts = allTexts(pl).filter(({ path }) => !path.startsWith('rewards.permission.'));
    const bare = names.flatMap((name) =>
      texts.filter(({ text }) => text.split(`„${name}”`).join('').includes(name)).map(({ path }) => `${path}: ${name}`),
    );
    expect(bare).toEqual([]);
    // Timeout Members is not the voice permission Mute Members („Wyciszanie członków”).
    expect(pl.rewards.permission.ModerateMembers).not.toBe('Wyciszanie członków');
  });
});
