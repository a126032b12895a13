import { Client, Events, GatewayIntentBits, LimitedCollection, Options, type CacheFactory, type ClientOptions } from 'discord.js';
import type { Logger } from '../logger.js';
import type { Config } from '../config.js';
import type { Coordination } from '../coordination/coordination.js';
import { redisIdentifyThrottlerFactory } from '../discord/identify-throttler.js';
import { shardOptions } from '../discord/sharding.js';

/**
 * The discord.js client as the bot runs it: the Guilds intent, and Guild Messages unless the operator
 * turned it off (STORE_WEBHOOK_INTENT: the store webhook's posts; docs/store-webhook.md, never Message
 * Content, so each message arrives blank and is dropped at the raw packet), its share of Discord's global
 * REST limit, its shards, identifies paced with the other processes on Redis, and caches cut to
 * what the bot reads (it reads no message history, presences or members but itself).
 */
export function createDiscordClient(config: Config, coordination: Pick<Coordination, 'redis'>, extra?: Pick<ClientOptions, 'ws'>): Client {
  return new Client({
    // Fixed for the session: a change of intents takes a new IDENTIFY, which would lose the interactions sent meanwhile.
    intents: config.STORE_WEBHOOK_INTENT ? [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages] : [GatewayIntentBits.Guilds],
    // Discord's global limit is per bot: with several processes each runs with its share (DISCORD_GLOBAL_RPS).
    rest: { api: config.DISCORD_API_URL, globalRequestsPerSecond: config.DISCORD_GLOBAL_RPS },
    ...shardOptions(config),
    // Processes sharing Redis pace their identifies together (Discord's max_concurrency is per bot).
    ...(coordination.redis ? { ws: { buildIdentifyThrottler: redisIdentifyThrottlerFactory(coordination.redis.client, coordination.redis.key('')) } } : {}),
    ...extra,
    makeCache: keepingWhatTheBotReads,
  });
}

/**
 * The managers whose cache the bot never reads. discord.js gives every guild and every text channel
 * a manager of each, with a collection of its own: about 3 KB a guild of empty collections on the
 * local Discord's one-channel guilds, and on a real server its emojis, stickers, events and so on
 * kept as objects. They all get one collection that keeps nothing, shared, so a guild costs only
 * what the bot reads: its roles, its channels with their overwrites, the bot's own member.
 */
export const NEVER_READ_MANAGERS = [
  'AutoModerationRuleManager',
  'GuildApplicationCommandManager',
  'GuildBanManager',
  'GuildEmojiManager',
  'GuildInviteManager',
  'GuildScheduledEventManager',
  'GuildSoundboardSoundManager',
  'GuildStickerManager',
  'MessageManager',
  'PresenceManager',
  'ReactionManager',
  'StageInstanceManager',
  'ThreadManager',
  'ThreadMemberManager',
  'VoiceStateManager',
] as const;

const withLimits = Options.cacheWithLimits({
  ...Options.DefaultMakeCacheSettings,
  GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
  // Every buyer who ever clicked would otherwise stay in memory for the life of the process.
  UserManager: { maxSize: 10_000, keepOverLimit: (user) => user.id === user.client.user.id },
});
// maxSize 0 and nothing to keep over it: set() stores nothing, so sharing it cannot mix two managers' entries.
const keepsNothing = new LimitedCollection<unknown, unknown>({ maxSize: 0 });
const neverRead = new Set<string>(NEVER_READ_MANAGERS);

/** discord.js looks a manager up by its class name, or the name of the class it caches as (messages, threads). */
const keepingWhatTheBotReads: CacheFactory = (managerType, holds, manager) =>
  neverRead.has(manager.name) || neverRead.has(managerType.name) ? (keepsNothing as never) : withLimits(managerType, holds, manager);

/** The gateway's troubles, logged: client errors, a shard disconnected, a session resumed. */
export function logGatewayEvents(client: Client, logger: Logger): void {
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.ShardDisconnect, (_event, shard) => logger.warn({ shard }, 'gateway disconnected'));
  client.on(Events.ShardResume, (shard) => logger.info({ shard }, 'gateway session resumed'));
}
