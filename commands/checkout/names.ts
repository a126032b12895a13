import type { CommandNames } from '../../src/discord/command-names.js';

/** /checkout's wire names, read by its definition and its handler (texts: `checkout` in the catalogs' command texts). */
export const checkoutNames = {
  name: 'checkout',
  options: { nick: 'nick' },
} as const satisfies CommandNames;
