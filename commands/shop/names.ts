/** shopNames: declared with the words (src/i18n/command-names.ts), read here by the feature's definition and handlers. */
export { shopNames } from '../../src/i18n/command-names.js';
