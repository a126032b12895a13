import type { CommandNames } from '../../src/discord/command-names.js';

/** /cart's wire name (texts: `cart` in the catalogs' command texts). */
export const cartNames = { name: 'cart' } as const satisfies CommandNames;
