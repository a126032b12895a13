import type { CommandNames } from '../../src/i18n/command-texts.js';

/**
 * /shop-top's wire names (texts: `shopTop` in the catalogues' command texts). A command of its own
 * rather than `/shop top`: Discord does not let a command have both options and subcommands, and
 * `/shop server:` and `/shop item:` stay as members know them.
 */
export const shopTopNames = {
  name: 'shop-top',
  options: { server: 'server' },
} as const satisfies CommandNames;
