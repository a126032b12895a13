import { en, type Messages } from './en.js';
import { pl } from './pl.js';
import type { Locale } from './locale.js';

export type { Messages };
export type { Locale } from './locale.js';

const catalogs: Record<Locale, Messages> = { en, pl };

/** Discord sends `pl` for Polish clients; every other locale gets English. */
export function localeOf(discordLocale: string | null | undefined): Locale {
  return discordLocale?.toLowerCase().startsWith('pl') ? 'pl' : 'en';
}

export function messages(locale: Locale): Messages {
  return catalogs[locale];
}

export { formatPln } from './money.js';
