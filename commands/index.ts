import type { CommandModule } from '../src/discord/context.js';
import { cartCommand } from './cart.js';
import { checkoutCommand } from './checkout.js';
import { linksCommand } from './links.js';
import { shopCommand } from './shop.js';
import { shopAdminCommand } from './shop-admin.js';

/** Every slash command the bot has: the router and the registration script both read this list. */
export const commands: readonly CommandModule[] = [shopCommand, cartCommand, checkoutCommand, shopAdminCommand, linksCommand];
