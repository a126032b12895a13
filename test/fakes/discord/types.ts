/* eslint-disable @typescript-eslint/no-explicit-any -- embeds/components/attachments are raw API JSON exactly
   as the bot sent them; tests index into them freely, so the suite's contract keeps them loose. */

export interface FakeUser {
  id: string;
  username: string;
  global_name: string | null;
}

export interface FakeMessage {
  id: string;
  channel_id: string;
  content: string;
  embeds: any[];
  components: any[];
  /** 64 = ephemeral, 128 = loading (a deferred reply not yet edited), 32768 = components v2. */
  flags: number;
  /**
   * How many times it was edited: PATCHes and type-7 updates. The PATCH that fills a deferred reply counts;
   * a first follow-up that fills it (see `settled`) does not.
   */
  edits: number;
  /** Always set by the fake: `{ id, filename, size, content_type, url, proxy_url, description? }`. */
  attachments?: any[];
  /** Added: null in DMs. */
  guild_id: string | null;
  /** Added: who sent it (the bot user for everything the bot sends). */
  author: FakeUser;
  /** Added: the interaction whose response or follow-up this message is, if any. */
  interaction_id?: string;
  /**
   * Added, a reading aid for tests: everything a member reads in the message, top to bottom
   * (content, embeds, and every text display of a display-components message), one part a line.
   */
  text: string;
}

export interface FakeModal {
  custom_id: string;
  title: string;
  components: any[];
}

export interface InteractionOutcome {
  /** The bot's first callback: 4 reply, 5 defer reply, 6 defer update, 7 update, 8 autocomplete, 9 modal. */
  callbackType: number;
  /** From the first callback's flags (64). */
  ephemeral: boolean;
  /** For 4/5 the original response; for 6/7 the component's message; as it stands now. */
  message?: FakeMessage;
  /** For 9. */
  modal?: FakeModal;
  /** For 8. */
  choices?: { name: string; value: string | number }[];
  /** Follow-ups sent so far (deleted ones excluded). */
  followUps: FakeMessage[];
}

export interface InteractionHandle {
  readonly id: string;
  readonly token: string;
  /** Resolves on the first (accepted) callback. */
  acknowledged: Promise<{ type: number }>;
  /**
   * Resolves when the bot's response is visible:
   * - 4, 7, 8, 9: at the callback;
   * - 5: at the first PATCH/DELETE of `@original` or the first follow-up (which, as on Discord, fills the
   *   deferred message);
   * - 6: at the first PATCH/DELETE of `@original` (the component's message) or the first follow-up.
   * Rejects if the fake's own checks rejected the request that would have settled it (invalid form body,
   * empty message, wrong callback type), so a test fails fast instead of timing out. Failures injected with
   * `failRoute` never reject it.
   */
  settled(): Promise<InteractionOutcome>;
  /** Resolves on the next PATCH of `@original` (the message after the edit). */
  nextEdit(): Promise<FakeMessage>;
  /** Added: resolves on the next follow-up created for this interaction. */
  nextFollowUp(): Promise<FakeMessage>;
  /** Added: the outcome as it stands now, or undefined while unacknowledged. */
  outcome(): InteractionOutcome | undefined;
}

export interface DispatchOptions {
  /** Default: the default guild; null = a DM interaction (uses `user`, not `member`). */
  guildId?: string | null;
  /** Default: the guild's default text channel. */
  channelId?: string;
  /** interaction.locale, default 'en-US'. */
  locale?: string;
  /**
   * The member's server-wide permissions; default VIEW_CHANNEL | SEND_MESSAGES | USE_APPLICATION_COMMANDS
   * (no admin rights). Beyond the default they come from a role the fake gives the member, as in Discord.
   */
  permissions?: bigint;
  /** Permissions allowed to the member in this channel only (a channel permission overwrite, e.g. a ticket channel). */
  channelAllow?: bigint;
  /** Member role ids (must exist in the guild). */
  roles?: string[];
  /** Added: interaction.app_permissions; default: the bot's permissions. */
  appPermissions?: bigint;
  /**
   * The gateway session (an id from gatewaySessions()) that receives the interaction, instead of the
   * newest one owning the guild: two bot processes serving the same shard while they overlap (a
   * restart without downtime). It must be live and own the guild.
   */
  session?: string;
}

export interface ResolvedInput {
  users?: FakeUser[];
  channels?: { id: string; type: number; name: string }[];
  roles?: { id: string; name: string }[];
}

export type OptionValue = string | number | boolean;

export interface SlashOptions extends DispatchOptions {
  subcommand?: string;
  subcommandGroup?: string;
  options?: Record<string, OptionValue>;
  resolved?: ResolvedInput;
  /** Override the inferred type (3 string, 4 integer, 5 boolean, 6 user, 7 channel, 8 role, 9 mentionable, 10 number). */
  optionTypes?: Record<string, number>;
}

export interface AutocompleteOptions extends DispatchOptions {
  subcommand?: string;
  subcommandGroup?: string;
  options?: Record<string, OptionValue>;
  optionTypes?: Record<string, number>;
}

export interface ModalSubmitOptions extends DispatchOptions {
  /** The component message the modal came from; defaults to the one the fake remembers for this modal. */
  message?: FakeMessage;
}

export interface RecordedRequest {
  method: string;
  /** Decoded, without the `/api/v10` prefix and without the query (`/webhooks/1/tok/messages/@original`). */
  path: string;
  /** Without the leading `?`. */
  query: string;
  /** Parsed JSON; for multipart bodies the parsed `payload_json`. */
  body: unknown;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Added: uploaded files of a multipart body. */
  files: { field: string; filename: string; size: number; contentType: string }[];
  /** Added: the status the fake answered with (set once answered). */
  status?: number;
  /** Added: the JSON the fake answered with, if any. */
  response?: unknown;
}

/** One MEMBER_ROLE_UPDATE entry of a guild's audit log, in Discord's shape. */
export interface AuditEntry {
  id: string;
  action_type: 25;
  /** Who made the change (the bot, or staff by hand). */
  user_id: string;
  /** Whose roles changed. */
  target_id: string;
  changes: { key: '$add' | '$remove'; new_value: { id: string; name: string }[] }[];
  reason?: string;
}

/** A role given (`PUT`) or taken (`DELETE`) through `/guilds/:guild/members/:user/roles/:role`. */
export interface RoleChange {
  method: 'PUT' | 'DELETE';
  guildId: string;
  userId: string;
  roleId: string;
  /** The `X-Audit-Log-Reason` header, decoded; undefined when the request carried none. */
  reason: string | undefined;
  /** What the fake answered: 204, or the error's status (403 / 50013, 404 / 10007 or 10011). */
  status: number;
}

export interface InjectedResponse {
  status: number;
  body: unknown;
}
