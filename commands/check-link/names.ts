import { en } from '../../src/i18n/en.js';

/**
 * "Check payment link"'s wire name: a message command is named by its English label (what the
 * Apps menu shows), and Discord sends that name back with every use. Texts: `linkCheck` in the catalogs.
 */
export const checkLinkNames = { name: en.linkCheck.command } as const;
