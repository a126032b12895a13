import type {
  AutocompleteInteraction,
  ChatInputCommandInteraction,
  MessageComponentInteraction,
  ModalSubmitInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Clock } from '../clock.js';
import type { Locale, Messages } from '../i18n/index.js';
import type { Logger } from '../logger.js';
import type { ShopAccess, StoreDirectory } from '../services/store-directory.js';
import type { CartRepository } from '../storage/carts.js';
import type { GuildSettings, GuildSettingsRepository } from '../storage/guild-settings.js';
import type { NickRepository } from '../storage/nicks.js';
import type { CheckoutTimes } from '../storage/checkout-times.js';
import type { PaymentLinkRepository } from '../storage/payment-links.js';
import type { ComponentRoute } from './custom-id.js';
import type { GuildLog } from './guild-log.js';
import type { SecretBox } from '../security/secret-box.js';
import type { Responder } from './respond.js';

/** Everything a handler may use, built once in main.ts. */
export interface BotServices {
  logger: Logger;
  clock: Clock;
  stores: StoreDirectory;
  carts: CartRepository;
  nicks: NickRepository;
  guildSettings: GuildSettingsRepository;
  paymentLinks: PaymentLinkRepository;
  checkoutTimes: CheckoutTimes;
  guildLog: GuildLog;
  /** Seals guilds' license keys; undefined when ENCRYPTION_KEY is not configured. */
  secretBox: SecretBox | undefined;
  /** Which storage adapter is in use, for the admins' status page. */
  storageBackend: string;
}

/** One interaction's view of the bot: who asks, in which language, and how to answer. */
export interface HandlerContext {
  services: BotServices;
  locale: Locale;
  t: Messages;
  guildId: string;
  guildName: string;
  userId: string;
  /** The guild's settings as they were when the interaction arrived. */
  settings: GuildSettings;
  /** The guild's shop, or undefined when no license is configured for it. */
  shop: ShopAccess | undefined;
  respond: Responder;
  log: Logger;
}

export type ComponentInteraction = MessageComponentInteraction | ModalSubmitInteraction;

export type ComponentHandler = (interaction: ComponentInteraction, route: ComponentRoute, ctx: HandlerContext) => Promise<void>;

/** One slash command: its definition and every handler of the components it owns. */
export interface CommandModule {
  /** The command's (English) name, as Discord routes it. */
  name: string;
  definition(): RESTPostAPIChatInputApplicationCommandsJSONBody;
  execute(interaction: ChatInputCommandInteraction, ctx: HandlerContext): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction, ctx: Omit<HandlerContext, 'respond'>): Promise<void>;
  /** Custom-id scopes this command owns, each with its handler. */
  components?: Record<string, ComponentHandler>;
}
