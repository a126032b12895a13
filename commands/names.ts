import { shopAdminNames } from './admin/names.js';
import { cartNames } from './cart/names.js';
import { checkoutNames } from './checkout/names.js';
import { linksNames } from './links/names.js';
import { redeemNames } from './redeem/names.js';
import { shopNames } from './shop/names.js';
import { shopTopNames } from './top/names.js';

/**
 * Every slash command's wire names, by the key of its texts in the catalogues: the one registry that
 * registration (each feature's definition, through commands/command-texts.ts), localization
 * (src/discord/localize.ts) and the texts that name a command (src/i18n/en.ts, through
 * src/i18n/command-mention.ts) read. Each feature declares its own names once, in
 * commands/<feature>/names.ts, where its definition and handlers read them.
 *
 * The names files and this registry are plain words, with the catalogues in the architecture's
 * lowest speaking layer (test/unit/architecture.test.ts): they import nothing but the names'
 * type and the settings' table, so the catalogues may read them.
 */
export const commandNames = {
  shop: shopNames,
  cart: cartNames,
  checkout: checkoutNames,
  links: linksNames,
  shopAdmin: shopAdminNames,
  shopTop: shopTopNames,
  redeem: redeemNames,
} as const;

export type CommandNamesByKey = typeof commandNames;
export type CommandKey = keyof CommandNamesByKey;
