/** checkoutNames: declared with the words (src/i18n/command-names.ts), read here by the feature's definition and handlers. */
export { checkoutNames } from '../../src/i18n/command-names.js';
