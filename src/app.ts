import { Events, type Client, type ClientOptions, type Interaction, type REST } from 'discord.js';
import { features, panelEditor } from '../commands/index.js';
import type { BotServices } from './bot-services.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { registerCommands } from './discord/register.js';
import { describeShardPlan, shardsOf } from './discord/sharding.js';
import { InteractionRouter } from './discord/router.js';
import { answerStorageFailureBeforeHandler } from './discord/storage-failure.js';
import { isStorageError } from './storage/storage-error.js';
import type { Logger } from './logger.js';
import { StoreDirectory } from './services/store-directory.js';
import { BotMetrics } from './ops/metrics.js';
import { operatorView } from './ops/operator-view.js';
import { storageCheck } from './ops/storage-check.js';
import { lazyDemo } from './demo/lazy-demo.js';
import { secretBoxFrom } from './security/secret-box.js';
import { GuildLog } from './discord/guild-log.js';
import { DmChannels } from './discord/dm-channels.js';
import { DmWarmer } from './discord/payment-links/dm-warmer.js';
import { InFlight } from './discord/in-flight.js';
import { JobRunner, type Timers } from './services/jobs/runner.js';
import { GuildSetup } from './services/guild-setup.js';
import { PaymentLinks } from './services/payment-links.js';
import { LinkCheck } from './services/link-check.js';
import { InProcessWindowCounter, RedisWindowCounter } from './coordination/window-counter.js';
import { DmChannelSweeper } from './discord/dm-channel-sweeper.js';
import { CartService } from './services/cart-service.js';
import { GuildSettingsRepository } from './storage/guild-settings.js';
import { openStorage, type AdapterWrapper } from './storage/keyv-store.js';
import { storageLocks } from './storage/storage-locks.js';
import { openCoordination, type CoordinationOptions } from './coordination/open.js';
import { ShopIdentityRepository } from './storage/shop-identities.js';
import { ShopCommunity } from './services/community.js';
import { PanelRefresher } from './services/panel-refresh.js';
import { PanelGoalsRepository } from './storage/panel-goals.js';
import { VoucherService } from './services/vouchers.js';
import { createDiscordClient, logGatewayEvents } from './wiring/discord-client.js';
import { wireStoreWebhooks } from './wiring/store-webhook.js';
import { wirePayments } from './wiring/payments.js';
import { addBackgroundJobs } from './wiring/jobs.js';
import { openRepositories } from './wiring/repositories.js';
import type { LinkDeliveryOptions } from './discord/payment-links/delivery.js';
import { wireInsights, type ChartRenderer } from './wiring/insights.js';

export interface BotOptions {
  config: Config;
  logger: Logger;
  /** Injected by tests and benchmarks; the system clock otherwise. */
  clock?: Clock;
  /** How the store client waits between GET retries; tests pass one that does not wait. */
  sleep?: (ms: number) => Promise<void>;
  offerTtlMs?: number;
  storeTimeoutMs?: number;
  /** How long stop() waits for interactions in flight. */
  drainTimeoutMs?: number;
  /** How checkout waits for a DM before showing the link in the reply; tests set it to see both paths. */
  linkDelivery?: Pick<LinkDeliveryOptions, 'dmWaitMs' | 'dmQueueLimit'>;
  /** Extra discord.js client options; tests use it to skip the 5 s identify throttle after a lost session. */
  discordOptions?: Pick<ClientOptions, 'ws'>;
  /** Wraps the storage adapter; tests use it to make storage fail on demand and to count bytes written. */
  storageAdapter?: AdapterWrapper;
  /** How long a silent handler may take before the router acknowledges for it (default 2 s); tests shorten it. */
  ackGuardMs?: number;
  /** On Redis: how long a dead process's record lock lasts, and (tests only) locks kept in-process. */
  coordination?: Pick<CoordinationOptions, 'lockTimeoutMs' | 'lockScope'>;
  /**
   * `manual`: the payment-watch job has no timer; the caller runs `services.payments.tick()` or
   * `services.jobs.runNow('payment-watch')` and moves the clock (tests, benchmarks). Default: every 5 s.
   */
  paymentWatch?: 'timer' | 'manual';
  /** The background jobs' timers; tests pass timers they fire by hand (src/services/jobs/runner.ts). */
  jobTimers?: Timers;
  /** How long the watcher waits for a busy license's store gate before skipping it this round (default 1 s). */
  paymentQuietWaitMs?: number;
  /** `manual`: the shop panels' goals are refreshed only by `services.panels.tick()` (tests). Default: every minute. */
  panelRefresh?: 'timer' | 'manual';
  chartRenderer?: ChartRenderer /** the insights' chart: tests inject one; the bundled one otherwise */;
}

