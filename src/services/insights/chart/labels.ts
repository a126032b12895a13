/**
 * The chart's numbers and dates written in the admin's language. The words themselves (the legend,
 * "no data", month names, how thousands and złoty are written) come with the request, from the
 * language catalogues (src/i18n: `insights.chartWords`); this file writes the numbers that go in
 * them by hand, not through Intl, for the reason src/i18n/money.ts gives: the picture is the same
 * on every Node build (ICU data differ). Amounts on the axis are whole złoty (its steps are whole
 * złoty); large ones are shortened ("1,5 mln zł", "PLN 1.5M"), so a label never pushes the plot off
 * the picture.
 */

export type ChartLocale = 'en' | 'pl';

/** The chart's words in one language: src/i18n/en.ts and pl.ts, `insights.chartWords`. */
export interface ChartWords {
  paid: string;
  links: string;
  noData: string;
  /** January to December, short. */
  months: readonly string[];
  /** A day under the axis: "Mar 3" / "3 mar". */
  day(day: number, month: string): string;
  /** An amount of złoty around its number: "PLN 12", "12 zł". */
  money(amount: string): string;
  thousand(number: string): string;
  million(number: string): string;
  billion(number: string): string;
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

/** A count as the axis writes it: shortened from 100 000 up; Polish leaves four digits ungrouped (1250) and groups from five (12 500). */
function axisNumber(value: number, locale: ChartLocale, words: ChartWords): string {
  if (value >= 1e9) return words.billion(shortNumber(value / 1e9, locale));
  if (value >= 1e6) return words.million(shortNumber(value / 1e6, locale));
  if (value >= 1e5) return words.thousand(shortNumber(value / 1e3, locale));
  return locale === 'pl' ? (value >= 10_000 ? groupThousands(value, '\u00a0') : String(value)) : groupThousands(value, ',');
}

/** A whole number of złoty ("150 tys. zł", "PLN 150K"). */
export function moneyLabel(grosze: number, locale: ChartLocale, words: ChartWords): string {
  return words.money(axisNumber(Math.round(grosze / 100), locale, words));
}

/** A number of links, shortened as amounts are from 100 000 up. */
export function countLabel(count: number, locale: ChartLocale, words: ChartWords): string {
  return axisNumber(count, locale, words);
}

/** A day under the axis. */
export function dayLabel(time: number, words: ChartWords): string {
  const date = new Date(time);
  return words.day(date.getUTCDate(), words.months[date.getUTCMonth()]!);
}

/** A month under the axis: "paź" / "Oct". */
export function monthLabel(time: number, words: ChartWords): string {
  return words.months[new Date(time).getUTCMonth()]!;
}
