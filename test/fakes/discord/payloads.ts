/**
 * Every JSON object the fake sends to discord.js is built here, with safe defaults: a missing required
 * field throws inside discord.js (sometimes outside any promise), so payloads are always complete.
 */
import {
  ChannelType,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildMFALevel,
  GuildNSFWLevel,
  GuildPremiumTier,
  GuildVerificationLevel,
  InteractionContextType,
  MessageType,
  PermissionFlagsBits,
} from 'discord-api-types/v10';
import type { FakeMessage, FakeUser } from './types.js';

export type Json = Record<string, unknown>;

export const EPHEMERAL = 1 << 6;
export const LOADING = 1 << 7;
export const IS_COMPONENTS_V2 = 1 << 15;

export const DEFAULT_MEMBER_PERMISSIONS =
  PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.UseApplicationCommands;

/** What a bot invited with the usual text permissions gets. */
export const DEFAULT_BOT_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.SendMessagesInThreads |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.UseExternalEmojis |
  PermissionFlagsBits.AddReactions |
  PermissionFlagsBits.UseApplicationCommands;

export const ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024;

// ---- internal state ------------------------------------------------------------------------------------

export interface RoleState {
  id: string;
  name: string;
  permissions: bigint;
  position: number;
  managed: boolean;
  botId?: string;
}

export interface ChannelState {
  id: string;
  type: number;
  name: string;
  guildId: string | null;
  position: number;
  /** DM channels: the other user. */
  recipientId?: string;
  /** Guild channels: permissions denied to the bot here (a member overwrite), e.g. SendMessages. */
  botDeny?: { botUserId: string; deny: bigint };
  /** Guild channels: permissions allowed to a role here only (role overwrites), e.g. Manage Messages for a "helper" role. */
  roleAllows?: { roleId: string; allow: bigint }[];
}

export interface MemberState {
  roles: string[];
  joinedAt: string;
}

export interface GuildState {
  id: string;
  name: string;
  ownerId: string;
  preferredLocale: string;
  joinedAt: string;
  defaultChannelId: string;
  channelIds: string[];
  roles: RoleState[];
  members: Map<string, MemberState>;
}

export interface StoredAttachment {
  id: string;
  filename: string;
  size: number;
  content_type: string;
  url: string;
  proxy_url: string;
  description?: string;
}

export interface MessageInteractionLink {
  id: string;
  type: number;
  user: FakeUser;
  originalResponseId?: string;
  interactedMessageId?: string;
}

export interface StoredMessage {
  id: string;
  channelId: string;
  guildId: string | null;
  author: FakeUser;
  authorIsBot: boolean;
  type: number;
  content: string;
  embeds: unknown[];
  components: unknown[];
  flags: number;
  edits: number;
  attachments: StoredAttachment[];
  tts: boolean;
  timestamp: string;
  editedTimestamp: string | null;
  /** Interaction responses and follow-ups are webhook messages of the application. */
  webhookId: string | null;
  applicationId: string | null;
  interaction?: MessageInteractionLink;
  messageReference?: unknown;
  deleted: boolean;
}

// ---- builders --------------------------------------------------------------------------------------------

export function userJson(user: FakeUser, bot = false): Json {
  return {
    id: user.id,
    username: user.username,
    global_name: user.global_name,
    discriminator: '0',
    avatar: null,
    bot,
    system: false,
    public_flags: 0,
    flags: 0,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
  };
}

export function roleJson(role: RoleState): Json {
  return {
    id: role.id,
    name: role.name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: role.position,
    permissions: role.permissions.toString(),
    managed: role.managed,
    mentionable: false,
    flags: 0,
    ...(role.botId ? { tags: { bot_id: role.botId } } : {}),
  };
}

export function channelJson(channel: ChannelState, recipient?: FakeUser): Json {
  if (channel.guildId === null) {
    return {
      id: channel.id,
      type: channel.type,
      last_message_id: null,
      flags: 0,
      recipients: recipient ? [userJson(recipient)] : [],
    };
  }
  return {
    id: channel.id,
    type: channel.type,
    guild_id: channel.guildId,
    name: channel.name,
    position: channel.position,
    permission_overwrites: [
      ...(channel.botDeny ? [{ id: channel.botDeny.botUserId, type: 1, allow: '0', deny: channel.botDeny.deny.toString() }] : []),
      ...(channel.roleAllows ?? []).map((overwrite) => ({ id: overwrite.roleId, type: 0, allow: overwrite.allow.toString(), deny: '0' })),
    ],
    parent_id: null,
    nsfw: false,
    flags: 0,
    ...(channel.type === ChannelType.GuildText || channel.type === ChannelType.GuildAnnouncement
      ? { topic: null, last_message_id: null, rate_limit_per_user: 0, default_thread_rate_limit_per_user: 0 }
      : {}),
    ...(channel.type === ChannelType.GuildVoice || channel.type === ChannelType.GuildStageVoice
      ? { bitrate: 64000, user_limit: 0, rtc_region: null, last_message_id: null, rate_limit_per_user: 0 }
      : {}),
  };
}

