import { Client, Events, GatewayIntentBits, Options, type Interaction } from 'discord.js';
import { commands } from '../commands/index.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { BotServices } from './discord/context.js';
import { InteractionRouter } from './discord/router.js';
import type { Logger } from './logger.js';
import { StoreDirectory } from './services/store-directory.js';
import { parseEncryptionKey, SecretBox } from './security/secret-box.js';
import { GuildLog } from './discord/guild-log.js';
import { CartRepository } from './storage/carts.js';
import { GuildSettingsRepository } from './storage/guild-settings.js';
import { openStorage } from './storage/keyv-store.js';
import { NickRepository } from './storage/nicks.js';
import { CheckoutTimes } from './storage/checkout-times.js';
import { PaymentLinkRepository } from './storage/payment-links.js';

export interface BotOptions {
  config: Config;
  logger: Logger;
  /** Injected by tests and benchmarks; the system clock otherwise. */
  clock?: Clock;
  /** How the store client waits between GET retries; tests pass one that does not wait. */
  sleep?: (ms: number) => Promise<void>;
  offerTtlMs?: number;
  storeTimeoutMs?: number;
}

export interface Bot {
  readonly client: Client;
  readonly services: BotServices;
  /** Logs in and resolves once the gateway session is ready. */
  start(): Promise<void>;
  /** Disconnects from Discord and closes storage. */
  stop(): Promise<void>;
}

/** Wiring only: storage → store directory → repositories → router → Discord client. */
export async function createBot(options: BotOptions): Promise<Bot> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const storage = await openStorage(config.STORAGE_URL, logger);

  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    rest: { api: config.DISCORD_API_URL },
    // The bot reads nothing from message history or presences: caching them would only cost memory.
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      MessageManager: 0,
      ReactionManager: 0,
      PresenceManager: 0,
      ThreadMemberManager: 0,
      GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
    }),
  });

  const encryptionKey = config.ENCRYPTION_KEY ? parseEncryptionKey(config.ENCRYPTION_KEY) : undefined;
  const secretBox = encryptionKey ? new SecretBox(encryptionKey) : undefined;
  const guildSettings = new GuildSettingsRepository(storage.keyv, logger);
  const services: BotServices = {
    logger,
    clock,
    stores: new StoreDirectory({
      baseUrl: config.SPACEIS_API_URL,
      defaultApiKey: config.SPACEIS_API_KEY,
      settings: guildSettings,
      secretBox,
      clock,
      ...(options.offerTtlMs !== undefined ? { offerTtlMs: options.offerTtlMs } : {}),
      ...(options.storeTimeoutMs !== undefined ? { timeoutMs: options.storeTimeoutMs } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
    }),
    carts: new CartRepository(storage.keyv, logger),
    nicks: new NickRepository(storage.keyv),
    guildSettings,
    paymentLinks: new PaymentLinkRepository(storage.keyv, logger),
    checkoutTimes: new CheckoutTimes(storage.keyv),
    guildLog: new GuildLog(client, guildSettings, logger, clock),
    secretBox,
    storageBackend: storage.backend,
  };

  const linkPruner = schedulePruning(services.paymentLinks, clock, logger);

  const router = new InteractionRouter(services, commands);
  client.on(Events.InteractionCreate, (interaction: Interaction) => {
    router.handle(interaction).catch((error: unknown) => logger.error({ err: error }, 'interaction routing failed'));
  });
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.ShardDisconnect, (_event, shard) => logger.warn({ shard }, 'gateway disconnected'));
  client.on(Events.ShardResume, (shard) => logger.info({ shard }, 'gateway session resumed'));

  return {
    client,
    services,
    async start() {
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await client.login(config.DISCORD_TOKEN);
      await ready;
      logger.info({ user: client.user?.tag, guilds: client.guilds.cache.size }, 'bot ready');
      await linkPruner.start();
    },
    async stop() {
      await linkPruner.stop();
      await client.destroy();
      await storage.close();
    },
  };
}

/** How often old payment-link records are pruned while the bot runs (it also prunes once at start). */
const PRUNE_EVERY_MS = 6 * 60 * 60_000;

/**
 * Deletes payment-link records past their retention, at start and then every few hours. The first
 * run is awaited so a restarted bot never serves records it should have forgotten; a failure is
 * logged and retried next time, never fatal. `stop()` waits for a run in flight before storage closes.
 */
function schedulePruning(links: PaymentLinkRepository, clock: Clock, logger: Logger): { start(): Promise<void>; stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const run = (): Promise<void> => {
    running ??= links
      .prune(clock.now())
      .then((deleted) => {
        if (deleted > 0) logger.info({ deleted }, 'old payment-link records pruned');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'could not prune payment-link records'))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    async start() {
      await run();
      timer = setInterval(() => void run(), PRUNE_EVERY_MS);
      // The timer alone must not keep the process alive.
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
