/**
 * Polish counts: the noun after a number takes one of three forms, chosen by the language's own
 * rule (Intl.PluralRules('pl')): 1 kod, 2 kody, 5 kodów, 12 kodów, 22 kody, 25 kodów, 112 kodów.
 * Every Polish text with a count goes through here (docs/polish-glossary.md), so a text stays
 * right when a limit changes rather than only for today's numbers.
 */

/** The three forms of a Polish noun after a number: 1 (`one`), 2–4, 22–24… (`few`), the rest (`many`). */
export interface PolishForms {
  readonly one: string;
  readonly few: string;
  readonly many: string;
}

const rules = new Intl.PluralRules('pl');

/** The noun's form for `count` ("kody" for 22), without the number. */
export function plForm(count: number, forms: PolishForms): string {
  // Fractions take the genitive singular in Polish ("1,5 godziny"); `other` is only ever a fraction.
  const category = rules.select(count);
  if (category === 'one') return forms.one;
  if (category === 'few') return forms.few;
  if (category === 'many') return forms.many;
  return forms.few;
}

/** The number with its noun: "22 kody". */
export function plCount(count: number, forms: PolishForms): string {
  return `${count} ${plForm(count, forms)}`;
}

/** Nouns the catalogue counts, in one place so a form is written once. */
export const nouns = {
  code: { one: 'kod', few: 'kody', many: 'kodów' },
  voucherCode: { one: 'kod vouchera', few: 'kody voucherów', many: 'kodów voucherów' },
  server: { one: 'serwer', few: 'serwery', many: 'serwerów' },
  category: { one: 'kategoria', few: 'kategorie', many: 'kategorii' },
  product: { one: 'produkt', few: 'produkty', many: 'produktów' },
  variant: { one: 'wariant', few: 'warianty', many: 'wariantów' },
  line: { one: 'pozycja', few: 'pozycje', many: 'pozycji' },
  /** „i 3 inne pozycje” after a link's first item. */
  otherLine: { one: 'inna pozycja', few: 'inne pozycje', many: 'innych pozycji' },
  unit: { one: 'sztuka', few: 'sztuki', many: 'sztuk' },
  link: { one: 'link', few: 'linki', many: 'linków' },
  payment: { one: 'płatność', few: 'płatności', many: 'płatności' },
  message: { one: 'wiadomość', few: 'wiadomości', many: 'wiadomości' },
  day: { one: 'dzień', few: 'dni', many: 'dni' },
  /** After „z ostatnich”: „z ostatnich 2 dni”, „z ostatnich 5 dni” (1 is said without a number). */
  dayGenitive: { one: 'dnia', few: 'dni', many: 'dni' },
  role: { one: 'rola', few: 'role', many: 'ról' },
  reward: { one: 'nagroda', few: 'nagrody', many: 'nagród' },
  purchase: { one: 'zakup', few: 'zakupy', many: 'zakupów' },
  newPurchase: { one: 'nowy zakup', few: 'nowe zakupy', many: 'nowych zakupów' },
  minute: { one: 'minuta', few: 'minuty', many: 'minut' },
  order: { one: 'zamówienie', few: 'zamówienia', many: 'zamówień' },
  person: { one: 'osoba', few: 'osoby', many: 'osób' },
} as const satisfies Record<string, PolishForms>;
