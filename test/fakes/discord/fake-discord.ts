/**
 * A local Discord: REST under `/api/v10` and the gateway on the same loopback port, good enough for the
 * real discord.js client to log in, receive interactions and answer them. Tests dispatch what a member
 * would do (slash commands, clicks, selects, modal submits, autocomplete) and read what the bot did.
 *
 *   const discord = await FakeDiscord.start();
 *   const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: discord.apiUrl } });
 *   await client.login('any-token');                    // READY + one GUILD_CREATE per guild
 *   const member = discord.newUser();
 *   const menu = await (await discord.slash(member, 'shop')).settled();
 *   const next = await (await discord.click(member, menu.message!, 'v1:shop:next')).settled();
 *   ...
 *   await client.destroy();                             // before closing the fake
 *   await discord.close();
 *
 * What Discord would reject is rejected here too (400/50035 with the offending field, 50006 for an empty
 * message, 40060 for a second callback, 10062 for an unknown interaction), so a test fails where
 * production would. Unknown routes answer a JSON 404, never 5xx (discord.js retries those).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ApplicationCommandOptionType,
  ChannelType,
  ComponentType,
  GatewayIntentBits,
  InteractionResponseType,
  InteractionType,
  PermissionFlagsBits,
} from 'discord-api-types/v10';
import { Gateway, shardOf, type IdentifyRecord, type SessionInfo, type ShardTuple } from './gateway.js';
import {
  alreadyAcknowledged,
  apiError,
  cannotDm,
  emptyMessage,
  headersOf,
  invalidFormBody,
  isObject,
  json,
  matchPath,
  missingPermissions,
  noContent,
  notFound,
  readBody,
  unauthorized,
  unknownChannel,
  unknownCommand,
  unknownGuild,
  unknownInteraction,
  unknownMember,
  unknownMessage,
  unknownRole,
  unknownUser,
  unknownWebhook,
  type Reply,
  type UploadedFile,
} from './http.js';
import { interactionToken, Snowflakes } from './ids.js';
import {
  coerceOption,
  describeIds,
  findComponent,
  inferOptionType,
  nestOptions,
  numberOr,
  ResolvedBuilder,
  submittedComponents,
} from './interaction-data.js';
import {
  applicationJson,
  channelJson,
  DEFAULT_BOT_PERMISSIONS,
  DEFAULT_MEMBER_PERMISSIONS,
  EPHEMERAL,
  IS_COMPONENTS_V2,
  guildCreateJson,
  guildJson,
  interactionJson,
  LOADING,
  memberJson,
  messageJson,
  messageTypeForInteraction,
  readyJson,
  roleJson,
  snapshot,
  userJson,
  type ChannelState,
  type GuildState,
  type InteractionContext,
  type Json,
  type MemberState,
  type RoleState,
  type StoredAttachment,
  type StoredMessage,
} from './payloads.js';
import type {
  AuditEntry,
  AutocompleteOptions,
  DispatchOptions,
  FakeMessage,
  FakeModal,
  FakeUser,
  InjectedResponse,
  InteractionHandle,
  InteractionOutcome,
  ModalSubmitOptions,
  RecordedRequest,
  RoleChange,
  SlashOptions,
} from './types.js';
import {
  MAX_WEBHOOKS_PER_CHANNEL,
  messageCreateFor,
  newWebhookToken,
  webhookAuthor,
  webhookJson,
  webhookNameError,
  type WebhookState,
} from './webhooks.js';
import { checkChoices, checkCommands, checkMessage, checkModal, type FormErrors } from './validation.js';

export type {
  AuditEntry,
  AutocompleteOptions,
  DispatchOptions,
  FakeMessage,
  FakeModal,
  FakeUser,
  InjectedResponse,
  InteractionHandle,
  InteractionOutcome,
  ModalSubmitOptions,
  OptionValue,
  RecordedRequest,
  ResolvedInput,
  RoleChange,
  SlashOptions,
} from './types.js';
export { DEFAULT_BOT_PERMISSIONS, DEFAULT_MEMBER_PERMISSIONS } from './payloads.js';

/** ApplicationCommandType.Message: a command on a message's Apps menu. */
const MESSAGE_COMMAND = 3;
export { shardOf, type IdentifyRecord, type SessionInfo, type ShardTuple } from './gateway.js';

/** Discord lets a bucket of shards (`shard_id % max_concurrency`) identify once per 5 s. */
export const IDENTIFY_WINDOW_MS = 5_000;

export interface FakeDiscordOptions {
  applicationId?: string;
  botUsername?: string;
  /** The bot's permissions in every guild (its managed role) and the default `app_permissions`. */
  botPermissions?: bigint;
  /** Clock for snowflakes and timestamps (ms since the Unix epoch); default `Date.now`. */
  clock?: () => number;
  /** The shard count `GET /gateway/bot` recommends; default 1. */
  shards?: number;
  /** `session_start_limit.max_concurrency` of `GET /gateway/bot`: identify buckets; default 1. */
  maxConcurrency?: number;
}

/** Two IDENTIFYs of one rate-limit bucket closer together than Discord allows. */
export interface IdentifyPacingViolation {
  bucket: number;
  first: IdentifyRecord;
  second: IdentifyRecord;
}

type InteractionKind = 'command' | 'autocomplete' | 'component' | 'modal';

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: Error): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A rejection nobody asked for must not become an unhandled rejection; callers get their own chain.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

interface InteractionRecord {
  id: string;
  token: string;
  type: number;
  kind: InteractionKind;
  user: FakeUser;
  channelId: string;
  guildId: string | null;
  /** The shard whose session the INTERACTION_CREATE went to. */
  shard: ShardTuple;
  /** Component interactions (and modal submits from one): the message the component is on. */
  componentMessageId?: string;
  callbackType?: number;
  ephemeral: boolean;
  originalMessageId?: string;
  followUpIds: string[];
  modal?: FakeModal;
  choices?: { name: string; value: string | number }[];
  settled: boolean;
  failed: boolean;
  ack: Deferred<{ type: number }>;
  settle: Deferred<void>;
  editWaiters: ((message: FakeMessage) => void)[];
  followUpWaiters: ((message: FakeMessage) => void)[];
}

interface ModalOrigin {
  guildId: string | null;
  channelId: string;
  componentMessageId?: string;
}

interface RouteRequest {
  params: Record<string, string>;
  /** Lower-case names, as recorded. */
  headers: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  files: UploadedFile[];
  method: string;
  path: string;
}

interface Route {
  method: string;
  pattern: string;
  /** Bot-token routes; interaction callbacks and webhooks are unauthenticated, as on Discord. */
  auth: boolean;
  handle: (req: RouteRequest) => Reply;
}

interface InjectedFailure {
  method: string;
  pattern: RegExp;
  response: InjectedResponse;
  remaining: number;
}

interface MessageWaiter {
  matches: (message: FakeMessage, channel: ChannelState | undefined) => boolean;
  resolve: (message: FakeMessage) => void;
}

interface RequestWaiter {
  matches: (request: RecordedRequest) => boolean;
  resolve: (request: RecordedRequest) => void;
}

export class FakeDiscord {
  readonly apiUrl: string;
  readonly gatewayUrl: string;
  readonly applicationId: string;
  readonly botUser: FakeUser;
  /** The owner of guilds created without an explicit owner. */
  readonly ownerUser: FakeUser;
  readonly defaultGuildId: string;
  readonly defaultChannelId: string;
  /** Every REST request, in arrival order. */
  readonly requests: RecordedRequest[] = [];
  /** Every request to give or take a member's role, in arrival order, with its audit-log reason and the answer. */
  readonly roleChanges: RoleChange[] = [];
  /** Each guild's audit log of member role updates (action 25), oldest first: the bot's changes and staff's by hand. */
  readonly #roleAudit = new Map<string, AuditEntry[]>();
  /** What `GET /gateway/bot` recommends; change it before the client logs in. */
  recommendedShards: number;
  /** `session_start_limit.max_concurrency` of `GET /gateway/bot`. */
  maxConcurrency: number;

  private readonly ids: Snowflakes;
  private readonly clock: () => number;
  private readonly botPermissions: bigint;
  private readonly gateway: Gateway;
  private readonly routes: Route[];
  private readonly users = new Map<string, FakeUser>();
  private readonly guilds = new Map<string, GuildState>();
  /** Guilds the bot was removed from (removeBot): kept whole, channels and webhooks, until addBotBack. */
  private readonly guildsWithoutBot = new Map<string, GuildState>();
  private readonly channels = new Map<string, ChannelState>();
  private readonly dmChannels = new Map<string, string>();
  private readonly refusedDms = new Set<string>();
  private readonly messages = new Map<string, StoredMessage>();
  /** Channel webhooks by id (deleted ones are removed: their id and token then answer 10015). */
  private readonly webhooks = new Map<string, WebhookState>();
  private readonly channelMessages = new Map<string, string[]>();
  private readonly interactions = new Map<string, InteractionRecord>();
  private readonly interactionsByToken = new Map<string, InteractionRecord>();
  private readonly globalCommands: Json[] = [];
  private readonly guildCommands = new Map<string, Json[]>();
  private readonly unregisteredCommandIds = new Map<string, string>();
  private readonly failures: InjectedFailure[] = [];
  private readonly modalOrigins = new WeakMap<FakeModal, ModalOrigin>();
  private readonly lastModalOrigin = new Map<string, ModalOrigin>();
  private messageWaiters: MessageWaiter[] = [];
  private requestWaiters: RequestWaiter[] = [];
  private userCounter = 0;
  private guildCounter = 0;
  private closed = false;