/** In-flight interactions get this long to finish on shutdown; main.ts exits within 10 s in all. */
const DRAIN_TIMEOUT_MS = 7_000;

export interface Bot {
  readonly client: Client;
  readonly services: BotServices;
  /** Logs in and resolves once the gateway session of every shard this process runs is ready. */
  start(): Promise<void>;
  /** Disconnects from Discord and closes storage. */
  stop(): Promise<void>;
  /** Resolves once no interaction is being handled (what a handler writes after its answer is then in storage). */
  settled(): Promise<void>;
}

/** Registers every feature's slash command (npm run register-commands, and the tests' local Discord). */
export function registerBotCommands(rest: REST, guildId?: string): Promise<string[]> {
  return registerCommands(rest, features, guildId);
}

/** Wiring only: storage → store directory → repositories → router → Discord client. */
export async function createBot(options: BotOptions): Promise<Bot> {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  // The metrics read the store directory and the client, made below: they are read at scrape time only.
  let stores: StoreDirectory | undefined;
  let discord: Client | undefined;
  let operator: ReturnType<typeof operatorView> | undefined;
  const metrics = new BotMetrics({
    processMetrics: config.HEALTH_PORT !== undefined,
    licenses: () => stores?.loads() ?? [],
    shards: () => [...(discord?.ws.shards.values() ?? [])].map((shard) => ({ id: shard.id, pingMs: shard.ping })),
    gatewayReady: () => operator?.gatewayReady ?? false,
  });
  const storage = await openStorage(config.STORAGE_URL, options.storageAdapter, (operation) => metrics.storageErrors.inc({ operation }), logger, {
    clock,
    // A SQLite file locked by another process at start: connect to Discord anyway, answer "busy", open it once free.
    openWhenUnlocked: true,
  });
  // Locks and change notices: in this process on SQLite, through Redis when processes share it.
  const coordination = await openCoordination(config.STORAGE_URL, { logger, ...options.coordination }).catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });

  // A lock Redis cannot grant is a failed write to everything built on storage.
  const locks = storageLocks(coordination.locks);

  const client = createDiscordClient(config, coordination, options.discordOptions);
  discord = client;
  const secretBox = secretBoxFrom(config.ENCRYPTION_KEY);
  // On Redis each license's store gate is shared by every process (loaded only then: see StoreDirectory).
  const redis = coordination.redis;
  const sharedGateState = redis
    ? await import('./spaceis/redis-gate-state.js').then(({ redisGateState }) => (license: string) => redisGateState(redis, license, { logger }))
    : undefined;
  const guildSettings = new GuildSettingsRepository(storage.keyv, logger, { secretBox, coordination, now: () => clock.now() });
  // The demo shop's pay page; it opens its port only when a demo guild first asks the demo store.
  const demo = lazyDemo({ keyv: storage.keyv, logger, port: config.DEMO_PORT, host: config.DEMO_HOST, publicUrl: config.DEMO_PUBLIC_URL, now: () => clock.now() });
  const repositories = openRepositories({ keyv: storage.keyv, logger, locks, clock, redis: coordination.redis, guildSettings, secretBox });
  const { paymentLinks } = repositories;
  // A member who starts a cart gets their DM channel opened in the background (checkout's DM is one request), found by member (dm-channels.ts).
  const memberDms = new DmChannels(client);
  const dmWarmer = new DmWarmer(memberDms, logger);
  const carts = new CartService({
    repository: repositories.carts,
    nicks: repositories.nicks,
    clock,
    locks,
    expiryDays: config.CART_EXPIRY_DAYS,
    onCartStarted: (userId) => dmWarmer.prepare(userId),
    // Lines of another license may be the same shop's, reached with a rotated key (the directory is made below).
    sameShop: (stored, current) => (stores ? stores.sameShop(stored, current) : Promise.resolve(false)),
  });
  const directory = new StoreDirectory({
    baseUrl: config.SPACEIS_API_URL,
    defaultApiKey: config.SPACEIS_API_KEY,
    defaultLicenseGuilds: config.DEFAULT_LICENSE_GUILDS,
    settings: guildSettings,
    identities: new ShopIdentityRepository(storage.keyv, logger),
    secretBox,
    clock,
    logger,
    ...(options.offerTtlMs !== undefined ? { offerTtlMs: options.offerTtlMs } : {}),
    ...(options.storeTimeoutMs !== undefined ? { timeoutMs: options.storeTimeoutMs } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    onStoreResponse: (info) => metrics.recordStoreResponse(info),
    demoFetch: demo.fetch,
    coordination,
    ...(sharedGateState ? { sharedGateState } : {}),
  });
  stores = directory;
  const guildLog = new GuildLog(client, guildSettings, logger, clock);
  const { paymentEvents, steps, purchaseFeed, reviews, payments, checkout, delivery, gifts, rewards, refusedSteps } = wirePayments({
    config, client, keyv: storage.keyv, locks, coordination, repositories, directory, carts, guildLog, metrics, clock, logger,
    linkDelivery: options.linkDelivery, dmChannels: memberDms, quietWaitMs: options.paymentQuietWaitMs,
  });
  const storeWebhooks = wireStoreWebhooks({ client, keyv: storage.keyv, logger, locks, secretBox, clock, redis, payments, directory, paymentWatch: repositories.paymentWatch, guildLog, feed: purchaseFeed, links: repositories.paymentLinks, intent: { on: config.STORE_WEBHOOK_INTENT, pollSeconds: config.PAYMENT_POLL_SECONDS } });
  // Goals and top supporters; the panels' goals are refreshed in place (commands/admin/panel.ts draws them).
  const community = new ShopCommunity({ clock, logger });
  let editPanel: ReturnType<typeof panelEditor> | undefined;
  const panels = new PanelRefresher({
    guilds: () => [...client.guilds.cache.keys()],
    settings: guildSettings,
    stores: directory,
    community,
    state: new PanelGoalsRepository(storage.keyv, logger),
    clock,
    logger,
    edit: (edit) => (editPanel ? editPanel(edit) : Promise.resolve('failed')),
    lost: async (guildId, panel) => {
      await guildLog.post(guildId, { kind: 'panel-lost', channelId: panel.channelId });
    },
  });
  // Background jobs, started and stopped together (src/services/jobs/runner.ts).
  const jobs = new JobRunner({ clock, logger, coordination, ...(options.jobTimers ? { timers: options.jobTimers } : {}) });
  const insights = wireInsights({ counting: config.INSIGHTS, keyv: storage.keyv, redis, digestGuilds: repositories.insightsDigest, clock, logger, jobs, renderer: options.chartRenderer, client, guildLog, settings: guildSettings, directory });
  // Every step of a settled payment, one record: a step without its handler does not compile.
  paymentEvents.use({ ...steps, 'store-webhook-health': storeWebhooks.healthStep, insights: insights.step });
  const services: BotServices = {
    logger,
    jobs,
    clock,
    metrics,
    stores: directory,
    payments,
    feed: purchaseFeed,
    paymentEvents,
    refusedSteps,
    reviews,
    carts,
    checkout,
    links: new PaymentLinks(paymentLinks, clock, payments),
    // Members' link checks are counted per process on SQLite, in Redis when processes share it.
    gifts,
    linkCheck: new LinkCheck(paymentLinks, redis ? new RedisWindowCounter(redis) : new InProcessWindowCounter(), clock),
    setup: new GuildSetup(guildSettings, clock, repositories.purchaseFeed, repositories.insightsDigest),
    rewards,
    community,
    panels,
    storeWebhooks: storeWebhooks.connections,
    insights: insights.insights,
    vouchers: new VoucherService({ attempts: repositories.voucherAttempts, nicks: repositories.nicks, clock, logger, codesPerDay: config.VOUCHER_CODES_PER_DAY, shopKey: (license) => directory.shopKey(license) }),
    storage: repositories,
    delivery,
    guildLog,
    secretBox,
    storageBackend: storage.backend,
    // One check a second at most, shared by readiness probes and the admins' status.
    storageWorks: storageCheck(storage.probe, clock),
  };

  const { paymentWatch, panelRefresh } = options;
  addBackgroundJobs(jobs, { links: repositories.paymentLinks, sweepExpired: storage.sweepExpired, rewards, storeWebhooksReload: storeWebhooks.reloadJob, payments, panels, shards: config.SHARDS, clock, logger, paymentWatch, panelRefresh });
  editPanel = panelEditor(client, services);
  const view = operatorView({ config, client, metrics, storageWorks: services.storageWorks });
  operator = view;

  const router = new InteractionRouter(services, features, options.ackGuardMs !== undefined ? { ackGuardMs: options.ackGuardMs } : {});
  const inFlight = new InFlight();
  const dmChannels = new DmChannelSweeper(client, clock);
  client.on(Events.InteractionCreate, (interaction: Interaction) => {
    dmChannels.maybeSweep();
    // While stopping, a newcomer is told to come back instead of being left with "interaction failed".
    const routed = inFlight.accepting ? router.handle(interaction) : router.refuseWhileStopping(interaction);
    // The guild's settings are read before any handler runs: if storage fails there, the member is still told.
    const work = routed.catch((error: unknown) => (isStorageError(error) ? answerStorageFailureBeforeHandler(interaction, error, logger) : Promise.reject(error)));
    inFlight.track(work).catch((error: unknown) => logger.error({ err: error }, 'interaction routing failed'));
  });
  logGatewayEvents(client, logger);

  let stopping: Promise<void> | undefined;
  return {
    client,
    services,
    async start() {
      // With internal sharding discord.js emits ClientReady once, when every shard of this client is ready.
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await Promise.all([view.start(), storeWebhooks.beforeLogin()]);
      logger.info({ plan: describeShardPlan(config) }, 'connecting to Discord');
      await client.login(config.DISCORD_TOKEN);
      await ready;
      logger.info({ user: client.user?.tag, guilds: client.guilds.cache.size, ...shardsOf(client) }, 'bot ready');
      // Pruning first (a restarted bot never serves records it should have forgotten); ended roles are taken back from the moment the bot is connected.
      await jobs.start();
    },
    async settled() {
      while (!(await inFlight.drain(60_000)));
    },
    /** Stops taking interactions, lets those in flight finish (up to a bound), then closes everything. Idempotent. */
    stop() {
      stopping ??= stopBot();
      return stopping;
    },
  };

  async function stopBot(): Promise<void> {
    inFlight.accepting = false;
    const drained = await inFlight.drain(options.drainTimeoutMs ?? DRAIN_TIMEOUT_MS);
    if (!drained) logger.warn({ pending: inFlight.size }, 'stopping with interactions still in flight');
    // DMs that follow a reply already shown get a moment more: the member has the link either way.
    await Promise.race([services.delivery.whenIdle(), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    await jobs.stop();
    await Promise.all([purchaseFeed.settled(), services.insights.close()]);
    dmWarmer.stop();
    await client.destroy();
    // Each listener gives requests being answered a moment, then cuts clients that stalled mid-request.
    await Promise.all([view.stop(), demo.close(), storeWebhooks.stop()]);
    await storage.close();
    await coordination.close();
  }
}
