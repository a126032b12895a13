import type { CommandNames } from '../../src/discord/command-names.js';

/** /redeem's wire names, read by its definition and its handler (texts: `redeem` in the catalogs' command texts). */
export const redeemNames = {
  name: 'redeem',
  options: { code: 'code', nick: 'nick' },
} as const satisfies CommandNames;
