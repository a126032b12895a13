import type { CommandNames } from '../../src/discord/command-names.js';

/** /shop's wire names, read by its definition and its handlers (texts: `shop` in the catalogs' command texts). */
export const shopNames = {
  name: 'shop',
  options: { server: 'server', item: 'item' },
} as const satisfies CommandNames;
