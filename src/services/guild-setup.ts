import type { Clock } from '../clock.js';
import { GUILD_SETTINGS, SETTING_KEYS, type GuildSettingsTable, type SettingRow, type SettingsChangeOf } from '../settings/guild-settings-table.js';
import { type GuildLicense, type GuildSettings, type GuildSettingsRepository, type PanelRecord } from '../storage/guild-settings.js';
import type { InsightsDigestStore } from '../storage/insights-digest.js';
import type { PurchaseFeedStore } from '../storage/purchase-feed.js';

/**
 * What a guild's admins change with /shop-admin, one named operation each, so the rules that go
 * with a change (a real license replaces the demo, the demo drops the guild's license, numbers
 * stay within their bounds) hold whoever asks. Below Discord: the handlers check channels and
 * the store, post to the guild's log and show the outcome. Reads stay with the repository.
 */

// The command's definition offers the same bounds the settings are kept within.
export { SETTING_BOUNDS } from '../storage/guild-settings.js';

/**
 * The settings /shop-admin settings changes (src/settings/guild-settings-table.ts); absent ones stay
 * as they are. `purchaseFeedChannelId`: the purchase feed's channel (null: off); setting one (even
 * the same again) starts the feed afresh from now.
 */
export type SettingsChange = SettingsChangeOf<GuildSettingsTable>;

export class GuildSetup {
  constructor(
    private readonly settings: GuildSettingsRepository,
    private readonly clock: Clock,
    /** The purchase feed's registry of guilds, kept in step with the setting. */
    private readonly feedGuilds?: Pick<PurchaseFeedStore, 'include'>,
    /** The weekly digest's registry of guilds and their time zones, kept in step with the two settings. */
    private readonly digestGuilds?: Pick<InsightsDigestStore, 'include'>,
  ) {}

  /** The guild sells from the demo shop; its own license is dropped. Returns the settings before, to say what was replaced. */
  async switchToDemo(guildId: string): Promise<GuildSettings> {
    const { before } = await this.settings.update(guildId, ({ license: _dropped, ...settings }) => ({ ...settings, demo: true }) as GuildSettings);
    return before;
  }

  /** Back from the demo to the bot's default license, or to no shop. */
  async leaveDemo(guildId: string): Promise<void> {
    await this.settings.update(guildId, (settings) => ({ ...settings, demo: false }));
  }

  /** Keeps the guild's own license, sealed by the caller; a real license replaces the demo. */
  async saveLicense(guildId: string, license: Omit<GuildLicense, 'setAt'>): Promise<void> {
    const setAt = this.clock.now();
    await this.settings.update(guildId, (settings) => ({ ...settings, demo: false, license: { ...license, setAt } }));
  }

  async clearLicense(guildId: string): Promise<void> {
    await this.settings.update(guildId, ({ license: _dropped, ...settings }) => settings as GuildSettings);
  }

  /** The panel just posted, so posting it again replaces this one. */
  async rememberPanel(guildId: string, panel: PanelRecord): Promise<void> {
    await this.settings.update(guildId, (settings) => ({ ...settings, panel, panelLost: null }));
  }

  /**
   * One page of /shop-admin servers saved (a select shows at most 25 servers): of the servers on
   * `page`, those in `offered` are offered and the others hidden. Servers on other pages keep their
   * state, and so do hidden servers the license no longer lists (one back in the shop stays hidden).
   * Decided under the settings' lock, so admins saving different pages at once both count. Refused
   * (undefined, nothing changed) when none of the license's servers would be left offered.
   */
  async saveServerPage(
    guildId: string,
    change: { license: readonly string[]; page: readonly string[]; offered: readonly string[] },
  ): Promise<{ before: GuildSettings; after: GuildSettings } | undefined> {
    const onPage = new Set(change.page);
    const offered = new Set(change.offered);
    let refused = false;
    const { before, after } = await this.settings.update(guildId, (settings) => {
      const hidden = [...settings.hiddenServerIds.filter((id) => !onPage.has(id)), ...change.page.filter((id) => !offered.has(id))];
      refused = change.license.every((id) => hidden.includes(id));
      return refused ? settings : { ...settings, hiddenServerIds: hidden };
    });
    return refused ? undefined : { before, after };
  }

  /** Applies the change, numbers brought within their bounds (the table's `min`..`max`); returns the settings before and after. */
  async changeSettings(guildId: string, change: SettingsChange): Promise<{ before: GuildSettings; after: GuildSettings }> {
    const bounded: Record<string, unknown> = { ...change };
    for (const key of SETTING_KEYS) {
      const row: SettingRow = GUILD_SETTINGS[key];
      const value = bounded[row.field];
      if (row.kind === 'integer' && typeof value === 'number') bounded[row.field] = clamp(value, row);
    }
    const { purchaseFeedChannelId: feedChannel, ...plainChange } = bounded as SettingsChange;
    const now = this.clock.now();
    const result = await this.settings.update(guildId, (settings) => ({
      ...settings,
      ...plainChange,
      ...(feedChannel === undefined ? {} : { purchaseFeed: feedChannel === null ? null : { channelId: feedChannel, since: now } }),
    }));
    if (feedChannel !== undefined) await this.feedGuilds?.include(guildId, feedChannel !== null);
    // Written whenever either is given, so an admin repeating the setting repairs a registry a failed write left behind.
    if (change.digestChannelId !== undefined || change.timeZone !== undefined) {
      await this.digestGuilds?.include(guildId, result.after.digestChannelId ? result.after.timeZone : undefined);
    }
    return result;
  }
}

function clamp(value: number, bounds: { min: number; max: number }): number {
  return Math.min(bounds.max, Math.max(bounds.min, Math.trunc(value)));
}
