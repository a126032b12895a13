import type { EnglishTexts, PolishTexts } from '../src/i18n/command-texts.js';
import type { enCommands } from '../src/i18n/en.js';
import type { plCommands } from '../src/i18n/pl.js';
import { catalogTexts, type CommandTexts } from '../src/discord/localize.js';
import { shopAdminNames } from './admin/names.js';
import { cartNames } from './cart/names.js';
import { checkoutNames } from './checkout/names.js';
import { linksNames } from './links/names.js';
import { redeemNames } from './redeem/names.js';
import { shopNames } from './shop/names.js';
import { shopTopNames } from './top/names.js';

/**
 * The catalogs' slash-command texts held to the features' wire names. It sits above the features'
 * names.ts (the words in src/i18n must not depend on the features), and fails to compile when a
 * catalog lacks a text for a command, subcommand or option a feature declares, or has one for
 * something no feature declares.
 */

const namesByKey = {
  shop: shopNames,
  cart: cartNames,
  checkout: checkoutNames,
  links: linksNames,
  shopAdmin: shopAdminNames,
  shopTop: shopTopNames,
  redeem: redeemNames,
} as const;

/** Every slash command's wire names, by the key of its texts in the catalogs. */
export type CommandNamesByKey = typeof namesByKey;
export type CommandKey = keyof CommandNamesByKey;

export type EnglishCommandTexts = { [K in CommandKey]: EnglishTexts<CommandNamesByKey[K]> };
export type PolishCommandTexts = { [K in CommandKey]: PolishTexts<CommandNamesByKey[K]> };

/** True only when each type is assignable to the other: nothing missing, nothing extra. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Compile-time checks: an error here names a catalog whose command texts do not match the features' names.
export const englishTextsMatchNames: Same<typeof enCommands, EnglishCommandTexts> = true;
export const polishTextsMatchNames: Same<typeof plCommands, PolishCommandTexts> = true;

/** A command's texts, looked up in the catalogs by its key there; `names` is the feature's own constant. */
export function commandTexts<K extends CommandKey>(key: K, names: CommandNamesByKey[K]): CommandTexts<CommandNamesByKey[K]> {
  return catalogTexts(key, names);
}
