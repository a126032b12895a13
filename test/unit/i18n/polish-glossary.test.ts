import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pl } from '../../../src/i18n/pl.js';
import { permissionNames } from '../../../src/discord/views/log.js';
import { allTexts, polishCommandTexts } from './catalogue-texts.js';

const glossaryPage = (): string => readFileSync(resolve(import.meta.dirname, '../../../docs/polish-glossary.md'), 'utf8');

/** The rows of the first table under a heading of docs/polish-glossary.md (its header row first), as cells. */
function tableUnder(heading: string): string[][] {
  const lines = glossaryPage().split('\n');
  const start = lines.findIndex((line) => line.startsWith('#') && line.includes(heading));
  if (start < 0) throw new Error(`docs/polish-glossary.md has no heading „${heading}”`);
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => line.startsWith('#'));
  const section = end < 0 ? rest : rest.slice(0, end);
  const first = section.findIndex((line) => line.startsWith('|'));
  const table = section.slice(first);
  const after = table.findIndex((line) => !line.startsWith('|'));
  return (after < 0 ? table : table.slice(0, after)).map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
}

/** The forbidden terms of docs/polish-glossary.md's table, by the thing they name. */
function forbiddenTerms(): { thing: string; term: string }[] {
  const rows = tableUnder('Terms');
  const header = rows[0]!;
  const thing = header.indexOf('thing');
  const forbidden = header.indexOf('forbidden');
  return rows
    .slice(2)
    .flatMap((cells) => (cells[forbidden] ?? '').split(';').map((term) => ({ thing: cells[thing]!, term: term.trim() })))
    .filter((entry) => entry.term !== '');
}

/** Each forbidden term a text uses, as "path: „term” (thing) in "text"". */
function uses(texts: readonly { path: string; text: string }[], terms: readonly { thing: string; term: string }[]): string[] {
  const found = terms.flatMap(({ thing, term }) =>
    texts.filter(({ text }) => contains(text, term)).map(({ path, text }) => `${path}: „${term}” (${thing}) in "${text.slice(0, 120)}"`),
  );
  return [...new Set(found)];
}

/**
 * The Polish paragraphs of docs/using/: a „## Po polsku” section, and a paragraph opening with
 * „**Po polsku” with the paragraphs after it up to the next heading. Held to the same glossary.
 */
function polishDocParagraphs(): { path: string; text: string }[] {
  const folder = resolve(import.meta.dirname, '../../../docs/using');
  return readdirSync(folder)
    .filter((file) => file.endsWith('.md'))
    .flatMap((file) => {
      const found: { path: string; text: string }[] = [];
      let polish = false;
      for (const paragraph of readFileSync(resolve(folder, file), 'utf8').split(/\n\s*\n/)) {
        if (paragraph.startsWith('#')) polish = /^#+ Po polsku/.test(paragraph);
        else if (paragraph.startsWith('**Po polsku')) polish = true;
        if (polish && !paragraph.startsWith('#')) found.push({ path: `docs/using/${file}`, text: paragraph.replace(/\s*\n\s*/g, ' ') });
      }
      return found;
    });
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
    expect(uses([...allTexts(pl), ...polishCommandTexts()], forbiddenTerms())).toEqual([]);
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

describe('Polish glossary: names put into sentences', () => {
  /** docs/polish-glossary.md's table of the steps' forms, by step. */
  const stepForms = () => new Map(tableUnder("A settled payment's steps").slice(2).map(([step, nominative, accusative]) => [step!, { nominative, accusative }]));

  it('writes each step of a settled payment in each case as the glossary does, and every step is in the glossary', () => {
    const forms = stepForms();
    expect([...forms.keys()].sort()).toEqual(Object.keys(pl.payments.refusedStep).sort());
    for (const [step, name] of Object.entries(pl.payments.refusedStep)) expect({ step, ...name }).toEqual({ step, ...forms.get(step) });
  });

  it('a step whose noun is feminine in -a changes it in the accusative: „zmiana” → „zmianę”, never „zmianę” on its own', () => {
    for (const [step, { nominative, accusative }] of Object.entries(pl.payments.refusedStep)) {
      const [head] = nominative.split(' ');
      const [accusativeHead] = accusative.split(' ');
      if (head!.endsWith('a')) expect(accusativeHead, step).toBe(`${head!.slice(0, -1)}ę`);
      // A nominative never reads as an accusative of an -a noun.
      expect(head!.endsWith('ę'), `${step}: „${nominative}”`).toBe(false);
    }
  });

  it('puts each case where its sentence takes it: the status line the nominative, the log post the accusative', () => {
    const { dm } = pl.payments.refusedStep;
    expect(pl.payments.statusRefusedLine('@Steve', 'P3R7W2NV', dm.nominative, 'powód')).toBe('• @Steve, link P3R7W2NV: zmiana wiadomości prywatnej członka (powód)');
    expect(pl.log.paymentStepRefused('@Steve', 'P3R7W2NV', dm.accusative, 'powód')).toContain('Discord odrzucił zmianę wiadomości prywatnej członka — powód.');
    // The type check refuses the other case (and a bare string), so a text cannot be handed the wrong one.
    // @ts-expect-error the status line takes the nominative
    pl.payments.statusRefusedLine('@Steve', 'P3R7W2NV', dm.accusative, 'powód');
    // @ts-expect-error the log post takes the accusative
    pl.log.paymentStepRefused('@Steve', 'P3R7W2NV', dm.nominative, 'powód');
    // @ts-expect-error a bare string has no case
    pl.payments.statusRefusedLine('@Steve', 'P3R7W2NV', 'zmianę wiadomości prywatnej członka', 'powód');
  });

  it('lists permissions quoted after „uprawnienia”, so a name holding a comma does not read as two', () => {
    const names = permissionNames(pl, ['KickMembers', 'MentionEveryone', 'ManageRoles']);
    expect(names).toBe('„Wyrzucanie członków”, „Wzmiankowanie @everyone, @here i wszystkich ról” i „Zarządzanie rolami”');
    expect(pl.rewards.powerful('@Rola', names)).toContain('@Rola ma uprawnienia: „Wyrzucanie członków”, „Wzmiankowanie @everyone, @here i wszystkich ról” i „Zarządzanie rolami”.');
    // @ts-expect-error names joined by hand are not a permission list
    pl.rewards.powerful('@Rola', 'Wyrzucanie członków, Zarządzanie rolami');
  });
});

describe('Polish glossary, in the docs', () => {
  it('no Polish paragraph of docs/using/ uses a forbidden term („na moderację czeka”, „naśladowca”…)', () => {
    const paragraphs = polishDocParagraphs();
    expect(paragraphs.map(({ path }) => path)).toEqual(expect.arrayContaining(['docs/using/members.md', 'docs/using/moderators.md']));
    expect(uses(paragraphs, forbiddenTerms())).toEqual([]);
  });
});