export function memberJson(user: FakeUser, member: MemberState, opts: { bot?: boolean; permissions?: bigint } = {}): Json {
  return {
    user: userJson(user, opts.bot ?? false),
    nick: null,
    avatar: null,
    banner: null,
    roles: member.roles,
    joined_at: member.joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
    ...(opts.permissions !== undefined ? { permissions: opts.permissions.toString() } : {}),
  };
}

/** A member as it appears in `resolved.members`: no `user`, no `deaf`/`mute`, with `permissions`. */
export function partialMemberJson(member: MemberState, permissions: bigint): Json {
  return {
    nick: null,
    avatar: null,
    banner: null,
    roles: member.roles,
    joined_at: member.joinedAt,
    premium_since: null,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
    permissions: permissions.toString(),
  };
}

export function guildJson(guild: GuildState, applicationId: string | null = null): Json {
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    icon_hash: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: guild.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: GuildVerificationLevel.None,
    default_message_notifications: GuildDefaultMessageNotifications.OnlyMentions,
    explicit_content_filter: GuildExplicitContentFilter.Disabled,
    roles: guild.roles.map(roleJson),
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: GuildMFALevel.None,
    application_id: applicationId,
    system_channel_id: guild.defaultChannelId,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    max_presences: null,
    max_members: 500000,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    vanity_url_code: null,
    premium_tier: GuildPremiumTier.None,
    premium_subscription_count: 0,
    premium_progress_bar_enabled: false,
    preferred_locale: guild.preferredLocale,
    nsfw_level: GuildNSFWLevel.Default,
    nsfw: false,
    hub_type: null,
    incidents_data: null,
    approximate_member_count: guild.members.size,
    approximate_presence_count: 0,
  };
}

export interface GuildCreateContext {
  channels: ChannelState[];
  users: Map<string, FakeUser>;
  botUserId: string;
}

/** The GUILD_CREATE dispatch: the guild as REST has it, plus what only the gateway sends. */
export function guildCreateJson(guild: GuildState, ctx: GuildCreateContext): Json {
  const members: Json[] = [];
  for (const [userId, member] of guild.members) {
    const user = ctx.users.get(userId);
    if (user) members.push(memberJson(user, member, { bot: userId === ctx.botUserId }));
  }
  return {
    ...guildJson(guild),
    joined_at: guild.joinedAt,
    large: false,
    unavailable: false,
    member_count: guild.members.size,
    lazy: true,
    voice_states: [],
    members,
    channels: ctx.channels.map((c) => channelJson(c)),
    threads: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    embedded_activities: [],
  };
}

export function messageJson(message: StoredMessage): Json {
  const json: Json = {
    id: message.id,
    type: message.type,
    channel_id: message.channelId,
    author: userJson(message.author, message.authorIsBot),
    content: message.content,
    timestamp: message.timestamp,
    edited_timestamp: message.editedTimestamp,
    tts: message.tts,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    mention_channels: [],
    attachments: message.attachments.map((a) => ({ ...a, ephemeral: (message.flags & EPHEMERAL) !== 0 })),
    embeds: message.embeds,
    components: message.components,
    reactions: [],
    pinned: false,
    flags: message.flags,
    position: 0,
  };
  if (message.guildId !== null) json.guild_id = message.guildId;
  if (message.webhookId !== null) json.webhook_id = message.webhookId;
  if (message.applicationId !== null) json.application_id = message.applicationId;
  if (message.messageReference !== undefined) json.message_reference = message.messageReference;
  if (message.interaction) {
    const link = message.interaction;
    json.interaction_metadata = {
      id: link.id,
      type: link.type,
      user: userJson(link.user),
      authorizing_integration_owners: message.guildId !== null ? { '0': message.guildId } : {},
      ...(link.originalResponseId ? { original_response_message_id: link.originalResponseId } : {}),
      ...(link.interactedMessageId ? { interacted_message_id: link.interactedMessageId } : {}),
    };
  }
  return json;
}

export function messageTypeForInteraction(interactionType: number, followUp: boolean): number {
  // Command responses are CHAT_INPUT_COMMAND messages; follow-ups and component responses are plain ones.
  return interactionType === 2 && !followUp ? MessageType.ChatInputCommand : MessageType.Default;
}

