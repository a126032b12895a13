import type { Locale } from '../../src/i18n/index.js';

/** The pictures' fixed "now", for Discord's relative timestamps (the catalogue's dates and the HTML's "5 minutes ago"). */
export const SCREEN_NOW = Date.UTC(2026, 4, 12, 18, 30);

/**
 * Discord's own words around the bot's message, as a client in that language shows them: the
 * relative and full times of `<t:…>` stamps, "Today at", the ephemeral line, the modal's buttons.
 * A Polish client shows them in Polish, so the Polish pictures do too.
 */
export interface Frame {
  /** A stamp `minutesAgo` before the pictures' now (negative: in the future), in hours from an hour on. */
  relative: (minutesAgo: number) => string;
  fullDate: (date: Date) => string;
  today: string;
  appTag: string;
  onlyYou: string;
  dismiss: string;
  cancel: string;
  submit: string;
}

const MONTHS_EN = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const time = (date: Date): string => `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
const englishRelative = new Intl.RelativeTimeFormat('en');
const polishRelative = new Intl.RelativeTimeFormat('pl', { numeric: 'auto' });
const polishDate = new Intl.DateTimeFormat('pl', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export const FRAMES: Record<Locale, Frame> = {
  en: {
    relative: (minutes) => (minutes === 0 ? 'now' : Math.abs(minutes) < 60 ? englishRelative.format(-minutes, 'minute') : englishRelative.format(-Math.round(minutes / 60), 'hour')),
    fullDate: (date) => `${date.getUTCDate()} ${MONTHS_EN[date.getUTCMonth()]} ${date.getUTCFullYear()} ${time(date)}`,
    today: 'Today at 20:30',
    appTag: 'APP',
    onlyYou: 'Only you can see this',
    dismiss: 'Dismiss message',
    cancel: 'Cancel',
    submit: 'Submit',
  },
  pl: {
    // "2 godziny temu", "5 godzin temu", "za 3 godziny", "teraz": the language's own forms.
    relative: (minutes) => (minutes === 0 ? 'teraz' : Math.abs(minutes) < 60 ? polishRelative.format(-minutes, 'minute') : polishRelative.format(-Math.round(minutes / 60), 'hour')),
    fullDate: (date) => `${polishDate.format(date)} ${time(date)}`,
    today: 'Dzisiaj o 20:30',
    appTag: 'APLIKACJA',
    onlyYou: 'Tylko Ty to widzisz',
    dismiss: 'Odrzuć wiadomość',
    cancel: 'Anuluj',
    submit: 'Wyślij',
  },
};
