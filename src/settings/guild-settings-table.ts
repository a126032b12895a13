/**
 * The guild settings an admin changes with `/shop-admin settings`, declared once. Everything else
 * derives from this table: the command's options and their parsing (commands/admin/setting-kinds.ts),
 * the settings view and the change log post (the same texts), the storage schema
 * (src/storage/guild-settings.ts) and the setup service's `SettingsChange` (src/services/guild-setup.ts).
 * Plain data, below every layer that reads it.
 *
 * A row, keyed by the name the code and the catalogues know the setting by (`settingNames`, the
 * command texts' `options`):
 * - `field`: where the value is kept in the guild's settings record;
 * - `option`: the English wire name of its option (the Polish one is in the Polish catalogue's command texts);
 * - `kind`: how it is typed, stored, offered, parsed and shown (SettingKind below), with its bounds and default;
 * - `resettable`: offered by `reset:` (cleared back to none).
 * The order is the order the settings view lists them and the command offers them.
 *
 * Adding a setting of an existing kind: a row here, then in both catalogues (src/i18n/en.ts, pl.ts)
 * its option's texts under `shopAdmin.subcommands.settings.options` and its label under `admin.settingNames`.
 */
export const GUILD_SETTINGS = {
  logChannel: { field: 'logChannelId', option: 'log-channel', kind: 'channel', resettable: true },
  moderatorRole: { field: 'moderatorRoleId', option: 'moderator-role', kind: 'role', resettable: true },
  // Items from several servers in one cart (the shop's panel must allow it too).
  multiServerCart: { field: 'multiServerCart', option: 'multi-server-cart', kind: 'boolean', default: false },
  linkLifetimeHours: { field: 'linkLifetimeHours', option: 'link-lifetime-hours', kind: 'integer', unit: 'hours', min: 1, max: 720, default: 24 },
  checkoutCooldownSeconds: { field: 'checkoutCooldownSeconds', option: 'checkout-cooldown-seconds', kind: 'integer', unit: 'seconds', min: 0, max: 3600, default: 30 },
  // The language of what the bot posts in channels (log, panel); none: the guild's preferred locale.
  locale: { field: 'locale', option: 'locale', kind: 'locale' },
  // Set by a channel, kept as the feed's state (since when, refused); the change names the channel.
  purchaseFeedChannel: { field: 'purchaseFeed', option: 'purchase-feed-channel', kind: 'feed-channel', resettable: true, changedAs: 'purchaseFeedChannelId' },
  // Buyers' nicks shown in what the bot shows of the shop's purchases (/shop-top, the feed), or "a player".
  purchaseFeedNicks: { field: 'purchaseFeedNicks', option: 'purchase-feed-nicks', kind: 'feed-nicks' },
  // A DM to the member a gift was bought for once it is paid (each member can also turn them off for themselves).
  giftMessages: { field: 'giftMessages', option: 'gift-messages', kind: 'boolean', default: true },
  // Where the weekly insights digest is posted (Monday 09:00 in the guild's time zone); none: no digest.
  digestChannel: { field: 'digestChannelId', option: 'digest-channel', kind: 'channel', resettable: true },
  // The guild's time zone (an IANA name): when its Monday 09:00 is.
  timeZone: { field: 'timeZone', option: 'time-zone', kind: 'time-zone' },
} as const satisfies Readonly<Record<string, SettingRow>>;

/**
 * How a setting is typed, stored, offered and shown. `channel` and `role`: a mention or none;
 * `boolean`: on/off; `integer`: a number within `min`..`max` shown in `unit` (admin.hours, admin.seconds);
 * the others belong to one setting each: `locale` (a language or the server's), `feed-channel`
 * (the purchase feed's channel and its state), `feed-nicks` (buyers' nicks shown or hidden),
 * `time-zone` (an IANA name, Europe/Warsaw by default).
 */
export type SettingKind = 'channel' | 'role' | 'boolean' | 'integer' | 'locale' | 'feed-channel' | 'feed-nicks' | 'time-zone';

export type SettingRow =
  | { readonly field: string; readonly option: string; readonly kind: 'channel' | 'role'; readonly resettable?: boolean }
  | { readonly field: string; readonly option: string; readonly kind: 'boolean'; readonly default: boolean }
  | {
      readonly field: string;
      readonly option: string;
      readonly kind: 'integer';
      readonly unit: 'hours' | 'seconds';
      readonly min: number;
      readonly max: number;
      readonly default: number;
    }
  | { readonly field: string; readonly option: string; readonly kind: 'locale' | 'feed-nicks' | 'time-zone' }
  | { readonly field: string; readonly option: string; readonly kind: 'feed-channel'; readonly resettable?: boolean; readonly changedAs: string };

export type GuildSettingsTable = typeof GUILD_SETTINGS;
export type SettingKey = keyof GuildSettingsTable;

/** The settings' keys, in the table's order. */
export const SETTING_KEYS = Object.keys(GUILD_SETTINGS) as SettingKey[];

/** The value locales and nick choices take (the options' choice values too). */
export const SETTING_LOCALES = ['en', 'pl'] as const;
export const FEED_NICKS = ['show', 'hide'] as const;

/** What a change of the setting carries (null: cleared). */
export type SettingChangeValue<R extends SettingRow> = R extends { kind: 'channel' | 'role' | 'feed-channel' }
  ? string | null
  : R extends { kind: 'boolean' }
    ? boolean
    : R extends { kind: 'integer' }
      ? number
      : R extends { kind: 'locale' }
        ? (typeof SETTING_LOCALES)[number] | null
        : R extends { kind: 'time-zone' }
          ? string
          : (typeof FEED_NICKS)[number];

/** The key a change of the row is given by: its field, or `changedAs` when the field keeps more than the value. */
export type SettingChangeKey<R extends SettingRow> = R extends { changedAs: infer C extends string } ? C : R['field'];

/** A change of some settings, as the setup service takes it: absent ones stay as they are. */
export type SettingsChangeOf<T extends Readonly<Record<string, SettingRow>>> = {
  -readonly [K in keyof T as SettingChangeKey<T[K]>]?: SettingChangeValue<T[K]>;
};

/** Every option's English wire name, by the setting's key (shopAdminNames' settings options). */
export const SETTING_OPTION_NAMES = Object.fromEntries(SETTING_KEYS.map((key) => [key, GUILD_SETTINGS[key].option])) as {
  readonly [K in SettingKey]: GuildSettingsTable[K]['option'];
};

type IntegerField = { [K in SettingKey]: GuildSettingsTable[K] extends { kind: 'integer' } ? GuildSettingsTable[K]['field'] : never }[SettingKey];
export interface SettingBounds {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

/** The integer settings' bounds and defaults, by field (the command offers the same bounds the settings are kept within). */
export const SETTING_BOUNDS = Object.fromEntries(
  SETTING_KEYS.flatMap((key) => {
    const row: SettingRow = GUILD_SETTINGS[key];
    return row.kind === 'integer' ? [[row.field, { min: row.min, max: row.max, default: row.default }]] : [];
  }),
) as { readonly [F in IntegerField]: SettingBounds };