/**
 * What a member reads in a message, top to bottom: its content, its embeds (title, description,
 * fields, footer) and, in a display-components message, every text display (in sections too).
 */
export function readableText(message: Pick<StoredMessage, 'content' | 'embeds' | 'components'>): string {
  const parts: string[] = [message.content];
  for (const embed of message.embeds as { title?: string; description?: string; fields?: { name: string; value: string }[]; footer?: { text: string } }[]) {
    parts.push(embed.title ?? '', embed.description ?? '');
    for (const field of embed.fields ?? []) parts.push(field.name, field.value);
    parts.push(embed.footer?.text ?? '');
  }
  const visit = (components: unknown[]): void => {
    for (const raw of components) {
      if (typeof raw !== 'object' || raw === null) continue;
      const component = raw as { type?: number; content?: unknown; components?: unknown[] };
      if (component.type === 10 && typeof component.content === 'string') parts.push(component.content);
      if (Array.isArray(component.components)) visit(component.components);
    }
  };
  visit(message.components as unknown[]);
  return parts.filter(Boolean).join('\n');
}

export function snapshot(message: StoredMessage): FakeMessage {
  const copy: FakeMessage = {
    id: message.id,
    channel_id: message.channelId,
    guild_id: message.guildId,
    content: message.content,
    embeds: structuredClone(message.embeds),
    components: structuredClone(message.components),
    flags: message.flags,
    edits: message.edits,
    attachments: structuredClone(message.attachments),
    author: { ...message.author },
    text: readableText(message),
  };
  if (message.interaction) copy.interaction_id = message.interaction.id;
  return copy;
}

export interface InteractionContext {
  id: string;
  token: string;
  applicationId: string;
  user: FakeUser;
  guild: GuildState | null;
  channel: ChannelState;
  member: MemberState | null;
  locale: string;
  permissions: bigint;
  appPermissions: bigint;
  /** The gateway session chosen by the test (DispatchOptions.session), if any. */
  session?: string;
}

/** The INTERACTION_CREATE payload: everything discord.js reads without checking, always present. */
export function interactionJson(ctx: InteractionContext, type: number, data: Json, message?: Json): Json {
  const guild = ctx.guild;
  const inGuild = guild !== null;
  const json: Json = {
    id: ctx.id,
    application_id: ctx.applicationId,
    type,
    data,
    token: ctx.token,
    version: 1,
    channel_id: ctx.channel.id,
    channel: inGuild
      ? { ...channelJson(ctx.channel), permissions: ctx.permissions.toString() }
      : channelJson(ctx.channel, ctx.user),
    app_permissions: ctx.appPermissions.toString(),
    locale: ctx.locale,
    entitlements: [],
    authorizing_integration_owners: guild ? { '0': guild.id } : {},
    context: inGuild ? InteractionContextType.Guild : InteractionContextType.BotDM,
    attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
  };
  if (ctx.guild && ctx.member) {
    json.guild_id = ctx.guild.id;
    json.guild = { id: ctx.guild.id, locale: ctx.guild.preferredLocale, features: [] };
    json.guild_locale = ctx.guild.preferredLocale;
    json.member = memberJson(ctx.user, ctx.member, { permissions: ctx.permissions });
  } else {
    json.user = userJson(ctx.user);
  }
  if (message) json.message = message;
  return json;
}

export function readyJson(opts: {
  user: FakeUser;
  guildIds: string[];
  sessionId: string;
  resumeUrl: string;
  applicationId: string;
  /** IDENTIFY's `[shard_id, num_shards]`, echoed. */
  shard: readonly [number, number];
}): Json {
  return {
    v: 10,
    user: { ...userJson(opts.user, true), verified: true, mfa_enabled: false, email: null },
    guilds: opts.guildIds.map((id) => ({ id, unavailable: true })),
    session_id: opts.sessionId,
    session_type: 'normal',
    resume_gateway_url: opts.resumeUrl,
    shard: [...opts.shard],
    application: { id: opts.applicationId, flags: 0 },
    user_settings: {},
    private_channels: [],
    presences: [],
    relationships: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: [],
    _trace: ['["fake-discord",{"micros":0}]'],
  };
}

export function applicationJson(opts: { id: string; bot: FakeUser; owner: FakeUser }): Json {
  return {
    id: opts.id,
    name: opts.bot.username,
    icon: null,
    description: '',
    summary: '',
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags: 0,
    team: null,
    owner: userJson(opts.owner),
    bot: userJson(opts.bot, true),
    approximate_guild_count: 1,
    integration_types_config: { '0': {} },
  };
}
