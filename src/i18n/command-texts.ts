import type { shopAdminNames } from '../../commands/admin/names.js';
import type { cartNames } from '../../commands/cart/names.js';
import type { checkoutNames } from '../../commands/checkout/names.js';
import type { linksNames } from '../../commands/links/names.js';
import type { shopNames } from '../../commands/shop/names.js';
import type { shopTopNames } from '../../commands/top/names.js';
import type { redeemNames } from '../../commands/redeem/names.js';
import type { CommandNames } from '../discord/command-names.js';

/**
 * The shape of the slash commands' texts in the catalogs, derived from the features' wire names:
 * a text for every command, subcommand and option declared there, and for nothing else. English
 * is the wire name itself, so its catalog holds only descriptions; Polish holds names too.
 */

/** Every slash command's wire names, by the key of its texts in the catalogs. */
export interface CommandNamesByKey {
  shop: typeof shopNames;
  cart: typeof cartNames;
  checkout: typeof checkoutNames;
  links: typeof linksNames;
  shopAdmin: typeof shopAdminNames;
  shopTop: typeof shopTopNames;
  redeem: typeof redeemNames;
}

export type CommandKey = keyof CommandNamesByKey;

export type OptionsOf<N> = N extends { options: infer O extends Readonly<Record<string, string>> } ? O : never;
export type SubcommandsOf<N> = N extends { subcommands: infer S extends Readonly<Record<string, CommandNames>> } ? S : never;

/** One text per command, subcommand and option of `N`, each a `Node`. */
type TextTree<N, Node> = Node &
  ([OptionsOf<N>] extends [never] ? unknown : { options: { [K in keyof OptionsOf<N>]: Node } }) &
  ([SubcommandsOf<N>] extends [never] ? unknown : { subcommands: { [K in keyof SubcommandsOf<N>]: TextTree<SubcommandsOf<N>[K], Node> } });

export interface EnglishText {
  description: string;
}
export interface PolishText {
  name: string;
  description: string;
}

export type EnglishTexts<N> = TextTree<N, EnglishText>;
export type PolishTexts<N> = TextTree<N, PolishText>;

export type EnglishCommandTexts = { [K in CommandKey]: EnglishTexts<CommandNamesByKey[K]> };
export type PolishCommandTexts = { [K in CommandKey]: PolishTexts<CommandNamesByKey[K]> };
