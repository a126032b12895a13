/**
 * The chart's words and numbers in the admin's language. Written out by hand, not through Intl, for
 * the reason src/i18n/money.ts gives: the picture is the same on every Node build (ICU data differ).
 * Amounts on the axis are whole złoty (its steps are whole złoty); large ones are shortened the way
 * each language writes them ("1,5 mln zł", "PLN 1.5M"), so a label never pushes the plot off the picture.
 */

export type ChartLocale = 'en' | 'pl';

interface ChartWords {
  paid: string;
  links: string;
  noData: string;
  months: readonly string[];
  thousand: string;
  million: string;
  billion: string;
}

const WORDS: Record<ChartLocale, ChartWords> = {
  en: {
    paid: 'Paid (PLN)',
    links: 'Payment links issued',
    noData: 'No data for this period',
    months: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
    thousand: 'K',
    million: 'M',
    billion: 'B',
  },
  pl: {
    paid: 'Zapłacono (zł)',
    links: 'Wydane linki do płatności',
    noData: 'Brak danych za ten okres',
    months: ['sty', 'lut', 'mar', 'kwi', 'maj', 'cze', 'lip', 'sie', 'wrz', 'paź', 'lis', 'gru'],
    thousand: ' tys.',
    million: ' mln',
    billion: ' mld',
  },
};

/** Keeps an amount on one line (as src/i18n/money.ts does). */
const NBSP = '\u00a0';

export function chartWords(locale: ChartLocale): ChartWords {
  return WORDS[locale];
}

function groupThousands(value: number, separator: string): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/** At most one decimal, dropped when it is zero: 1.5, 12, 250. */
function shortNumber(value: number, locale: ChartLocale): string {
  const rounded = Math.round(value * 10) / 10;
  const text = Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
  return locale === 'pl' ? text.replace('.', ',') : text;
}

/** A whole number of złoty, shortened from 100 000 up ("150 tys. zł", "PLN 150K"). */
export function moneyLabel(grosze: number, locale: ChartLocale): string {
  const zloty = Math.round(grosze / 100);
  const words = WORDS[locale];
  let number: string;
  if (zloty >= 1e9) number = shortNumber(zloty / 1e9, locale) + words.billion.replace(' ', NBSP);
  else if (zloty >= 1e6) number = shortNumber(zloty / 1e6, locale) + words.million.replace(' ', NBSP);
  else if (zloty >= 1e5) number = shortNumber(zloty / 1e3, locale) + words.thousand.replace(' ', NBSP);
  // Polish leaves four-digit numbers ungrouped (1250 zł) and groups from five digits (12 500 zł).
  else number = locale === 'pl' ? (zloty >= 10_000 ? groupThousands(zloty, NBSP) : String(zloty)) : groupThousands(zloty, ',');
  return locale === 'pl' ? `${number}${NBSP}zł` : `PLN ${number}`;
}

/** A number of links, shortened as amounts are from 100 000 up. */
export function countLabel(count: number, locale: ChartLocale): string {
  const words = WORDS[locale];
  if (count >= 1e9) return shortNumber(count / 1e9, locale) + words.billion.replace(' ', NBSP);
  if (count >= 1e6) return shortNumber(count / 1e6, locale) + words.million.replace(' ', NBSP);
  if (count >= 1e5) return shortNumber(count / 1e3, locale) + words.thousand.replace(' ', NBSP);
  return locale === 'pl' ? (count >= 10_000 ? groupThousands(count, NBSP) : String(count)) : groupThousands(count, ',');
}

/** A day under the axis: "3 mar" / "Mar 3". */
export function dayLabel(time: number, locale: ChartLocale): string {
  const date = new Date(time);
  const month = WORDS[locale].months[date.getUTCMonth()]!;
  return locale === 'pl' ? `${date.getUTCDate()} ${month}` : `${month} ${date.getUTCDate()}`;
}

/** A month under the axis: "paź" / "Oct". */
export function monthLabel(time: number, locale: ChartLocale): string {
  return WORDS[locale].months[new Date(time).getUTCMonth()]!;
}
