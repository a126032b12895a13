import type { BotServices } from '../bot-services.js';
import type { Locale, Messages } from '../i18n/index.js';
import type { Logger } from '../logger.js';
import type { LicenseProblem, ShopAccess } from '../services/store-directory.js';
import type { GuildSettings } from '../storage/guild-settings.js';
import type { Responder } from './respond.js';

/** One interaction's view of the bot: who asks, in which language, and how to answer. Built by the router. */
export interface HandlerContext {
  services: BotServices;
  locale: Locale;
  t: Messages;
  guildId: string;
  guildName: string;
  userId: string;
  /** The guild's settings as they were when the interaction arrived. */
  settings: GuildSettings;
  /** The guild's shop, or undefined when no license is configured for it (see the `shopConfigured` precondition). */
  shop: ShopAccess | undefined;
  /** Set when the guild has its own license that cannot be used now (then `shop` is undefined). */
  licenseProblem: LicenseProblem | undefined;
  respond: Responder;
  log: Logger;
}

/** Autocomplete cannot be answered with a message: its handlers get everything but the responder. */
export type AutocompleteContext = Omit<HandlerContext, 'respond'>;

export type { CommandInteraction, ComponentInteraction } from './interactions.js';
