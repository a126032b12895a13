import type { CommandNames } from '../../src/i18n/command-texts.js';

/** /cart's wire name (texts: `cart` in the catalogues' command texts). */
export const cartNames = { name: 'cart' } as const satisfies CommandNames;
