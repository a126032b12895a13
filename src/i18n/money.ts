import type { Locale } from './locale.js';

/**
 * Money is kept as integer grosze everywhere and formatted only here, by hand rather than
 * through Intl, so the text is the same on every Node build (ICU data and its non-breaking
 * spaces vary) and reads as Polish buyers write prices: "1 234,50 zł"; English: "PLN 1,234.50".
 * Polish uses a non-breaking space (U+00A0) between the thousands and before "zł", so Discord never
 * wraps a line inside an amount.
 */
export function formatPln(grosze: number, locale: Locale): string {
  const negative = grosze < 0;
  const absolute = Math.abs(Math.round(grosze));
  const zloty = Math.floor(absolute / 100);
  const rest = String(absolute % 100).padStart(2, '0');
  const sign = negative ? '-' : '';
  if (locale === 'pl') return `${sign}${groupThousands(zloty, NBSP)},${rest}${NBSP}zł`;
  return `${sign}PLN ${groupThousands(zloty, ',')}.${rest}`;
}

/** Keeps the parts of an amount on one line. */
const NBSP = '\u00a0';

function groupThousands(value: number, separator: string): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}
