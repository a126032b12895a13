import type { CommandModule } from '../src/discord/context.js';
import { cartCommand } from './cart.js';
import { checkoutCommand } from './checkout.js';
import { shopCommand } from './shop.js';

/** Every slash command the bot has: the router and the registration script both read this list. */
export const commands: readonly CommandModule[] = [shopCommand, cartCommand, checkoutCommand];
