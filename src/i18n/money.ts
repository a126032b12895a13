import type { Locale } from './locale.js';

/**
 * Money is kept as integer grosze everywhere and formatted only here, by hand rather than
 * through Intl, so the text is the same on every Node build (ICU data and its non-breaking
 * spaces vary) and reads as Polish buyers write prices: "1 234,50 zł"; English: "PLN 1,234.50".
 */
export function formatPln(grosze: number, locale: Locale): string {
  const negative = grosze < 0;
  const absolute = Math.abs(Math.round(grosze));
  const zloty = Math.floor(absolute / 100);
  const rest = String(absolute % 100).padStart(2, '0');
  const sign = negative ? '-' : '';
  if (locale === 'pl') return `${sign}${groupThousands(zloty, ' ')},${rest} zł`;
  return `${sign}PLN ${groupThousands(zloty, ',')}.${rest}`;
}

function groupThousands(value: number, separator: string): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}
