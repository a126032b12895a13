import type { CommandNames } from '../../src/i18n/command-texts.js';

/** /shop's wire names, read by its definition and its handlers (texts: `shop` in the catalogues' command texts). */
export const shopNames = {
  name: 'shop',
  options: { server: 'server', item: 'item' },
} as const satisfies CommandNames;
