import { Client, Events, GatewayIntentBits, Options, type ClientOptions, type Interaction, type REST } from 'discord.js';
import { features, panelEditor } from '../commands/index.js';
import type { BotServices } from './bot-services.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { registerCommands } from './discord/register.js';
import { describeShardPlan, shardOptions, shardsOf } from './discord/sharding.js';
import { redisIdentifyThrottlerFactory } from './discord/identify-throttler.js';
import { InteractionRouter } from './discord/router.js';
import { answerStorageFailureBeforeHandler } from './discord/storage-failure.js';
import { isStorageError } from './storage/storage-error.js';
import type { Logger } from './logger.js';
import { StoreDirectory } from './services/store-directory.js';
import { BotMetrics } from './ops/metrics.js';
import { operatorView } from './ops/operator-view.js';
import { storageCheck } from './ops/storage-check.js';
import { demoFetch } from './demo/demo-store.js';
import { DemoPayPage } from './demo/pay-page.js';
import { parseEncryptionKey, SecretBox } from './security/secret-box.js';
import { GuildLog } from './discord/guild-log.js';
import { LinkDelivery, type LinkDeliveryOptions } from './discord/payment-links/delivery.js';
import { DmWarmer } from './discord/payment-links/dm-warmer.js';
import { InFlight } from './discord/in-flight.js';
import { schedulePruning } from './services/link-pruner.js';
import { GuildSetup } from './services/guild-setup.js';
import { PaymentLinks } from './services/payment-links.js';
import { LinkCheck } from './services/link-check.js';
import { GiftMessages } from './services/gift-messages.js';
import { giftDmListener } from './discord/payment-links/gift-dm.js';
import { InProcessWindowCounter, RedisWindowCounter } from './coordination/window-counter.js';
import { PaymentEvents } from './services/payment-events.js';
import { RoleRewards, scheduleRoleExpiry } from './services/rewards.js';
import { DiscordMemberRoles, rewardNotices } from './discord/member-roles.js';
import { RoleRewardRepository } from './storage/role-rewards.js';
import { NickUses } from './storage/nick-uses.js';
import { adminRoutes } from '../commands/admin/routes.js';
import { DmChannelSweeper } from './discord/dm-channel-sweeper.js';
import { CartRepository } from './storage/carts.js';
import { CartService } from './services/cart-service.js';
import { CheckoutService } from './services/checkout-service.js';
import { GuildSettingsRepository } from './storage/guild-settings.js';
import { openStorage, type AdapterWrapper } from './storage/keyv-store.js';
import { openCoordination, type CoordinationOptions } from './coordination/open.js';
import { NickRepository } from './storage/nicks.js';
import { CheckoutTimes } from './storage/checkout-times.js';
import { PaymentLinkRepository } from './storage/payment-links.js';
import { PaymentWatchStore } from './storage/payment-watch.js';
import { PaymentWatcher } from './services/payment-watch/watcher.js';
import { StaffReviewService } from './services/payment-watch/review.js';
import { PaymentReviewStore } from './storage/payment-reviews.js';
import { reviewNotices } from './discord/payment-links/review-posts.js';
import { settledLinkSteps } from './discord/payment-links/settled-links.js';
import { OncePerId } from './storage/once-per-id.js';
import { ShopIdentityRepository } from './storage/shop-identities.js';
import { ShopCommunity } from './services/community.js';
import { PanelRefresher, schedulePanelRefresh } from './services/panel-refresh.js';
import { PanelGoalsRepository } from './storage/panel-goals.js';
import { PurchaseFeedStore } from './storage/purchase-feed.js';
import { PurchaseFeed } from './services/purchase-feed.js';
import { purchaseFeedPoster } from './discord/purchase-feed-poster.js';
import { feedPostView } from '../commands/shop/feed-views.js';
import { VoucherAttempts } from './storage/voucher-attempts.js';
import { VoucherService } from './services/vouchers.js';

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
   * `manual`: the payment watcher runs no timer; the caller runs its rounds with
   * `services.payments.tick()` and moves the clock (tests and benchmarks). Default: every few seconds.
   */
  paymentWatch?: 'timer' | 'manual';
  /** `manual`: the shop panels' goals are refreshed only by `services.panels.tick()` (tests). Default: every minute. */
  panelRefresh?: 'timer' | 'manual';
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

  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    // Discord's global limit is per bot: with several processes each runs with its share (DISCORD_GLOBAL_RPS).
    rest: { api: config.DISCORD_API_URL, globalRequestsPerSecond: config.DISCORD_GLOBAL_RPS },
    ...shardOptions(config),
    // Processes sharing Redis pace their identifies together (Discord's max_concurrency is per bot).
    ...(coordination.redis ? { ws: { buildIdentifyThrottler: redisIdentifyThrottlerFactory(coordination.redis.client, coordination.redis.key('')) } } : {}),
    ...options.discordOptions,
    // The bot reads nothing from message history or presences: caching them would only cost memory.
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      MessageManager: 0,
      ReactionManager: 0,
      PresenceManager: 0,
      ThreadMemberManager: 0,
      GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
      // Every buyer who ever clicked would otherwise stay in memory for the life of the process.
      UserManager: { maxSize: 10_000, keepOverLimit: (user) => user.id === user.client.user.id },
    }),
  });

  discord = client;
  const encryptionKey = config.ENCRYPTION_KEY ? parseEncryptionKey(config.ENCRYPTION_KEY) : undefined;
  const secretBox = encryptionKey ? new SecretBox(encryptionKey) : undefined;
  // On Redis each license's store gate is shared by every process (loaded only then: see StoreDirectory).
  const redis = coordination.redis;
  const sharedGateState = redis
    ? await import('./spaceis/redis-gate-state.js').then(({ redisGateState }) => (license: string) => redisGateState(redis, license, { logger }))
    : undefined;
  const guildSettings = new GuildSettingsRepository(storage.keyv, logger, { secretBox, coordination, now: () => clock.now() });
  // The demo shop's pay page; it opens its port only when a demo guild first asks the demo store.
  const demoPage = new DemoPayPage({ keyv: storage.keyv, logger, port: config.DEMO_PORT, host: config.DEMO_HOST, publicUrl: config.DEMO_PUBLIC_URL });
  const demoStore = demoFetch({ issue: (reference, order) => demoPage.issue(reference, order), now: () => clock.now() });
  const paymentLinks = new PaymentLinkRepository(storage.keyv, logger, coordination.locks);
  const repositories = {
    carts: new CartRepository(storage.keyv, logger),
    nicks: new NickRepository(storage.keyv),
    checkoutTimes: new CheckoutTimes(storage.keyv),
    guildSettings,
    paymentLinks,
    paymentWatch: new PaymentWatchStore(storage.keyv, logger, coordination.locks),
    paymentReviews: new PaymentReviewStore(storage.keyv, logger, coordination.locks),
    rewards: new RoleRewardRepository(storage.keyv, logger, coordination.locks),
    purchaseFeed: new PurchaseFeedStore(storage.keyv, logger, coordination.locks),
    voucherAttempts: new VoucherAttempts(storage.keyv, coordination.redis, () => clock.now()),
  };
  // A member who starts a cart gets their DM channel opened in the background, so checkout's DM is one request.
  const dmWarmer = new DmWarmer(client, logger);
  const carts = new CartService({
    repository: repositories.carts,
    nicks: repositories.nicks,
    clock,
    locks: coordination.locks,
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
    onStoreResponse: (info) => {
      const route = BotMetrics.storeRoute(info.path);
      metrics.storeRequests.inc({ route, status: String(info.status) });
      metrics.storeDuration.observe({ route }, info.durationMs / 1000);
      if (info.status === 429) metrics.storeThrottled.inc({ license: info.license });
      if (route === 'latestBuyers' || route === 'transactionInfo') metrics.paymentWatchRequests.inc({ license: info.license, request: route });
    },
    demoFetch: demoStore,
    coordination,
    ...(sharedGateState ? { sharedGateState } : {}),
  });
  stores = directory;
  // The shop's word on each link's payment: the watcher polls the store, PaymentEvents tells the DM,
  // the log channel, metrics (settled-links.ts) and whatever else listens (buyers' roles).
  const paymentEvents = new PaymentEvents(logger);
  const guildLog = new GuildLog(client, guildSettings, logger, clock);
  // The purchase feed reads what the watcher's polls read (and makes its servers due once a minute).
  const purchaseFeed = new PurchaseFeed({
    store: repositories.purchaseFeed,
    settings: guildSettings,
    stores: directory,
    poster: purchaseFeedPoster(client, guildLog, logger, feedPostView),
    clock,
    logger,
    // A purchase that paid a gift link is posted as "a gift" (the watcher's record of the transaction names its link).
    isGift: async (license, transactionId) => {
      const tx = await repositories.paymentWatch.tx(await directory.shopKey(license), transactionId);
      const link = tx?.link && (await paymentLinks.get(tx.link.guildId, tx.link.linkId));
      return Boolean(link && link.gift);
    },
  });
  // A purchase several members' links could have paid waits for a moderator (issue 28).
  const reviews = new StaffReviewService({
    store: repositories.paymentReviews,
    links: paymentLinks,
    watch: repositories.paymentWatch,
    stores: directory,
    events: paymentEvents,
    clock,
    logger,
    notices: reviewNotices(guildLog),
  });
  const payments = new PaymentWatcher({
    review: reviews,
    store: repositories.paymentWatch,
    links: paymentLinks,
    settings: guildSettings,
    stores: directory,
    coordination,
    events: paymentEvents,
    clock,
    logger,
    pollSeconds: config.PAYMENT_POLL_SECONDS,
    feed: purchaseFeed,
  });
  const nickUses = new NickUses(storage.keyv, logger, coordination.locks);
  const checkout = new CheckoutService({ carts, nicks: repositories.nicks, nickUses, checkoutTimes: repositories.checkoutTimes, paymentLinks, clock, logger, payments });
  const delivery = new LinkDelivery({ client, logger, records: checkout, clock, metrics, ...options.linkDelivery });
  // Named steps: the watcher records each when done and offers one that failed again (outbox.ts).
  const settledSteps = settledLinkSteps({ client, delivery, guildLog, metrics, posted: new OncePerId(storage.keyv, 'pay-posted', coordination.locks), logger });
  paymentEvents.on('dm', settledSteps.dm);
  paymentEvents.on('log', settledSteps.log);
  paymentEvents.on('metrics', settledSteps.metrics);
  // The recipient of a paid gift is told once (src/discord/payment-links/gift-dm.ts).
  const gifts = new GiftMessages(storage.keyv, guildSettings, coordination.locks);
  paymentEvents.on('gift', giftDmListener({ client, gifts, guildLog, logger }));
  // Buyers' roles listen to settled payments too.
  const rewards = new RoleRewards({
    repository: repositories.rewards,
    roles: new DiscordMemberRoles(client, (guildId) => guildLog.localeFor(guildId), logger),
    notices: rewardNotices(guildLog, (linkId, roleId) => adminRoutes.giveRole.build(undefined, { link: linkId, role: roleId })),
    nicks: nickUses,
    links: paymentLinks,
    clock,
    logger,
    counters: {
      granted: () => metrics.rolesGranted.inc(),
      removed: () => metrics.rolesRemoved.inc(),
      failed: (action, problem) => metrics.roleFailures.inc({ action, problem }),
    },
  });
  paymentEvents.on('roles', (event) => rewards.onPayment(event));
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
  const services: BotServices = {
    logger,
    clock,
    metrics,
    stores: directory,
    payments,
    feed: purchaseFeed,
    paymentEvents,
    reviews,
    carts,
    checkout,
    links: new PaymentLinks(paymentLinks, clock, payments),
    // Members' link checks are counted per process on SQLite, in Redis when processes share it.
    gifts,
    linkCheck: new LinkCheck(paymentLinks, redis ? new RedisWindowCounter(redis) : new InProcessWindowCounter(), clock),
    setup: new GuildSetup(guildSettings, clock, repositories.purchaseFeed),
    rewards,
    community,
    panels,
    vouchers: new VoucherService({ attempts: repositories.voucherAttempts, nicks: repositories.nicks, clock, logger, codesPerDay: config.VOUCHER_CODES_PER_DAY }),
    storage: repositories,
    delivery,
    guildLog,
    secretBox,
    storageBackend: storage.backend,
    // One check a second at most, shared by readiness probes and the admins' status.
    storageWorks: storageCheck(storage.probe, clock),
  };

  const linkPruner = schedulePruning(services.storage.paymentLinks, storage.sweepExpired, clock, logger, coordination);
  const roleExpiry = scheduleRoleExpiry(rewards, logger, coordination);
  editPanel = panelEditor(client, services);
  // Each process refreshes the panels of the guilds on its own shards (client.guilds), so the job's name carries them.
  const panelRefresh = schedulePanelRefresh(panels, config.SHARDS === 'auto' ? 'auto' : config.SHARDS.join(','), logger, coordination);
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
    const work = routed.catch((error: unknown) =>
      isStorageError(error) ? answerStorageFailureBeforeHandler(interaction, error, logger) : Promise.reject(error),
    );
    inFlight.track(work).catch((error: unknown) => logger.error({ err: error }, 'interaction routing failed'));
  });
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.ShardDisconnect, (_event, shard) => logger.warn({ shard }, 'gateway disconnected'));
  client.on(Events.ShardResume, (shard) => logger.info({ shard }, 'gateway session resumed'));

  let stopping: Promise<void> | undefined;
  return {
    client,
    services,
    async start() {
      // With internal sharding discord.js emits ClientReady once, when every shard of this client is ready.
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      await view.start();
      logger.info({ plan: describeShardPlan(config) }, 'connecting to Discord');
      await client.login(config.DISCORD_TOKEN);
      await ready;
      logger.info({ user: client.user?.tag, guilds: client.guilds.cache.size, ...shardsOf(client) }, 'bot ready');
      await linkPruner.start();
      if (options.paymentWatch !== 'manual') payments.start();
      // Ended roles are taken back through Discord: from the moment the bot is connected.
      await roleExpiry.start();
      if (options.panelRefresh !== 'manual') await panelRefresh.start();
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
    await linkPruner.stop();
    await payments.stop();
    await purchaseFeed.settled();
    await roleExpiry.stop();
    await panelRefresh.stop();
    dmWarmer.stop();
    await client.destroy();
    // Each listener gives requests being answered a moment, then cuts clients that stalled mid-request.
    await Promise.all([view.stop(), demoPage.close()]);
    await storage.close();
    await coordination.close();
  }
}