  static async start(opts: FakeDiscordOptions = {}): Promise<FakeDiscord> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    return new FakeDiscord(server, port, opts);
  }

  private constructor(
    private readonly server: Server,
    port: number,
    opts: FakeDiscordOptions,
  ) {
    this.clock = opts.clock ?? Date.now;
    this.ids = new Snowflakes(this.clock);
    this.recommendedShards = opts.shards ?? 1;
    this.maxConcurrency = opts.maxConcurrency ?? 1;
    this.apiUrl = `http://127.0.0.1:${port}/api`;
    this.gatewayUrl = `ws://127.0.0.1:${port}`;
    this.applicationId = opts.applicationId ?? this.ids.next();
    this.botPermissions = opts.botPermissions ?? DEFAULT_BOT_PERMISSIONS;
    // Modern applications share their id with their bot user.
    this.botUser = { id: this.applicationId, username: opts.botUsername ?? 'Fake Bot', global_name: null };
    this.users.set(this.botUser.id, this.botUser);
    this.ownerUser = this.newUser({ username: 'guild-owner' });
    const guild = this.addGuild({ name: 'Test Guild' });
    this.defaultGuildId = guild.id;
    this.defaultChannelId = guild.channelId;
    this.routes = this.buildRoutes();
    const owned = (shard: ShardTuple) => [...this.guilds.values()].filter((g) => shardOf(g.id, shard[1]) === shard[0]);
    this.gateway = new Gateway(server, {
      readyPayload: (sessionId, shard) =>
        readyJson({
          user: this.botUser,
          guildIds: owned(shard).map((g) => g.id),
          sessionId,
          resumeUrl: this.gatewayUrl,
          applicationId: this.applicationId,
          shard,
        }),
      guildCreates: (shard) => owned(shard).map((g) => this.guildCreatePayload(g)),
      now: () => this.clock(),
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      void this.onRequest(req, res);
    });
  }

  // ---- world setup --------------------------------------------------------------------------------------

  /**
   * Adds a guild with one text channel; after login the client gets its GUILD_CREATE (on the session of
   * the shard that owns it). `shard` picks that shard among `shardCount` (default: `recommendedShards`)
   * by choosing the id; otherwise the id, a snowflake, falls on whichever shard its millisecond gives.
   */
  addGuild(
    opts: { name?: string; ownerId?: string; preferredLocale?: string; shard?: number; shardCount?: number } = {},
  ): { id: string; channelId: string } {
    this.guildCounter += 1;
    const id = opts.shard === undefined ? this.ids.next() : this.ids.nextOnShard(opts.shard, opts.shardCount ?? this.recommendedShards);
    const joinedAt = this.nowIso();
    const botRole: RoleState = {
      id: this.ids.next(),
      name: this.botUser.username,
      permissions: this.botPermissions,
      position: 1,
      managed: true,
      botId: this.botUser.id,
    };
    const guild: GuildState = {
      id,
      name: opts.name ?? `Guild ${this.guildCounter}`,
      ownerId: opts.ownerId ?? this.ownerUser.id,
      preferredLocale: opts.preferredLocale ?? 'en-US',
      joinedAt,
      defaultChannelId: '',
      channelIds: [],
      // @everyone shares the guild's id.
      roles: [
        { id, name: '@everyone', permissions: DEFAULT_MEMBER_PERMISSIONS, position: 0, managed: false },
        botRole,
      ],
      members: new Map<string, MemberState>([
        [this.botUser.id, { roles: [botRole.id], joinedAt }],
        [opts.ownerId ?? this.ownerUser.id, { roles: [], joinedAt }],
      ]),
    };
    this.guilds.set(id, guild);
    const channel = this.createChannel(guild, { name: 'general', type: ChannelType.GuildText });
    guild.defaultChannelId = channel.id;
    // Unset while the constructor creates the default guild (before any client could connect).
    (this.gateway as Gateway | undefined)?.broadcast('GUILD_CREATE', this.guildCreatePayload(guild), guild.id);
    return { id, channelId: channel.id };
  }

  addChannel(guildId: string, opts: { name?: string; type?: number } = {}): string {
    const guild = this.requireGuild(guildId);
    const channel = this.createChannel(guild, { name: opts.name ?? `channel-${guild.channelIds.length + 1}`, type: opts.type ?? ChannelType.GuildText });
    this.gateway.broadcast('CHANNEL_CREATE', channelJson(channel), guild.id);
    return channel.id;
  }

  /**
   * Denies the bot permissions in one channel (a member permission overwrite), as an admin would
   * in the channel settings; with SendMessages denied, the bot's posts there fail with 403/50013.
   */
  denyBot(channelId: string, deny: bigint): void {
    const channel = this.channels.get(channelId);
    if (!channel || channel.guildId === null) throw new Error(`FakeDiscord: unknown guild channel ${channelId}`);
    channel.botDeny = { botUserId: this.botUser.id, deny };
    this.gateway.broadcast('CHANNEL_UPDATE', channelJson(channel), channel.guildId);
  }

  /** Allows a role permissions in one channel only (a role permission overwrite), announced with CHANNEL_UPDATE. */
  allowRoleIn(channelId: string, roleId: string, allow: bigint): void {
    const channel = this.channels.get(channelId);
    if (!channel || channel.guildId === null) throw new Error(`FakeDiscord: unknown guild channel ${channelId}`);
    channel.roleAllows = [...(channel.roleAllows ?? []).filter((overwrite) => overwrite.roleId !== roleId), { roleId, allow }];
    this.gateway.broadcast('CHANNEL_UPDATE', channelJson(channel), channel.guildId);
  }

  /**
   * A role made after login, announced to the bot. With `botId` it is the role Discord makes for a
   * bot when it joins: `managed` (no member can be given or lose it) and tagged with that bot's id.
   */
  addRole(guildId: string, name: string, opts: { permissions?: bigint; botId?: string; position?: number } = {}): string {
    const guild = this.requireGuild(guildId);
    const role: RoleState = {
      id: this.ids.next(),
      name,
      permissions: opts.permissions ?? 0n,
      position: guild.roles.length,
      managed: opts.botId !== undefined,
      ...(opts.botId !== undefined ? { botId: opts.botId } : {}),
    };
    guild.roles.push(role);
    this.gateway.broadcast('GUILD_ROLE_CREATE', { guild_id: guild.id, role: roleJson(role) }, guild.id);
    if (opts.position !== undefined) this.moveRole(guild.id, role.id, opts.position);
    return role.id;
  }

  /**
   * Moves a role in the server's role list, as an admin drags it in Server Settings → Roles: it takes
   * `position` (1 is just above @everyone, which stays 0) and the roles from there up move one up.
   * Every role whose position changed is announced (GUILD_ROLE_UPDATE). A new role starts at the top,
   * above the bot's own role (position 1 in a new guild); `addRole(…, { position: 1 })` puts it below.
   */
  moveRole(guildId: string, roleId: string, position: number): void {
    const guild = this.requireGuild(guildId);
    const role = guild.roles.find((candidate) => candidate.id === roleId);
    if (!role || role.id === guild.id) throw new Error(`FakeDiscord: role ${roleId} cannot be moved in guild ${guildId}`);
    const others = guild.roles.filter((candidate) => candidate.id !== guild.id && candidate.id !== roleId).sort((a, b) => compareRoles(a, b));
    const index = Math.max(0, Math.min(others.length, position - 1));
    const ordered = [...others.slice(0, index), role, ...others.slice(index)];
    ordered.forEach((candidate, at) => {
      if (candidate.position === at + 1) return;
      candidate.position = at + 1;
      this.gateway.broadcast('GUILD_ROLE_UPDATE', { guild_id: guild.id, role: roleJson(candidate) }, guild.id);
    });
  }

  /** The role Discord made for the bot when it joined the guild (managed, position 1 in a new guild). */
  botRoleId(guildId: string): string {
    const guild = this.requireGuild(guildId);
    const role = guild.roles.find((candidate) => candidate.botId === this.botUser.id);
    if (!role) throw new Error(`FakeDiscord: the bot has no role in guild ${guildId}`);
    return role.id;
  }

  /** Changes the permissions of the bot's own role in one guild (an admin unticking Manage Roles), announced with GUILD_ROLE_UPDATE. */
  setBotPermissions(guildId: string, permissions: bigint): void {
    const guild = this.requireGuild(guildId);
    const role = guild.roles.find((candidate) => candidate.id === this.botRoleId(guildId))!;
    role.permissions = permissions;
    this.gateway.broadcast('GUILD_ROLE_UPDATE', { guild_id: guild.id, role: roleJson(role) }, guild.id);
  }

  /** Changes one role's permissions (an admin editing it in Server Settings → Roles), announced with GUILD_ROLE_UPDATE. */
  setRolePermissions(guildId: string, roleId: string, permissions: bigint): void {
    const guild = this.requireGuild(guildId);
    const role = guild.roles.find((candidate) => candidate.id === roleId);
    if (!role) throw new Error(`FakeDiscord: no role ${roleId} in guild ${guildId}`);
    role.permissions = permissions;
    this.gateway.broadcast('GUILD_ROLE_UPDATE', { guild_id: guild.id, role: roleJson(role) }, guild.id);
  }

  /** The channel's webhooks as a test reads them (token included: a test plays the shop's panel). */
  webhooksIn(channelId: string): { id: string; token: string; name: string; guildId: string }[] {
    return this.webhooksOf(channelId).map((hook) => ({ id: hook.id, token: hook.token, name: hook.name, guildId: hook.guildId }));
  }

  /** An admin deletes a webhook in the channel's settings: its URL then answers 404 / 10015. */
  removeWebhook(webhookId: string): void {
    if (!this.webhooks.delete(webhookId)) throw new Error(`FakeDiscord.removeWebhook: no webhook ${webhookId}`);
  }

  /**
   * Members already in the guild, holding `roles`, without each having interacted (their users are
   * not known to the fake: enough for role changes, which Discord answers by member).
   */
  addMembers(guildId: string, userIds: readonly string[], roles: readonly string[]): void {
    const guild = this.requireGuild(guildId);
    for (const userId of userIds) guild.members.set(userId, { roles: [...roles], joinedAt: this.nowIso() });
  }

  /** The roles a member holds now; undefined when they are not in the guild. */
  memberRoles(guildId: string, userId: string): string[] | undefined {
    const roles = this.requireGuild(guildId).members.get(userId)?.roles;
    return roles ? [...roles] : undefined;
  }

  /**
   * The member leaves the guild; asking for them is then 404 / 10007 Unknown Member. As on Discord,
   * GUILD_MEMBER_REMOVE goes only to a client that identified with the privileged GUILD_MEMBERS intent.
   */
  removeMember(guildId: string, userId: string): void {
    const guild = this.requireGuild(guildId);
    const user = this.users.get(userId);
    if (!guild.members.delete(userId) || !user) return;
    this.gateway.broadcast('GUILD_MEMBER_REMOVE', { guild_id: guild.id, user: userJson(user) }, guild.id, GatewayIntentBits.GuildMembers);
  }

  /**
   * The bot is removed from the guild (kicked, or the guild deleted): its client gets GUILD_DELETE
   * (without `unavailable`), and every request about the guild is then 404 / 10004 Unknown Guild.
   */
  removeBot(guildId: string): void {
    const guild = this.requireGuild(guildId);
    this.gateway.broadcast('GUILD_DELETE', { id: guild.id }, guild.id);
    this.guilds.delete(guild.id);
    this.guildsWithoutBot.set(guild.id, guild);
  }

  /**
   * The bot is invited back into a guild it was removed from: the guild as it was (its channels, and
   * the webhooks in them, outlive the bot on Discord), announced with GUILD_CREATE.
   */
  addBotBack(guildId: string): void {
    const guild = this.guildsWithoutBot.get(guildId);
    if (!guild) throw new Error(`FakeDiscord.addBotBack: the bot was not removed from guild ${guildId}`);
    this.guildsWithoutBot.delete(guildId);
    this.guilds.set(guildId, guild);
    this.gateway.broadcast('GUILD_CREATE', this.guildCreatePayload(guild), guild.id);
  }

  /**
   * Server-wide permissions beyond @everyone's come from roles in Discord: the fake keeps one role
   * per such set of permissions (announced to the bot like any role) and gives it to the member.
   */
  private roleGranting(guild: GuildState, permissions: bigint | undefined): string | undefined {
    if (permissions === undefined || (permissions & ~DEFAULT_MEMBER_PERMISSIONS) === 0n) return undefined;
    const name = `perms-${permissions.toString(16)}`;
    return guild.roles.find((role) => role.name === name)?.id ?? this.addRole(guild.id, name, { permissions });
  }

  /** A new member-to-be with a fresh snowflake. */
  newUser(opts: { username?: string; globalName?: string | null } = {}): FakeUser {
    this.userCounter += 1;
    const user: FakeUser = {
      id: this.ids.next(),
      username: opts.username ?? `user${this.userCounter}`,
      global_name: opts.globalName ?? null,
    };
    this.users.set(user.id, user);
    return user;
  }

  /** Resolves once a client has identified and every guild's GUILD_CREATE was sent (at once if so already). */
  ready(): Promise<void> {
    return this.gateway.ready();
  }

  /** Resolves after the next IDENTIFY (of that shard id, if given) has been answered (READY + GUILD_CREATEs). */
  nextReady(shardId?: number): Promise<void> {
    return this.gateway.nextReady(shardId);
  }

  /** Resolves once every listed shard id has a live session (at once if so already). */
  shardsReady(shardIds: number[]): Promise<void> {
    return this.gateway.shardsReady(shardIds);
  }

  /** Resolves after the next RESUMED was sent. */
  nextResume(): Promise<void> {
    return this.gateway.nextResume();
  }

  /**
   * Resolves when a client's gateway socket next closes: after `requestReconnect()` this is the moment
   * the client is offline; dispatches made then are replayed when it resumes.
   */
  nextDisconnect(): Promise<void> {
    return this.gateway.nextDisconnect();
  }

  get identifyCount(): number {
    return this.gateway.identifyCount;
  }

  get resumeCount(): number {
    return this.gateway.resumeCount;
  }

  /** Every accepted IDENTIFY, in order: when (the fake's clock) and its `[shard_id, num_shards]`. */
  get identifies(): readonly IdentifyRecord[] {
    return this.gateway.identifies;
  }

  /** Gateway sessions not ended, in identify order, with their shard. */
  gatewaySessions(): SessionInfo[] {
    return this.gateway.sessionInfos();
  }

  /** The shard whose session received this interaction. */
  interactionShard(interactionId: string): ShardTuple | undefined {
    return this.interactions.get(interactionId)?.shard;
  }

  /** The shard of `count` (default: `recommendedShards`) that owns a guild: `(guild_id >> 22) % count`. */
  shardOf(guildId: string, count = this.recommendedShards): number {
    return shardOf(guildId, count);
  }

  /**
   * IDENTIFYs of one rate-limit bucket (`shard_id % maxConcurrency`) less than `windowMs` apart, by the
   * fake's clock: Discord allows one per bucket per 5 s. The fake records rather than refuses them, so a
   * test with an injected clock and identify throttler can check the pacing without waiting for it.
   */
  identifyPacingViolations(windowMs = IDENTIFY_WINDOW_MS): IdentifyPacingViolation[] {
    const lastInBucket = new Map<number, IdentifyRecord>();
    const violations: IdentifyPacingViolation[] = [];
    for (const record of this.gateway.identifies) {
      const bucket = record.shard[0] % this.maxConcurrency;
      const previous = lastInBucket.get(bucket);
      if (previous && record.at - previous.at < windowMs) violations.push({ bucket, first: previous, second: record });
      lastInBucket.set(bucket, record);
    }
    return violations;
  }

  // ---- dispatching what members do ----------------------------------------------------------------------

  async slash(user: FakeUser, command: string, opts: SlashOptions = {}): Promise<InteractionHandle> {
    await this.ready();
    const ctx = this.context(user, opts);
    const definition = this.commandDefinition(command, ctx.guild?.id ?? null);
    const leafDefs = this.leafDefinitions(command, definition, opts.subcommandGroup, opts.subcommand);
    const resolved = new ResolvedBuilder(ctx, this.users, this.channels, this.nowIso());
    resolved.addInput(opts.resolved);
    const leaf: Json[] = [];
    for (const [name, raw] of Object.entries(opts.options ?? {})) {
      const def = this.optionDefinition(command, leafDefs, name);
      const type = opts.optionTypes?.[name] ?? numberOr(def?.type) ?? inferOptionType(raw, opts.resolved);
      const value = coerceOption(type, raw);
      leaf.push({ name, type, value });
      resolved.addOption(type, String(value));
    }
    const data: Json = {
      id: this.commandId(command, definition),
      name: command,
      type: 1,
      options: nestOptions(leaf, opts.subcommandGroup, opts.subcommand),
    };
    if (typeof definition?.guild_id === 'string') data.guild_id = definition.guild_id;
    const resolvedJson = resolved.toJson();
    if (resolvedJson) data.resolved = resolvedJson;
    return this.dispatch(ctx, InteractionType.ApplicationCommand, 'command', data);
  }

  async autocomplete(
    user: FakeUser,
    command: string,
    focused: { name: string; value: string },
    opts: AutocompleteOptions = {},
  ): Promise<InteractionHandle> {
    await this.ready();
    const ctx = this.context(user, opts);
    const definition = this.commandDefinition(command, ctx.guild?.id ?? null);
    const leafDefs = this.leafDefinitions(command, definition, opts.subcommandGroup, opts.subcommand);
    const leaf: Json[] = [];
    for (const [name, raw] of Object.entries(opts.options ?? {})) {
      if (name === focused.name) continue;
      const def = this.optionDefinition(command, leafDefs, name);
      const type = opts.optionTypes?.[name] ?? numberOr(def?.type) ?? inferOptionType(raw, undefined);
      leaf.push({ name, type, value: coerceOption(type, raw) });
    }
    const focusedDef = this.optionDefinition(command, leafDefs, focused.name);
    // Discord sends the focused value as the raw text typed so far, whatever the option's type.
    leaf.push({
      name: focused.name,
      type: opts.optionTypes?.[focused.name] ?? numberOr(focusedDef?.type) ?? ApplicationCommandOptionType.String,
      value: focused.value,
      focused: true,
    });
    const data: Json = {
      id: this.commandId(command, definition),
      name: command,
      type: 1,
      options: nestOptions(leaf, opts.subcommandGroup, opts.subcommand),
    };
    if (typeof definition?.guild_id === 'string') data.guild_id = definition.guild_id;
    return this.dispatch(ctx, InteractionType.ApplicationCommandAutocomplete, 'autocomplete', data);
  }

  /**
   * A member's message command (right click on a message → Apps → `command`), as Discord sends it: an
   * application command of type 3 whose `target_id` is the message, given whole in `data.resolved.messages`.
   * The interaction happens where the message is; `opts.guildId`/`channelId` are ignored.
   */
  async messageCommand(user: FakeUser, command: string, message: FakeMessage, opts: DispatchOptions = {}): Promise<InteractionHandle> {
    await this.ready();
    const stored = this.liveMessage(message);
    const ctx = this.context(user, opts, this.channels.get(stored.channelId));
    const definition = this.commandDefinition(command, ctx.guild?.id ?? null, MESSAGE_COMMAND);
    const data: Json = {
      id: this.commandId(command, definition),
      name: command,
      type: MESSAGE_COMMAND,
      target_id: stored.id,
      resolved: { messages: { [stored.id]: messageJson(stored) } },
    };
    if (typeof definition?.guild_id === 'string') data.guild_id = definition.guild_id;
    return this.dispatch(ctx, InteractionType.ApplicationCommand, 'command', data);
  }

  /**
   * A message a member (not the bot) posts in a channel, with whatever text, embeds and components it
   * carries (not validated: what a self-bot or a webhook can post is what a check must read).
   */
  postMessage(user: FakeUser, channelId: string, body: { content?: string; embeds?: unknown[]; components?: unknown[]; flags?: number }): FakeMessage {
    const channel = this.channels.get(channelId);
    if (!channel) throw new Error(`FakeDiscord.postMessage: no channel ${channelId}`);
    return snapshot(this.createMessage(channel, body, [], { followUp: false, author: user }));
  }

  /**
   * Clicks a button on the message as it stands now (looked up by id). Throws if the message is gone, or
   * has no such button, or the button is disabled or a link. `opts.guildId`/`channelId` are ignored: the
   * interaction happens where the message is.
   */
  async click(user: FakeUser, message: FakeMessage, customId: string, opts: DispatchOptions = {}): Promise<InteractionHandle> {
    await this.ready();
    const stored = this.liveMessage(message);
    const button = findComponent(stored.components, (c) => c.type === ComponentType.Button && c.custom_id === customId);
    if (!button) {
      throw new Error(`FakeDiscord.click: no button "${customId}" on message ${stored.id}; buttons: ${describeIds(stored.components, ComponentType.Button)}`);
    }
    if (button.disabled === true) throw new Error(`FakeDiscord.click: button "${customId}" is disabled`);
    const data: Json = { custom_id: customId, component_type: ComponentType.Button };
    return this.dispatchComponent(user, stored, data, opts);
  }

  /** Chooses `values` in a string select of the message as it stands now; checks options and min/max. */
  async select(user: FakeUser, message: FakeMessage, customId: string, values: string[], opts: DispatchOptions = {}): Promise<InteractionHandle> {
    await this.ready();
    const stored = this.liveMessage(message);
    const menu = findComponent(stored.components, (c) => c.type === ComponentType.StringSelect && c.custom_id === customId);
    if (!menu) {
      throw new Error(`FakeDiscord.select: no string select "${customId}" on message ${stored.id}; selects: ${describeIds(stored.components, ComponentType.StringSelect)}`);
    }
    if (menu.disabled === true) throw new Error(`FakeDiscord.select: select "${customId}" is disabled`);
    const offered = (Array.isArray(menu.options) ? menu.options : []).map((o) => String((o as { value?: unknown }).value));
    const unknown = values.filter((v) => !offered.includes(v));
    if (unknown.length > 0) {
      throw new Error(`FakeDiscord.select: ${JSON.stringify(unknown)} not among the options of "${customId}": ${JSON.stringify(offered)}`);
    }
    const min = numberOr(menu.min_values) ?? 1;
    const max = numberOr(menu.max_values) ?? 1;
    if (values.length < min || values.length > max) {
      throw new Error(`FakeDiscord.select: "${customId}" takes ${min}..${max} values, got ${values.length}`);
    }
    const data: Json = { custom_id: customId, component_type: ComponentType.StringSelect, values };
    return this.dispatchComponent(user, stored, data, opts);
  }

  /**
   * Picks members in a user select of the message as it stands now, as Discord sends it: the ids in
   * `values`, the users (and, in a guild, their members) in `data.resolved`. Checks min/max.
   */
  async selectUsers(user: FakeUser, message: FakeMessage, customId: string, picked: FakeUser[], opts: DispatchOptions = {}): Promise<InteractionHandle> {
    await this.ready();
    const stored = this.liveMessage(message);
    const menu = findComponent(stored.components, (c) => c.type === ComponentType.UserSelect && c.custom_id === customId);
    if (!menu) {
      throw new Error(`FakeDiscord.selectUsers: no user select "${customId}" on message ${stored.id}; selects: ${describeIds(stored.components, ComponentType.UserSelect)}`);
    }
    if (menu.disabled === true) throw new Error(`FakeDiscord.selectUsers: select "${customId}" is disabled`);
    const min = numberOr(menu.min_values) ?? 1;
    const max = numberOr(menu.max_values) ?? 1;
    if (picked.length < min || picked.length > max) throw new Error(`FakeDiscord.selectUsers: "${customId}" takes ${min}..${max} users, got ${picked.length}`);
    const ctx = this.context(user, opts, this.channels.get(stored.channelId));
    const resolved = new ResolvedBuilder(ctx, this.users, this.channels, this.nowIso());
    resolved.addInput({ users: picked });
    const data: Json = { custom_id: customId, component_type: ComponentType.UserSelect, values: picked.map((each) => each.id) };
    const resolvedJson = resolved.toJson();
    if (resolvedJson) data.resolved = resolvedJson;
    return this.dispatch(ctx, InteractionType.MessageComponent, 'component', data, stored);
  }

  /**
   * Submits a modal the bot showed. `values` by component custom_id: a string for text inputs, a string
   * array for selects inside labels. Throws on unknown ids, missing required inputs, or lengths out of range.
   */
  async submitModal(
    user: FakeUser,
    modal: FakeModal,
    values: Record<string, string | string[]>,
    opts: ModalSubmitOptions = {},
  ): Promise<InteractionHandle> {
    await this.ready();
    const origin = this.modalOrigins.get(modal) ?? this.lastModalOrigin.get(modal.custom_id);
    let componentMessage: StoredMessage | undefined;
    if (opts.message) componentMessage = this.liveMessage(opts.message);
    else if (origin?.componentMessageId) {
      const m = this.messages.get(origin.componentMessageId);
      if (m && !m.deleted) componentMessage = m;
    }
    const components = submittedComponents(modal, values);
    const data: Json = { custom_id: modal.custom_id, components };
    let ctx: InteractionContext;
    if (componentMessage) ctx = this.context(user, opts, this.channels.get(componentMessage.channelId));
    else if (opts.guildId === undefined && opts.channelId === undefined && origin) {
      ctx = this.context(user, opts, this.channels.get(origin.channelId));
    } else ctx = this.context(user, opts);
    return this.dispatch(ctx, InteractionType.ModalSubmit, 'modal', data, componentMessage);
  }

  // ---- observation --------------------------------------------------------------------------------------

  dmChannelOf(userId: string): string | undefined {
    return this.dmChannels.get(userId);
  }

  /** Messages in the channel, oldest first, as they stand now (deleted ones excluded). */
  messagesIn(channelId: string): FakeMessage[] {
    return (this.channelMessages.get(channelId) ?? [])
      .map((id) => this.messages.get(id))
      .filter((m): m is StoredMessage => m !== undefined && !m.deleted)
      .map(snapshot);
  }

  message(channelId: string, messageId: string): FakeMessage | undefined {
    const m = this.messages.get(messageId);
    return m && !m.deleted && m.channelId === channelId ? snapshot(m) : undefined;
  }

  /** True if the bot deleted this message. */
  wasDeleted(messageId: string): boolean {
    return this.messages.get(messageId)?.deleted === true;
  }

  /**
   * The next message created after this call (in that channel, or matching the predicate), including
   * interaction responses (a deferred reply is created empty, with the loading flag) and follow-ups.
   * Messages that already exist never match: check `messagesIn` for those.
   */
  waitForMessage(channelOrPredicate: string | ((m: FakeMessage) => boolean)): Promise<FakeMessage> {
    const matches =
      typeof channelOrPredicate === 'string'
        ? (m: FakeMessage) => m.channel_id === channelOrPredicate
        : channelOrPredicate;
    return new Promise((resolve) => this.messageWaiters.push({ matches: (m) => matches(m), resolve }));
  }

  /** The next message created in that user's DM channel (refused DMs create none). */
  waitForDm(userId: string): Promise<FakeMessage> {
    return new Promise((resolve) =>
      this.messageWaiters.push({ matches: (_m, channel) => channel?.recipientId === userId, resolve }),
    );
  }

  /** The next REST request (answered) of that method whose decoded path matches. */
  waitForRequest(method: string, pathPattern: RegExp): Promise<RecordedRequest> {
    const upper = method.toUpperCase();
    return new Promise((resolve) =>
      this.requestWaiters.push({
        matches: (r) => r.method === upper && testPattern(pathPattern, r.path),
        resolve,
      }),
    );
  }

  /** Messages the bot sends to this user's DM channel, and its edits of those already there, now fail with 403 / 50007. */
  refuseDms(userId: string): void {
    this.refusedDms.add(userId);
  }

  acceptDms(userId: string): void {
    this.refusedDms.delete(userId);
  }

  private heldPosts: { channelId: string; released: Promise<void>; reached: () => void }[] = [];

  /** The next `times` requests of `method` whose decoded path matches get this response instead. */
  failRoute(method: string, pathPattern: RegExp, response: InjectedResponse, times = 1): void {
    this.failures.push({ method: method.toUpperCase(), pattern: pathPattern, response, remaining: times });
  }

  /**
   * Every POST of a message to `channelId` waits (unanswered, as a slow or rate-limited channel
   * keeps a sender waiting) until `release()`; `reached` resolves when the first one arrives. The
   * test decides how long "slow" is by when it releases: no real time passes.
   */
  holdPosts(channelId: string): { reached: Promise<void>; release(): void } {
    let release!: () => void;
    let reached!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    const hold = { channelId, released, reached };
    this.heldPosts.push(hold);
    return {
      reached: arrived,
      release: () => {
        this.heldPosts = this.heldPosts.filter((other) => other !== hold);
        release();
      },
    };
  }

  /** Commands as stored by PUT/POST (global, or the guild's), with their generated ids. */
  registeredCommands(guildId?: string): unknown[] {
    const list = guildId === undefined ? this.globalCommands : (this.guildCommands.get(guildId) ?? []);
    return structuredClone(list);
  }

  // ---- gateway faults -----------------------------------------------------------------------------------

  /**
   * Op 7 to the most recent session (of that shard id, if given): the client reconnects and resumes (op 6);
   * RESUMED follows, missed dispatches are replayed.
   */
  requestReconnect(shardId?: number): void {
    this.gateway.requestReconnect(shardId);
  }

  /** Holds the next IDENTIFY or RESUME unanswered until released (see Gateway.hold). */
  holdGateway(op: 'identify' | 'resume'): { reached: Promise<void>; release(): void } {
    return this.gateway.hold(op);
  }

  /**
   * Op 9 to the most recent session (of that shard id, if given): resumable → the client resumes on the
   * same socket; otherwise it reconnects and identifies anew.
   */
  invalidateSession(resumable: boolean, shardId?: number): void {
    this.gateway.invalidateSession(resumable, shardId);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.gateway.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- interactions -------------------------------------------------------------------------------------

  private context(user: FakeUser, opts: DispatchOptions, where?: ChannelState): InteractionContext {
    this.rememberUser(user);
    let guild: GuildState | null;
    let channel: ChannelState;
    if (where) {
      channel = where;
      guild = where.guildId === null ? null : this.requireGuild(where.guildId);
    } else if (opts.guildId === null) {
      guild = null;
      channel = this.ensureDmChannel(user.id);
    } else {
      guild = this.requireGuild(opts.guildId ?? this.defaultGuildId);
      const channelId = opts.channelId ?? guild.defaultChannelId;
      const found = this.channels.get(channelId);
      if (!found || found.guildId !== guild.id) {
        throw new Error(`FakeDiscord: channel ${channelId} is not a channel of guild ${guild.id}`);
      }
      channel = found;
    }
    let member: MemberState | null = null;
    if (guild) {
      const roles = [...(opts.roles ?? guild.members.get(user.id)?.roles ?? [])];
      const granted = this.roleGranting(guild, opts.permissions);
      if (granted && !roles.includes(granted)) roles.push(granted);
      for (const role of roles) {
        if (!guild.roles.some((r) => r.id === role)) throw new Error(`FakeDiscord: role ${role} does not exist in guild ${guild.id}`);
      }
      member = guild.members.get(user.id) ?? { roles, joinedAt: this.nowIso() };
      member.roles = roles;
      guild.members.set(user.id, member);
    }
    return {
      id: this.ids.next(),
      token: interactionToken(),
      applicationId: this.applicationId,
      user,
      guild,
      channel,
      member,
      locale: opts.locale ?? 'en-US',
      // What Discord sends with an interaction: the member's permissions in this channel, overwrites included.
      permissions: (opts.permissions ?? DEFAULT_MEMBER_PERMISSIONS) | (opts.channelAllow ?? 0n),
      appPermissions: opts.appPermissions ?? this.botPermissions,
      ...(opts.session !== undefined ? { session: opts.session } : {}),
    };
  }

  private dispatchComponent(user: FakeUser, stored: StoredMessage, data: Json, opts: DispatchOptions): Promise<InteractionHandle> {
    const ctx = this.context(user, opts, this.channels.get(stored.channelId));
    return this.dispatch(ctx, InteractionType.MessageComponent, 'component', data, stored);
  }

  private async dispatch(
    ctx: InteractionContext,
    type: number,
    kind: InteractionKind,
    data: Json,
    componentMessage?: StoredMessage,
  ): Promise<InteractionHandle> {
    const guildId = ctx.guild?.id ?? null;
    // With several shards, the guild's own shard may still be connecting when another is up.
    await this.gateway.readyFor(guildId);
    const payload = interactionJson(ctx, type, data, componentMessage ? messageJson(componentMessage) : undefined);
    const record: InteractionRecord = {
      id: ctx.id,
      token: ctx.token,
      type,
      kind,
      user: ctx.user,
      channelId: ctx.channel.id,
      guildId,
      shard: [0, 1],
      ephemeral: false,
      followUpIds: [],
      settled: false,
      failed: false,
      ack: deferred(),
      settle: deferred(),
      editWaiters: [],
      followUpWaiters: [],
    };
    if (componentMessage) record.componentMessageId = componentMessage.id;
    this.interactions.set(record.id, record);
    this.interactionsByToken.set(record.token, record);
    record.shard = this.gateway.dispatch('INTERACTION_CREATE', payload, guildId, ctx.session);
    return this.handleOf(record);
  }

  private handleOf(record: InteractionRecord): InteractionHandle {
    return {
      id: record.id,
      token: record.token,
      acknowledged: record.ack.promise,
      settled: () =>
        record.settle.promise.then(() => {
          const outcome = this.outcomeOf(record);
          if (!outcome) throw new Error('FakeDiscord: settled without a callback (bug in the fake)');
          return outcome;
        }),
      nextEdit: () => new Promise((resolve) => record.editWaiters.push(resolve)),
      nextFollowUp: () => new Promise((resolve) => record.followUpWaiters.push(resolve)),
      outcome: () => this.outcomeOf(record),
    };
  }

  private outcomeOf(record: InteractionRecord): InteractionOutcome | undefined {
    const callbackType = record.callbackType;
    if (callbackType === undefined) return undefined;
    const outcome: InteractionOutcome = {
      callbackType,
      ephemeral: record.ephemeral,
      followUps: record.followUpIds
        .map((id) => this.messages.get(id))
        .filter((m): m is StoredMessage => m !== undefined && !m.deleted)
        .map(snapshot),
    };
    const target = this.responseTargetId(record);
    const message = target ? this.messages.get(target) : undefined;
    if (message && !message.deleted) outcome.message = snapshot(message);
    if (record.modal) {
      const modal = structuredClone(record.modal);
      const origin = this.modalOriginOf(record);
      this.modalOrigins.set(modal, origin);
      outcome.modal = modal;
    }
    if (record.choices) outcome.choices = structuredClone(record.choices);
    return outcome;
  }

  private modalOriginOf(record: InteractionRecord): ModalOrigin {
    const origin: ModalOrigin = { guildId: record.guildId, channelId: record.channelId };
    if (record.kind === 'component' && record.componentMessageId) origin.componentMessageId = record.componentMessageId;
    return origin;
  }

  /** What `@original` means for this interaction right now. */
  private responseTargetId(record: InteractionRecord): string | undefined {
    switch (record.callbackType) {
      case InteractionResponseType.ChannelMessageWithSource:
      case InteractionResponseType.DeferredChannelMessageWithSource:
        return record.originalMessageId;
      case InteractionResponseType.DeferredMessageUpdate:
      case InteractionResponseType.UpdateMessage:
        return record.componentMessageId;
      default:
        return undefined;
    }
  }

  private settle(record: InteractionRecord): void {
    if (record.settled || record.failed) return;
    record.settled = true;
    record.settle.resolve();
  }

  private failSettle(record: InteractionRecord, req: RouteRequest, reply: Reply): void {
    if (record.settled || record.failed) return;
    record.failed = true;
    record.settle.reject(
      new Error(`FakeDiscord: Discord rejected the bot's ${req.method} ${req.path} with ${reply.status} ${JSON.stringify(reply.body)}`),
    );
  }

  // ---- REST plumbing ------------------------------------------------------------------------------------

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let reply: Reply;
    let record: RecordedRequest | undefined;
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = (req.method ?? 'GET').toUpperCase();
      const parsed = await readBody(req);
      const segments = url.pathname.split('/').filter(Boolean).map(safeDecode);
      const apiPrefix = segments[0] === 'api' ? (/^v\d+$/.test(segments[1] ?? '') ? 2 : 1) : -1;
      const routeSegments = apiPrefix < 0 ? segments : segments.slice(apiPrefix);
      const path = `/${routeSegments.join('/')}`;
      record = {
        method,
        path,
        query: url.search.replace(/^\?/, ''),
        body: parsed.body,
        headers: headersOf(req),
        files: parsed.files.map((f) => ({ field: f.field, filename: f.filename, size: f.size, contentType: f.contentType })),
      };
      this.requests.push(record);
      const held = method === 'POST' ? this.heldPosts.find((hold) => path === `/channels/${hold.channelId}/messages`) : undefined;
      if (held) {
        held.reached();
        await held.released;
      }
      const routeRequest: RouteRequest = { params: {}, headers: record.headers, query: url.searchParams, body: parsed.body, files: parsed.files, method, path };
      reply = apiPrefix < 0 ? notFound() : (this.injected(method, path) ?? this.route(routeSegments, routeRequest, record.headers));
    } catch (error) {
      // Never 5xx: discord.js retries those. A bug in the fake shows up as a 400 plus a log line.
      console.error('FakeDiscord: failed to handle request', req.method, req.url, error);
      reply = apiError(400, 50109, `The request body contains invalid JSON, or the fake failed: ${String(error)}`);
    }
    if (record) {
      record.status = reply.status;
      if (reply.body !== undefined) record.response = reply.body;
      this.notifyRequest(record);
    }
    if (reply.body === undefined) {
      res.writeHead(reply.status);
      res.end();
    } else {
      const text = JSON.stringify(reply.body);
      res.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    }
  }

  private injected(method: string, path: string): Reply | undefined {
    const failure = this.failures.find((f) => f.remaining > 0 && f.method === method && testPattern(f.pattern, path));
    if (!failure) return undefined;
    failure.remaining -= 1;
    if (failure.remaining === 0) this.failures.splice(this.failures.indexOf(failure), 1);
    return { status: failure.response.status, body: failure.response.body };
  }

  private route(segments: string[], req: RouteRequest, headers: Record<string, string>): Reply {
    for (const route of this.routes) {
      if (route.method !== req.method) continue;
      const params = matchPath(route.pattern, segments);
      if (!params) continue;
      if (route.auth && !(headers.authorization ?? '').startsWith('Bot ')) return unauthorized();
      return route.handle({ ...req, params });
    }
    return notFound();
  }

  private notifyRequest(record: RecordedRequest): void {
    const waiting = this.requestWaiters;
    this.requestWaiters = [];
    for (const waiter of waiting) {
      if (waiter.matches(record)) waiter.resolve(record);
      else this.requestWaiters.push(waiter);
    }
  }

  private buildRoutes(): Route[] {
    const r = (method: string, pattern: string, handle: (req: RouteRequest) => Reply, auth = true): Route => ({ method, pattern, handle, auth });
    const app = '/applications/:app';
    return [
      r('GET', '/gateway', () => json({ url: this.gatewayUrl }), false),
      r('GET', '/gateway/bot', () =>
        json({
          url: this.gatewayUrl,
          shards: this.recommendedShards,
          session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: this.maxConcurrency },
        }),
      ),
      r('GET', '/users/@me', () => json({ ...userJson(this.botUser, true), verified: true, mfa_enabled: false, email: null })),
      // The servers the bot is in, by id, `limit` at a time (Discord's default and most: 200) after `after`.
      r('GET', '/users/@me/guilds', (q) => {
        const after = q.query.get('after') ?? '0';
        const limit = Math.min(Number(q.query.get('limit') ?? 200) || 200, 200);
        const guilds = [...this.guilds.values()].filter((guild) => BigInt(guild.id) > BigInt(after)).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
        return json(guilds.slice(0, limit).map((guild) => ({ id: guild.id, name: guild.name, icon: null, owner: false, permissions: '0', features: [] })));
      }),
      r('GET', '/users/:user', (q) => {
        const user = this.users.get(q.params.user ?? '');
        return user ? json(userJson(user, user.id === this.botUser.id)) : unknownUser();
      }),
      r('POST', '/users/@me/channels', (q) => this.openDm(q)),
      r('GET', '/applications/@me', () => json(applicationJson({ id: this.applicationId, bot: this.botUser, owner: this.ownerUser }))),

      r('GET', '/channels/:channel', (q) => this.getChannel(q)),
      r('GET', '/channels/:channel/messages', (q) => this.listMessages(q)),
      r('POST', '/channels/:channel/messages', (q) => this.postChannelMessage(q)),
      r('GET', '/channels/:channel/messages/:message', (q) => this.withChannelMessage(q, (m) => json(messageJson(m)))),
      r('PATCH', '/channels/:channel/messages/:message', (q) => {
        // A channel the bot may no longer see or post in refuses its edits, as Discord does (50001).
        const channel = this.channels.get(q.params.channel ?? '');
        // A member who closed their DMs to the bot (or blocked it): its edits there are refused too (50007).
        if (channel?.recipientId && this.refusedDms.has(channel.recipientId)) return cannotDm();
        const deny = channel?.botDeny?.deny ?? 0n;
        if ((deny & (PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages)) !== 0n) return apiError(403, 50001, 'Missing Access');
        return this.withChannelMessage(q, (m) => this.editMessage(m, q));
      }),
      r('DELETE', '/channels/:channel/messages/:message', (q) =>
        this.withChannelMessage(q, (m) => {
          this.deleteMessage(m);
          return noContent();
        }),
      ),
      r('POST', '/channels/:channel/typing', (q) => (this.channels.has(q.params.channel ?? '') ? noContent() : unknownChannel())),

      r('GET', '/guilds/:guild', (q) => this.withGuild(q, (g) => json(guildJson(g)))),
      r('GET', '/guilds/:guild/channels', (q) => this.withGuild(q, (g) => json(this.channelsOf(g).map((c) => channelJson(c))))),
      r('GET', '/guilds/:guild/roles', (q) => this.withGuild(q, (g) => json(g.roles.map(roleJson)))),
      r('GET', '/guilds/:guild/members/:user', (q) => this.withGuild(q, (g) => this.getMember(g, q.params.user ?? ''))),
      r('GET', '/guilds/:guild/audit-logs', (q) => this.withGuild(q, (g) => this.auditLog(g, q))),
      r('PUT', '/guilds/:guild/members/:user/roles/:role', (q) => this.withGuild(q, (g) => this.changeMemberRole(g, q, 'PUT'))),
      r('DELETE', '/guilds/:guild/members/:user/roles/:role', (q) => this.withGuild(q, (g) => this.changeMemberRole(g, q, 'DELETE'))),

      r('POST', '/interactions/:id/:token/callback', (q) => this.interactionCallback(q), false),
      r('POST', '/channels/:channel/webhooks', (q) => this.createWebhook(q)),
      r('GET', '/channels/:channel/webhooks', (q) => this.withWebhookChannel(q, (c) => json(this.webhooksOf(c.id).map((h) => this.webhookPayload(h, true))))),
      r('GET', '/webhooks/:app', (q) => this.withChannelWebhook(q, null, (h) => json(this.webhookPayload(h, true)))),
      r('DELETE', '/webhooks/:app', (q) => this.withChannelWebhook(q, null, (h) => this.deleteWebhook(h, true))),
      r('GET', '/webhooks/:app/:token', (q) => this.withChannelWebhook(q, q.params.token ?? '', (h) => json(this.webhookPayload(h, false))), false),
      r('DELETE', '/webhooks/:app/:token', (q) => this.withChannelWebhook(q, q.params.token ?? '', (h) => this.deleteWebhook(h, false)), false),
      // Interaction follow-ups share these paths with channel webhooks: the id tells which.
      r('POST', '/webhooks/:app/:token', (q) => (this.webhooks.has(q.params.app ?? '') ? this.executeWebhook(q) : this.followUp(q)), false),
      r('GET', '/webhooks/:app/:token/messages/:message', (q) =>
        this.webhooks.has(q.params.app ?? '')
          ? this.withChannelWebhookMessage(q, (m) => json(messageJson(m)))
          : this.withWebhookMessage(q, (_rec, m) => json(messageJson(m))), false),
      r('PATCH', '/webhooks/:app/:token/messages/:message', (q) =>
        this.webhooks.has(q.params.app ?? '')
          ? this.withChannelWebhookMessage(q, (m) => this.editMessage(m, q))
          : this.withWebhookMessage(q, (rec, m, isOriginal) => this.editWebhookMessage(rec, m, isOriginal, q)), false),
      r('DELETE', '/webhooks/:app/:token/messages/:message', (q) =>
        this.webhooks.has(q.params.app ?? '')
          ? this.withChannelWebhookMessage(q, (m) => {
              this.deleteMessage(m);
              return noContent();
            })
          : this.withWebhookMessage(q, (rec, m, isOriginal) => {
          this.deleteMessage(m);
          if (isOriginal && (rec.callbackType === 5 || rec.callbackType === 6)) this.settle(rec);
          return noContent();
        }), false),

      r('GET', `${app}/commands`, (q) => this.withApp(q, () => json(this.globalCommands))),
      r('PUT', `${app}/commands`, (q) => this.withApp(q, () => this.putCommands(null, q.body))),
      r('POST', `${app}/commands`, (q) => this.withApp(q, () => this.postCommand(null, q.body))),
      r('GET', `${app}/commands/:command`, (q) => this.withApp(q, () => this.getCommand(null, q.params.command ?? ''))),
      r('DELETE', `${app}/commands/:command`, (q) => this.withApp(q, () => this.deleteCommand(null, q.params.command ?? ''))),
      r('GET', `${app}/guilds/:guild/commands`, (q) => this.withApp(q, () => json(this.guildCommands.get(q.params.guild ?? '') ?? []))),
      r('PUT', `${app}/guilds/:guild/commands`, (q) => this.withApp(q, () => this.putCommands(q.params.guild ?? '', q.body))),
      r('POST', `${app}/guilds/:guild/commands`, (q) => this.withApp(q, () => this.postCommand(q.params.guild ?? '', q.body))),
      r('GET', `${app}/guilds/:guild/commands/:command`, (q) => this.withApp(q, () => this.getCommand(q.params.guild ?? '', q.params.command ?? ''))),
      r('DELETE', `${app}/guilds/:guild/commands/:command`, (q) => this.withApp(q, () => this.deleteCommand(q.params.guild ?? '', q.params.command ?? ''))),
    ];
  }

  // ---- interaction callback and webhooks -----------------------------------------------------------------

  private interactionCallback(req: RouteRequest): Reply {
    const record = this.interactions.get(req.params.id ?? '');
    if (!record || record.token !== req.params.token) return unknownInteraction();
    if (record.callbackType !== undefined) return alreadyAcknowledged();
    const body = isObject(req.body) ? req.body : {};
    const type = numberOr(body.type) ?? -1;
    const data = isObject(body.data) ? body.data : {};
    if (!callbackAllowed(record, type)) {
      return this.failed(record, req, invalidFormBody({
        type: { _errors: [{ code: 'INTERACTION_RESPONSE_TYPE_INVALID', message: `Interaction response type ${type} is not valid for this interaction` }] },
      }));
    }
    const channel = this.channels.get(record.channelId);
    if (!channel) return unknownChannel();
    const flags = numberOr(data.flags) ?? 0;
    let created: StoredMessage | undefined;

    switch (type) {
      case InteractionResponseType.ChannelMessageWithSource: {
        const attachments = this.resolveAttachments(channel.id, [], data.attachments, req.files);
        const rejected = this.rejectMessage(data, { mode: 'create', flags, attachmentCount: attachments.length, attachmentNames: attachments.map((attachment) => attachment.filename) }, ['data']);
        if (rejected) return this.failed(record, req, rejected);
        created = this.createMessage(channel, data, attachments, { interaction: record, followUp: false });
        record.originalMessageId = created.id;
        break;
      }
      case InteractionResponseType.DeferredChannelMessageWithSource: {
        if ((flags & IS_COMPONENTS_V2) !== 0) {
          // Discord: the display-components flag goes on the message that fills the deferred reply, not on the acknowledgement.
          return this.failed(record, req, invalidFormBody({
            data: { flags: { _errors: [{ code: 'INTERACTION_DEFERRED_COMPONENTS_V2', message: 'IS_COMPONENTS_V2 cannot be set on a deferred response; set it when editing the reply' }] } },
          }));
        }
        created = this.createMessage(channel, { content: '', flags: (flags & EPHEMERAL) | LOADING }, [], { interaction: record, followUp: false });
        record.originalMessageId = created.id;
        break;
      }
      case InteractionResponseType.DeferredMessageUpdate:
        break;
      case InteractionResponseType.UpdateMessage: {
        const target = this.messages.get(record.componentMessageId ?? '');
        if (!target || target.deleted) return unknownMessage();
        const attachments = this.resolveAttachments(channel.id, target.attachments, data.attachments, req.files);
        const nextFlags = editedFlags(target.flags, data.flags);
        const rejected = this.rejectMessage(data, { mode: 'edit', flags: nextFlags, attachmentCount: attachments.length, attachmentNames: attachments.map((attachment) => attachment.filename), current: target }, ['data']);
        if (rejected) return this.failed(record, req, rejected);
        this.applyEdit(target, data, attachments);
        break;
      }
      case InteractionResponseType.ApplicationCommandAutocompleteResult: {
        const errors = checkChoices(data);
        if (errors) return this.failed(record, req, invalidFormBody(errors));
        record.choices = (Array.isArray(data.choices) ? data.choices : []).map((raw) => {
          const choice = isObject(raw) ? raw : {};
          return { name: String(choice.name), value: typeof choice.value === 'number' ? choice.value : String(choice.value) };
        });
        break;
      }
      case InteractionResponseType.Modal: {
        const errors = checkModal(data);
        if (errors) return this.failed(record, req, invalidFormBody(errors));
        record.modal = {
          custom_id: String(data.custom_id),
          title: String(data.title),
          components: structuredClone(Array.isArray(data.components) ? data.components : []),
        };
        this.lastModalOrigin.set(record.modal.custom_id, this.modalOriginOf(record));
        break;
      }
      default:
        return this.failed(record, req, invalidFormBody({ type: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: `Value must be one of {4, 5, 6, 7, 8, 9}.` }] } }));
    }

    record.callbackType = type;
    if (type === InteractionResponseType.ChannelMessageWithSource || type === InteractionResponseType.DeferredChannelMessageWithSource) {
      record.ephemeral = (flags & EPHEMERAL) !== 0;
    }
    record.ack.resolve({ type });
    if (type !== InteractionResponseType.DeferredChannelMessageWithSource && type !== InteractionResponseType.DeferredMessageUpdate) {
      this.settle(record);
    }

    if (req.query.get('with_response') !== 'true') return noContent();
    const messageId = created?.id ?? (type === 6 || type === 7 ? record.componentMessageId : undefined);
    const message = messageId ? this.messages.get(messageId) : undefined;
    return json({
      interaction: {
        id: record.id,
        type: record.type,
        activity_instance_id: null,
        response_message_id: message?.id ?? null,
        response_message_loading: type === InteractionResponseType.DeferredChannelMessageWithSource,
        response_message_ephemeral: message ? (message.flags & EPHEMERAL) !== 0 : false,
      },
      resource: message ? { type, message: messageJson(message) } : { type },
    });
  }

  private webhookRecord(req: RouteRequest): InteractionRecord | Reply {
    if (req.params.app !== this.applicationId) return unknownWebhook();
    const record = this.interactionsByToken.get(req.params.token ?? '');
    // Follow-ups and edits need an acknowledged interaction, as on Discord.
    if (!record || record.callbackType === undefined) return unknownWebhook();
    return record;
  }

  private withWebhookMessage(
    req: RouteRequest,
    then: (record: InteractionRecord, message: StoredMessage, isOriginal: boolean) => Reply,
  ): Reply {
    const record = this.webhookRecord(req);
    if (!isInteractionRecord(record)) return record;
    const original = this.responseTargetId(record);
    const wanted = req.params.message === '@original' ? original : req.params.message;
    const known = wanted !== undefined && (wanted === original || record.followUpIds.includes(wanted));
    const message = known && wanted !== undefined ? this.messages.get(wanted) : undefined;
    if (!message || message.deleted) return unknownMessage();
    return then(record, message, wanted === original);
  }

  private editWebhookMessage(record: InteractionRecord, message: StoredMessage, isOriginal: boolean, req: RouteRequest): Reply {
    const reply = this.editMessage(message, req);
    if (reply.status >= 400) {
      if (isOriginal) this.failSettle(record, req, reply);
      return reply;
    }
    if (isOriginal) {
      const waiting = record.editWaiters;
      record.editWaiters = [];
      for (const resolve of waiting) resolve(snapshot(message));
      if (record.callbackType === 5 || record.callbackType === 6) this.settle(record);
    }
    return reply;
  }

  private followUp(req: RouteRequest): Reply {
    const record = this.webhookRecord(req);
    if (!isInteractionRecord(record)) return record;
    const channel = this.channels.get(record.channelId);
    if (!channel) return unknownChannel();
    const body = isObject(req.body) ? req.body : {};
    const wait = req.query.get('wait') === 'true';
    const original = record.originalMessageId ? this.messages.get(record.originalMessageId) : undefined;
    let message: StoredMessage;
    if (record.callbackType === 5 && original && !original.deleted && (original.flags & LOADING) !== 0) {
      // As on Discord, the first follow-up after a deferred reply fills the "thinking..." message, keeping
      // the ephemerality chosen when deferring.
      const attachments = this.resolveAttachments(channel.id, [], body.attachments, req.files);
      const flags = editedFlags(original.flags, body.flags) & ~LOADING;
      const rejected = this.rejectMessage(body, { mode: 'create', flags, attachmentCount: attachments.length, attachmentNames: attachments.map((attachment) => attachment.filename) }, []);
      if (rejected) return this.failed(record, req, rejected);
      original.content = typeof body.content === 'string' ? body.content : '';
      original.embeds = Array.isArray(body.embeds) ? body.embeds : [];
      original.components = Array.isArray(body.components) ? body.components : [];
      original.attachments = attachments;
      original.flags = flags;
      message = original;
    } else {
      const attachments = this.resolveAttachments(channel.id, [], body.attachments, req.files);
      const flags = numberOr(body.flags) ?? 0;
      const rejected = this.rejectMessage(body, { mode: 'create', flags, attachmentCount: attachments.length, attachmentNames: attachments.map((attachment) => attachment.filename) }, []);
      if (rejected) return this.failed(record, req, rejected);
      message = this.createMessage(channel, body, attachments, { interaction: record, followUp: true });
    }
    record.followUpIds.push(message.id);
    const waiting = record.followUpWaiters;
    record.followUpWaiters = [];
    for (const resolve of waiting) resolve(snapshot(message));
    if (record.callbackType === 5 || record.callbackType === 6) this.settle(record);
    return wait ? json(messageJson(message)) : noContent();
  }

  private failed(record: InteractionRecord, req: RouteRequest, reply: Reply): Reply {
    this.failSettle(record, req, reply);
    return reply;
  }

  // ---- messages -----------------------------------------------------------------------------------------

  private rejectMessage(body: Record<string, unknown>, check: Parameters<typeof checkMessage>[1], prefix: string[]): Reply | undefined {
    const verdict = checkMessage(body, check);
    if (verdict.ok) return undefined;
    if (verdict.empty) return emptyMessage();
    return invalidFormBody(prefix.reduceRight<FormErrors>((inner, key) => ({ [key]: inner }), verdict.errors));
  }

  // ---- channel webhooks ----------------------------------------------------------------------------------

  /**
   * `POST /channels/:channel/webhooks`, as Discord: a guild text channel (10003 otherwise), the bot
   * needs Manage Webhooks (or Administrator) there (403 / 50013), a valid name (50035), at most 15 per
   * channel (30007). The answer carries the token: the only time a bot sees it without asking again.
   */
  private createWebhook(req: RouteRequest): Reply {
    const channel = this.channels.get(req.params.channel ?? '');
    if (!channel || channel.guildId === null) return unknownChannel();
    if (!this.botMayManageWebhooks(channel)) return missingPermissions();
    const body = isObject(req.body) ? req.body : {};
    const nameError = webhookNameError(body.name);
    if (nameError) return invalidFormBody({ name: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: nameError }] } });
    if (this.webhooksOf(channel.id).length >= MAX_WEBHOOKS_PER_CHANNEL) return apiError(400, 30007, `Maximum number of webhooks reached (${MAX_WEBHOOKS_PER_CHANNEL})`);
    const hook: WebhookState = {
      id: this.ids.next(),
      token: newWebhookToken(),
      guildId: channel.guildId,
      channelId: channel.id,
      name: body.name as string,
      applicationId: this.applicationId,
      creator: this.botUser,
    };
    this.webhooks.set(hook.id, hook);
    return json(this.webhookPayload(hook, true));
  }

  /** `DELETE /webhooks/:id` (the bot's token and Manage Webhooks) or `/webhooks/:id/:token` (the token alone). */
  private deleteWebhook(hook: WebhookState, withBotToken: boolean): Reply {
    const channel = this.channels.get(hook.channelId);
    if (withBotToken && channel && !this.botMayManageWebhooks(channel)) return missingPermissions();
    this.webhooks.delete(hook.id);
    return noContent();
  }

  /**
   * `POST /webhooks/:id/:token`: posts as the webhook (its name, or `username`), validated like any
   * message; `?wait=true` answers the message (with `webhook_id`), otherwise 204. Guild sessions hear
   * it as MESSAGE_CREATE according to their intents.
   */
  private executeWebhook(req: RouteRequest): Reply {
    return this.withChannelWebhook(req, req.params.token ?? '', (hook) => {
      const channel = this.channels.get(hook.channelId);
      if (!channel) return unknownChannel();
      const body = isObject(req.body) ? req.body : {};
      const attachments = this.resolveAttachments(channel.id, [], body.attachments, req.files);
      const flags = (numberOr(body.flags) ?? 0) & ~(EPHEMERAL | LOADING);
      const rejected = this.rejectMessage(body, { mode: 'create', flags, attachmentCount: attachments.length, attachmentNames: attachments.map((attachment) => attachment.filename) }, []);
      if (rejected) return rejected;
      const message = this.createMessage(channel, { ...body, flags }, attachments, { followUp: false, author: webhookAuthor(hook, body.username), webhook: hook });
      return req.query.get('wait') === 'true' ? json(messageJson(message)) : noContent();
    });
  }

  /** A channel webhook by id (and token, unless `null`: a bot-token route); 10015 when unknown, deleted or the token is wrong. */
  private withChannelWebhook(req: RouteRequest, token: string | null, then: (hook: WebhookState) => Reply): Reply {
    const hook = this.webhooks.get(req.params.app ?? '');
    if (!hook || (token !== null && token !== hook.token)) return unknownWebhook();
    return then(hook);
  }

  /** A message this webhook posted, read or changed with its token; 10008 for any other message. */
  private withChannelWebhookMessage(req: RouteRequest, then: (message: StoredMessage) => Reply): Reply {
    return this.withChannelWebhook(req, req.params.token ?? '', (hook) => {
      const message = this.messages.get(req.params.message ?? '');
      if (!message || message.deleted || message.webhookId !== hook.id) return unknownMessage();
      return then(message);
    });
  }

  private withWebhookChannel(req: RouteRequest, then: (channel: ChannelState) => Reply): Reply {
    const channel = this.channels.get(req.params.channel ?? '');
    if (!channel || channel.guildId === null) return unknownChannel();
    return this.botMayManageWebhooks(channel) ? then(channel) : missingPermissions();
  }

  private webhooksOf(channelId: string): WebhookState[] {
    return [...this.webhooks.values()].filter((hook) => hook.channelId === channelId);
  }

  private webhookPayload(hook: WebhookState, withToken: boolean): Json {
    return webhookJson(hook, userJson(hook.creator, hook.creator.id === this.botUser.id), withToken);
  }

  /** Manage Webhooks (or Administrator) from the bot's roles, not denied in the channel. */
  private botMayManageWebhooks(channel: ChannelState): boolean {
    const guild = channel.guildId === null ? undefined : this.guilds.get(channel.guildId);
    if (!guild) return false;
    const permissions = this.botGuildPermissions(guild);
    if ((permissions & PermissionFlagsBits.Administrator) !== 0n) return true;
    const denied = channel.botDeny?.deny ?? 0n;
    return (permissions & PermissionFlagsBits.ManageWebhooks) !== 0n && (denied & (PermissionFlagsBits.ManageWebhooks | PermissionFlagsBits.ViewChannel)) === 0n;
  }

  private botGuildPermissions(guild: GuildState): bigint {
    const mine = guild.roles.filter((candidate) => guild.members.get(this.botUser.id)?.roles.includes(candidate.id));
    const everyone = guild.roles.find((candidate) => candidate.id === guild.id)!;
    return [everyone, ...mine].reduce((all, candidate) => all | candidate.permissions, 0n);
  }

  private createMessage(
    channel: ChannelState,
    body: Record<string, unknown>,
    attachments: StoredAttachment[],
    source: { interaction?: InteractionRecord; followUp: boolean; author?: FakeUser; webhook?: WebhookState },
  ): StoredMessage {
    const interaction = source.interaction;
    const message: StoredMessage = {
      id: this.ids.next(),
      channelId: channel.id,
      guildId: channel.guildId,
      author: source.author ?? this.botUser,
      authorIsBot: source.author === undefined || source.webhook !== undefined,
      type: interaction ? messageTypeForInteraction(interaction.type, source.followUp) : 0,
      content: typeof body.content === 'string' ? body.content : '',
      embeds: Array.isArray(body.embeds) ? body.embeds : [],
      components: Array.isArray(body.components) ? body.components : [],
      flags: numberOr(body.flags) ?? 0,
      edits: 0,
      attachments,
      tts: body.tts === true,
      timestamp: this.nowIso(),
      editedTimestamp: null,
      webhookId: interaction ? this.applicationId : (source.webhook?.id ?? null),
      applicationId: interaction ? this.applicationId : null,
      deleted: false,
    };
    if (body.message_reference !== undefined) message.messageReference = body.message_reference;
    if (interaction) {
      message.interaction = { id: interaction.id, type: interaction.type, user: interaction.user };
      if (source.followUp && interaction.originalMessageId) message.interaction.originalResponseId = interaction.originalMessageId;
      if (interaction.componentMessageId) message.interaction.interactedMessageId = interaction.componentMessageId;
    }
    this.messages.set(message.id, message);
    const list = this.channelMessages.get(channel.id) ?? [];
    list.push(message.id);
    this.channelMessages.set(channel.id, list);
    this.notifyMessage(message);
    // A guild the bot is not in sends it no events.
    if (channel.guildId !== null && this.guilds.has(channel.guildId)) {
      const payload = messageJson(message);
      this.gateway.broadcastByIntents('MESSAGE_CREATE', channel.guildId, (intents) => messageCreateFor(intents, payload));
    }
    return message;
  }

  /** Validates and applies a PATCH body to a message. */
  private editMessage(message: StoredMessage, req: RouteRequest): Reply {
    const body = isObject(req.body) ? req.body : {};
    const attachments = this.resolveAttachments(message.channelId, message.attachments, body.attachments, req.files);
    const flags = editedFlags(message.flags, body.flags);
    const rejected = this.rejectMessage(body, { mode: 'edit', flags, attachmentCount: attachments.length, attachmentNames: attachments.map((attachment) => attachment.filename), current: message }, []);
    if (rejected) return rejected;
    this.applyEdit(message, body, attachments);
    return json(messageJson(message));
  }

  /** Only the fields present change; `components: []` clears them. Ephemerality never changes. */
  private applyEdit(message: StoredMessage, body: Record<string, unknown>, attachments: StoredAttachment[]): void {
    if ('content' in body) message.content = typeof body.content === 'string' ? body.content : '';
    if ('embeds' in body) message.embeds = Array.isArray(body.embeds) ? body.embeds : [];
    if ('components' in body) message.components = Array.isArray(body.components) ? body.components : [];
    message.attachments = attachments;
    message.flags = editedFlags(message.flags, body.flags) & ~LOADING;
    message.edits += 1;
    message.editedTimestamp = this.nowIso();
  }

  private deleteMessage(message: StoredMessage): void {
    message.deleted = true;
  }

  /** The bytes of an attachment the bot uploaded (by the attachment's id), as a member would download them. */
  attachmentData(id: string): Buffer | undefined {
    return this.attachmentBytes.get(id);
  }

  private readonly attachmentBytes = new Map<string, Buffer>();

  private resolveAttachments(channelId: string, existing: StoredAttachment[], declared: unknown, files: UploadedFile[]): StoredAttachment[] {
    const fresh = (file: UploadedFile, meta: Record<string, unknown> = {}): StoredAttachment => {
      const id = this.ids.next();
      const filename = typeof meta.filename === 'string' ? meta.filename : file.filename;
      const url = `${this.apiUrl.replace(/\/api$/, '')}/attachments/${channelId}/${id}/${encodeURIComponent(filename)}`;
      const attachment: StoredAttachment = { id, filename, size: file.size, content_type: file.contentType, url, proxy_url: url };
      this.attachmentBytes.set(id, file.data);
      if (typeof meta.description === 'string') attachment.description = meta.description;
      return attachment;
    };
    if (!Array.isArray(declared)) return [...existing, ...files.map((f) => fresh(f))];
    const byIndex = new Map(files.map((f) => [/^files\[(\d+)\]$/.exec(f.field)?.[1] ?? f.field, f]));
    const used = new Set<UploadedFile>();
    const result: StoredAttachment[] = [];
    for (const raw of declared) {
      const meta = isObject(raw) ? raw : {};
      const id = String(meta.id);
      const file = byIndex.get(id);
      if (file && !used.has(file)) {
        used.add(file);
        result.push(fresh(file, meta));
        continue;
      }
      const kept = existing.find((a) => a.id === id);
      if (kept) result.push(kept);
    }
    for (const file of files) if (!used.has(file)) result.push(fresh(file));
    return result;
  }

  private notifyMessage(message: StoredMessage): void {
    const channel = this.channels.get(message.channelId);
    const view = snapshot(message);
    const waiting = this.messageWaiters;
    this.messageWaiters = [];
    for (const waiter of waiting) {
      if (waiter.matches(view, channel)) waiter.resolve(snapshot(message));
      else this.messageWaiters.push(waiter);
    }
  }

  private liveMessage(message: FakeMessage): StoredMessage {
    const stored = this.messages.get(message.id);
    if (!stored || stored.deleted) throw new Error(`FakeDiscord: message ${message.id} does not exist (any more)`);
    return stored;
  }

  // ---- channels, DMs, guilds ------------------------------------------------------------------------------

  private openDm(req: RouteRequest): Reply {
    const body = isObject(req.body) ? req.body : {};
    const recipientId = typeof body.recipient_id === 'string' ? body.recipient_id : '';
    const user = this.users.get(recipientId);
    if (!user) return unknownUser();
    const channel = this.ensureDmChannel(user.id);
    return json(channelJson(channel, user));
  }

  private ensureDmChannel(userId: string): ChannelState {
    const existing = this.dmChannels.get(userId);
    if (existing) {
      const channel = this.channels.get(existing);
      if (channel) return channel;
    }
    const channel: ChannelState = { id: this.ids.next(), type: ChannelType.DM, name: '', guildId: null, position: 0, recipientId: userId };
    this.channels.set(channel.id, channel);
    this.dmChannels.set(userId, channel.id);
    return channel;
  }

  private getChannel(req: RouteRequest): Reply {
    const channel = this.channels.get(req.params.channel ?? '');
    if (!channel) return unknownChannel();
    return json(channelJson(channel, channel.recipientId ? this.users.get(channel.recipientId) : undefined));
  }

  private listMessages(req: RouteRequest): Reply {
    const channelId = req.params.channel ?? '';
    if (!this.channels.has(channelId)) return unknownChannel();
    const limit = Math.min(100, Math.max(1, Number(req.query.get('limit') ?? 50) || 50));
    const list = (this.channelMessages.get(channelId) ?? [])
      .map((id) => this.messages.get(id))
      .filter((m): m is StoredMessage => m !== undefined && !m.deleted && (m.flags & EPHEMERAL) === 0)
      .reverse()
      .slice(0, limit);
    return json(list.map(messageJson));
  }

  private postChannelMessage(req: RouteRequest): Reply {
    const channel = this.channels.get(req.params.channel ?? '');
    if (!channel) return unknownChannel();
    if (channel.recipientId && this.refusedDms.has(channel.recipientId)) return cannotDm();
    if (channel.botDeny && (channel.botDeny.deny & (PermissionFlagsBits.SendMessages | PermissionFlagsBits.ViewChannel)) !== 0n) {
      return apiError(403, 50013, 'Missing Permissions');
    }
    // Files in a guild channel need Attach Files (interaction responses and DMs do not).
    if (req.files.length > 0 && channel.botDeny && (channel.botDeny.deny & PermissionFlagsBits.AttachFiles) !== 0n) {
      return apiError(403, 50013, 'Missing Permissions');
    }
    const body = isObject(req.body) ? req.body : {};
    const attachments = this.resolveAttachments(channel.id, [], body.attachments, req.files);
    // Ephemeral and loading are interaction-only flags.
    const flags = (numberOr(body.flags) ?? 0) & ~(EPHEMERAL | LOADING);
    const rejected = this.rejectMessage(body, { mode: 'create', flags, attachmentCount: attachments.length, attachmentNames: attachments.map((attachment) => attachment.filename) }, []);
    if (rejected) return rejected;
    const message = this.createMessage(channel, { ...body, flags }, attachments, { followUp: false });
    return json(messageJson(message));
  }

  private withChannelMessage(req: RouteRequest, then: (message: StoredMessage) => Reply): Reply {
    const channel = this.channels.get(req.params.channel ?? '');
    if (!channel) return unknownChannel();
    const message = this.messages.get(req.params.message ?? '');
    if (!message || message.deleted || message.channelId !== channel.id) return unknownMessage();
    return then(message);
  }

  private withGuild(req: RouteRequest, then: (guild: GuildState) => Reply): Reply {
    const guild = this.guilds.get(req.params.guild ?? '');
    return guild ? then(guild) : unknownGuild();
  }

  private getMember(guild: GuildState, userId: string): Reply {
    const member = guild.members.get(userId);
    const user = this.users.get(userId);
    if (!member || !user) return unknownMember();
    return json(memberJson(user, member, { bot: userId === this.botUser.id }));
  }

  /**
   * Gives or takes one role, as Discord does: the member must be in the guild (10007), the role must
   * exist (10011), and the bot needs Manage Roles (or Administrator) from its roles and a highest role
   * above this one; @everyone and managed roles are never given or taken (403 / 50013 for all three).
   * Giving a role the member has, or taking one they lack, is a 204 that changes nothing.
   */
  private changeMemberRole(guild: GuildState, req: RouteRequest, method: 'PUT' | 'DELETE'): Reply {
    const userId = req.params.user ?? '';
    const roleId = req.params.role ?? '';
    const header = req.headers['x-audit-log-reason'];
    const member = guild.members.get(userId);
    const role = guild.roles.find((candidate) => candidate.id === roleId);
    let reply: Reply;
    if (!member) reply = unknownMember();
    else if (!role) reply = unknownRole();
    else if (!this.botManages(guild, role)) reply = missingPermissions();
    else {
      this.#applyRoleChange(guild, this.botUser.id, userId, role, method === 'PUT' ? '$add' : '$remove', header === undefined ? undefined : safeDecode(header));
      reply = noContent();
    }
    this.roleChanges.push({ method, guildId: guild.id, userId, roleId, reason: header === undefined ? undefined : safeDecode(header), status: reply.status });
    return reply;
  }

  /**
   * Gives (`$add`) or takes (`$remove`) a role and, as Discord does, writes a MEMBER_ROLE_UPDATE
   * entry (action 25) naming who did it, only when something changed.
   */
  #applyRoleChange(guild: GuildState, actorId: string, userId: string, role: RoleState, key: '$add' | '$remove', reason: string | undefined): void {
    const member = guild.members.get(userId);
    if (!member) throw new Error(`FakeDiscord: ${userId} is not a member of ${guild.id}`);
    const holds = member.roles.includes(role.id);
    if (key === '$add' ? holds : !holds) return;
    member.roles = key === '$add' ? [...member.roles, role.id] : member.roles.filter((held) => held !== role.id);
    const entries = this.#roleAudit.get(guild.id) ?? [];
    entries.push({ id: this.ids.next(), action_type: 25, user_id: actorId, target_id: userId, changes: [{ key, new_value: [{ id: role.id, name: role.name }] }], ...(reason ? { reason } : {}) });
    this.#roleAudit.set(guild.id, entries);
  }

  /**
   * `GET /guilds/{guild}/audit-logs`, as Discord answers it for role updates: the bot needs View Audit
   * Log (or Administrator), else 403 / 50013; `action_type`, `user_id` (who acted), `before` (entry id)
   * and `limit` (1–100, default 50) filter; newest first. Only action 25 is kept by the fake.
   */
  private auditLog(guild: GuildState, req: RouteRequest): Reply {
    if ((this.botGuildPermissions(guild) & (PermissionFlagsBits.ViewAuditLog | PermissionFlagsBits.Administrator)) === 0n) return missingPermissions();
    const action = req.query.get('action_type');
    const actor = req.query.get('user_id');
    const before = req.query.get('before');
    const limit = Math.min(100, Math.max(1, Number(req.query.get('limit') ?? 50)));
    const entries = (action === null || action === '25' ? [...(this.#roleAudit.get(guild.id) ?? [])] : [])
      .reverse()
      .filter((entry) => (actor === null || entry.user_id === actor) && (before === null || BigInt(entry.id) < BigInt(before)))
      .slice(0, limit);
    const users = [...new Set(entries.flatMap((entry) => [entry.user_id, entry.target_id]))].flatMap((id) => {
      const user = this.users.get(id);
      return user ? [userJson(user, id === this.botUser.id)] : [];
    });
    return json({ audit_log_entries: entries, users, integrations: [], webhooks: [], guild_scheduled_events: [], threads: [], application_commands: [], auto_moderation_rules: [] });
  }

  /** A member of staff gives `roleId` to `userId` by hand (Server Settings → Members, or a right click): Discord's audit log names them. */
  giveRoleByHand(guildId: string, actorId: string, userId: string, roleId: string): void {
    const guild = this.requireGuild(guildId);
    const role = guild.roles.find((candidate) => candidate.id === roleId);
    if (!role) throw new Error(`FakeDiscord.giveRoleByHand: no role ${roleId}`);
    this.#applyRoleChange(guild, actorId, userId, role, '$add', undefined);
  }

  /** A member of staff takes `roleId` from `userId` by hand. */
  takeRoleByHand(guildId: string, actorId: string, userId: string, roleId: string): void {
    const guild = this.requireGuild(guildId);
    const role = guild.roles.find((candidate) => candidate.id === roleId);
    if (!role) throw new Error(`FakeDiscord.takeRoleByHand: no role ${roleId}`);
    this.#applyRoleChange(guild, actorId, userId, role, '$remove', undefined);
  }

  /** Whether the bot may give and take `role`: Manage Roles (or Administrator) and a highest role above it; never @everyone nor a managed role. */
  private botManages(guild: GuildState, role: RoleState): boolean {
    if (role.id === guild.id || role.managed) return false;
    const mine = guild.roles.filter((candidate) => guild.members.get(this.botUser.id)?.roles.includes(candidate.id));
    const permissions = this.botGuildPermissions(guild);
    if ((permissions & (PermissionFlagsBits.ManageRoles | PermissionFlagsBits.Administrator)) === 0n) return false;
    return mine.some((candidate) => compareRoles(candidate, role) > 0);
  }

  private channelsOf(guild: GuildState): ChannelState[] {
    return guild.channelIds.map((id) => this.channels.get(id)).filter((c): c is ChannelState => c !== undefined);
  }

  private createChannel(guild: GuildState, opts: { name: string; type: number }): ChannelState {
    const channel: ChannelState = { id: this.ids.next(), type: opts.type, name: opts.name, guildId: guild.id, position: guild.channelIds.length };
    this.channels.set(channel.id, channel);
    guild.channelIds.push(channel.id);
    return channel;
  }

  private guildCreatePayload(guild: GuildState): Json {
    return guildCreateJson(guild, { channels: this.channelsOf(guild), users: this.users, botUserId: this.botUser.id });
  }

  private requireGuild(guildId: string): GuildState {
    const guild = this.guilds.get(guildId);
    if (!guild) throw new Error(`FakeDiscord: unknown guild ${guildId}`);
    return guild;
  }

  private rememberUser(user: FakeUser): void {
    if (!this.users.has(user.id)) this.users.set(user.id, user);
  }

  // ---- application commands ------------------------------------------------------------------------------

  private withApp(req: RouteRequest, then: () => Reply): Reply {
    if (req.params.app !== this.applicationId) return apiError(403, 50001, 'Missing Access');
    if (req.params.guild !== undefined && !this.guilds.has(req.params.guild)) return unknownGuild();
    return then();
  }

  private commandList(guildId: string | null): Json[] {
    if (guildId === null) return this.globalCommands;
    const list = this.guildCommands.get(guildId) ?? [];
    this.guildCommands.set(guildId, list);
    return list;
  }

  private putCommands(guildId: string | null, body: unknown): Reply {
    if (!Array.isArray(body)) return invalidFormBody({ _errors: [{ code: 'BASE_TYPE_ARRAY', message: 'Must be an array.' }] });
    const errors = checkCommands(body);
    if (errors) return invalidFormBody(errors);
    const list = this.commandList(guildId);
    const stored = body.map((raw) => this.storeCommand(raw, guildId, list));
    list.splice(0, list.length, ...stored);
    return json(stored);
  }

  private postCommand(guildId: string | null, body: unknown): Reply {
    const errors = checkCommands([body]);
    if (errors) return invalidFormBody(errors[0] ?? errors);
    const list = this.commandList(guildId);
    const stored = this.storeCommand(body, guildId, list);
    const index = list.findIndex((c) => c.id === stored.id);
    if (index >= 0) list[index] = stored;
    else list.push(stored);
    return json(stored, index >= 0 ? 200 : 201);
  }

  private getCommand(guildId: string | null, id: string): Reply {
    const found = this.commandList(guildId).find((c) => c.id === id);
    return found ? json(found) : unknownCommand();
  }

  private deleteCommand(guildId: string | null, id: string): Reply {
    const list = this.commandList(guildId);
    const index = list.findIndex((c) => c.id === id);
    if (index < 0) return unknownCommand();
    list.splice(index, 1);
    return noContent();
  }

  private storeCommand(raw: unknown, guildId: string | null, existing: Json[]): Json {
    const command = isObject(raw) ? raw : {};
    const type = numberOr(command.type) ?? 1;
    const prior = existing.find((c) => c.name === command.name && (numberOr(c.type) ?? 1) === type);
    const stored: Json = {
      description: '',
      options: [],
      default_member_permissions: null,
      nsfw: false,
      integration_types: [0],
      contexts: null,
      ...command,
      type,
      id: typeof prior?.id === 'string' ? prior.id : this.ids.next(),
      application_id: this.applicationId,
      version: this.ids.next(),
    };
    if (guildId !== null) stored.guild_id = guildId;
    return stored;
  }

  private commandDefinition(name: string, guildId: string | null, type = 1): Json | undefined {
    const isOfType = (c: Json) => c.name === name && (numberOr(c.type) ?? 1) === type;
    return (guildId !== null ? this.guildCommands.get(guildId)?.find(isOfType) : undefined) ?? this.globalCommands.find(isOfType);
  }

  private commandId(name: string, definition: Json | undefined): string {
    if (typeof definition?.id === 'string') return definition.id;
    let id = this.unregisteredCommandIds.get(name);
    if (!id) {
      id = this.ids.next();
      this.unregisteredCommandIds.set(name, id);
    }
    return id;
  }

  /** The option definitions at the leaf (after group/subcommand), or undefined when not registered. */
  private leafDefinitions(command: string, definition: Json | undefined, group?: string, sub?: string): Json[] | undefined {
    if (!definition) return undefined;
    let options = jsonArray(definition.options);
    if (group !== undefined) {
      const found = options.find((o) => o.name === group && o.type === ApplicationCommandOptionType.SubcommandGroup);
      if (!found) throw new Error(`FakeDiscord: /${command} has no subcommand group "${group}"`);
      options = jsonArray(found.options);
    }
    if (sub !== undefined) {
      const found = options.find((o) => o.name === sub && o.type === ApplicationCommandOptionType.Subcommand);
      if (!found) throw new Error(`FakeDiscord: /${command}${group ? ` ${group}` : ''} has no subcommand "${sub}"`);
      options = jsonArray(found.options);
    }
    return options;
  }

  private optionDefinition(command: string, defs: Json[] | undefined, name: string): Json | undefined {
    if (!defs) return undefined;
    const def = defs.find((d) => d.name === name);
    if (!def) throw new Error(`FakeDiscord: /${command} has no option "${name}" (registered: ${defs.map((d) => String(d.name)).join(', ') || 'none'})`);
    return def;
  }

  private nowIso(): string {
    return new Date(this.clock()).toISOString();
  }
}

// ---- helpers --------------------------------------------------------------------------------------------

function isInteractionRecord(value: InteractionRecord | Reply): value is InteractionRecord {
  return 'token' in value;
}

function callbackAllowed(record: InteractionRecord, type: number): boolean {
  switch (record.kind) {
    case 'command':
      return type === 4 || type === 5 || type === 9;
    case 'autocomplete':
      return type === 8;
    case 'component':
      return type === 4 || type === 5 || type === 6 || type === 7 || type === 9;
    case 'modal':
      return type === 4 || type === 5 || ((type === 6 || type === 7) && record.componentMessageId !== undefined);
  }
}

/** Flags after an edit: the body may change everything but ephemerality (fixed by the first response). */
function editedFlags(current: number, requested: unknown): number {
  if (typeof requested !== 'number') return current;
  return (requested & ~(EPHEMERAL | LOADING)) | (current & (EPHEMERAL | LOADING));
}

function jsonArray(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function testPattern(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(text);
}

/** Discord's role order: by position, and between equal positions the older role (the lower id) is higher. */
function compareRoles(a: RoleState, b: RoleState): number {
  if (a.position !== b.position) return a.position - b.position;
  const [idA, idB] = [BigInt(a.id), BigInt(b.id)];
  return idA === idB ? 0 : idA < idB ? 1 : -1;
}
