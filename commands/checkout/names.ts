import type { CommandNames } from '../../src/i18n/command-texts.js';

/** /checkout's wire names, read by its definition and its handler (texts: `checkout` in the catalogues' command texts). */
export const checkoutNames = {
  name: 'checkout',
  options: { nick: 'nick' },
} as const satisfies CommandNames;
