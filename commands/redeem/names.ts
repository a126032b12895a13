import type { CommandNames } from '../../src/i18n/command-texts.js';

/** /redeem's wire names, read by its definition and its handler (texts: `redeem` in the catalogues' command texts). */
export const redeemNames = {
  name: 'redeem',
  options: { code: 'code', nick: 'nick' },
} as const satisfies CommandNames;
