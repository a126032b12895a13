import { DiscordAPIError, type Client, type Guild } from 'discord.js';
import type { Clock } from '../clock.js';
import type { StoreError } from '../spaceis/errors.js';
import { localeOf, messages, type Locale, type Messages } from '../i18n/index.js';
import type { Logger } from '../logger.js';
import type { GuildSettingsRepository } from '../storage/guild-settings.js';
import { discordRefusalOf, type DiscordRefusal } from './refusals.js';
import { messageOptions, type View } from './respond.js';
import { demoMarked } from './views/demo-mark.js';
import { logEventView, type LogEvent } from './views/log.js';

export type { LogEvent };

const LICENSE_REPORT_EVERY_MS = 60 * 60_000;
/**
 * After Discord refused a post in a log channel (403: the bot may not post there; 404: the channel is
 * gone), the channel is not asked again for this long in this process: its posts fail at once (a paid
 * link's log step then backs off and ends as always). Each refusal counts towards Discord's ban of the
 * bot's IP (10 000 invalid requests in 10 minutes): one a channel every 10 minutes, not one a post.
 */
export const REFUSED_LOG_PAUSE_MS = 10 * 60_000;

/**
 * Posts what admins and moderators should know to the guild's log channel, in the guild's
 * language. A log post is a courtesy: a missing permission or a deleted channel is logged
 * and never fails the member's purchase or the admin's command.
 */
export class GuildLog {
  /** When each guild was last told about a license problem. */
  readonly #licenseReported = new Map<string, number>();
  /** `<guild>:<channel>` → when Discord last refused a post there (REFUSED_LOG_PAUSE_MS), and how when final. */
  readonly #refused = new Map<string, { at: number; refused?: DiscordRefusal }>();

  constructor(
    private readonly client: Client,
    private readonly settings: GuildSettingsRepository,
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {}

  /**
   * A 401/402 met while serving a buyer is the admins' problem. Reported at most once an hour
   * per guild, so a crowd meeting a dead license does not flood the channel.
   */
  async licenseProblem(guildId: string, error: StoreError): Promise<void> {
    const now = this.clock.now();
    const last = this.#licenseReported.get(guildId);
    if (last !== undefined && now - last < LICENSE_REPORT_EVERY_MS) return;
    this.#licenseReported.set(guildId, now);
    await this.post(guildId, { kind: 'license-problem', status: error.status ?? 0, ...(error.apiMessage ? { apiMessage: error.apiMessage } : {}) });
  }

  /** The language of what the bot posts in a guild's channels: the admins' choice, else the guild's own. */
  /**
   * The guild's channel language: its stored setting, else its Discord language. A guild of a shard
   * another process runs is not in this process's cache (the purchase feed and the watcher post for
   * every guild): it is fetched once, so whichever process posts speaks the guild's language.
   */
  async localeFor(guildId: string): Promise<Locale> {
    const settings = await this.settings.get(guildId);
    if (settings.locale) return settings.locale;
    return localeOf((await this.#guild(guildId))?.preferredLocale);
  }

  /** The guild, from the cache or (a guild of another process's shard) fetched once; discord.js makes no channel of a guild it does not know. */
  async #guild(guildId: string): Promise<Guild | undefined> {
    return this.client.guilds.cache.get(guildId) ?? (await this.client.guilds.fetch(guildId).catch(() => undefined));
  }

  /** True when posted, or when the guild has no log channel; false when the post failed (logged). */
  async post(guildId: string, event: LogEvent): Promise<boolean> {
    return (await this.#send(guildId, event.kind, (t) => logEventView(t, event))) === 'posted';
  }

  /**
   * A post whose failure decides what comes next (a settled payment's log step): `posted` (or no
   * log channel), `failed` (may pass: asked again later), or Discord's final refusal (the channel
   * deleted, or closed to the bot: src/discord/refusals.ts), never asked again.
   */
  async postOrRefusal(guildId: string, event: LogEvent): Promise<'posted' | 'failed' | { refused: DiscordRefusal }> {
    return this.#send(guildId, event.kind, (t) => logEventView(t, event));
  }

  /** A post drawn by its feature (one with buttons: a payment waiting for staff), in the guild's language. */
  async postView(guildId: string, kind: string, draw: (t: Messages) => View): Promise<boolean> {
    return (await this.#send(guildId, kind, draw)) === 'posted';
  }

  async #send(guildId: string, kind: string, draw: (t: Messages) => View): Promise<'posted' | 'failed' | { refused: DiscordRefusal }> {
    let channelKey: string | undefined;
    try {
      const settings = await this.settings.get(guildId);
      if (!settings.logChannelId) return 'posted';
      channelKey = `${guildId}:${settings.logChannelId}`;
      const last = this.#refused.get(channelKey);
      if (last !== undefined && this.clock.now() - last.at < REFUSED_LOG_PAUSE_MS) {
        this.logger.debug({ guild: guildId, event: kind }, 'the log channel refused the bot’s last post: not asked again yet');
        // The refusal Discord gave, when it was a final one: a paid link's log step ends as refused, as if asked.
        return last.refused ? { refused: last.refused } : 'failed';
      }
      await this.#guild(guildId);
      const channel = await this.client.channels.fetch(settings.logChannelId);
      if (!channel?.isSendable()) throw new Error('the log channel is not a text channel');
      const t = messages(await this.localeFor(guildId));
      const view = draw(t);
      // Read after the change it reports: switching to the demo is posted marked, leaving it unmarked.
      await channel.send({ ...messageOptions(settings.demo ? demoMarked(t, view) : view, 'create'), allowedMentions: { parse: [] } });
      return 'posted';
    } catch (error) {
      const refused = discordRefusalOf(error);
      this.logger.warn({ guild: guildId, event: kind, err: error, ...(refused ? { refused } : {}) }, 'could not post to the log channel');
      if (channelKey && error instanceof DiscordAPIError && error.status >= 400 && error.status < 500 && error.status !== 429) {
        this.#refused.set(channelKey, { at: this.clock.now(), ...(refused ? { refused } : {}) });
      }
      return refused ? { refused } : 'failed';
    }
  }
}
