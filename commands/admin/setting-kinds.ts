import { ApplicationCommandOptionType, type APIApplicationCommandBasicOption } from 'discord.js';
import type { CommandInteraction } from '../../src/discord/context.js';
import { localizedOption, type CommandTexts } from '../../src/discord/localize.js';
import { en } from '../../src/i18n/en.js';
import type { Messages } from '../../src/i18n/index.js';
import { pl } from '../../src/i18n/pl.js';
import type { SettingsChange } from '../../src/services/guild-setup.js';
import type { GuildSettings } from '../../src/storage/guild-settings.js';
import { FEED_NICKS, GUILD_SETTINGS, SETTING_KEYS, SETTING_LOCALES, type SettingKey, type SettingRow } from '../../src/settings/guild-settings-table.js';
import { TEXT_CHANNELS } from './channels.js';
import type { shopAdminNames } from './names.js';

/**
 * What each kind of setting (src/settings/guild-settings-table.ts) is in /shop-admin settings: the
 * option Discord offers, the value read back from an interaction, and the setting as an admin
 * reads it (the settings view and the change log post). A setting of an existing kind needs
 * nothing here.
 */

type SettingsTexts = CommandTexts<typeof shopAdminNames.subcommands.settings>;

/** The value of `locale:` that goes back to the server's language. */
export const LOCALE_AUTO = 'auto';

/** The options of /shop-admin settings: one per setting, in the table's order, then `reset:`. */
export function settingOptions(texts: SettingsTexts): APIApplicationCommandBasicOption[] {
  const resettable = SETTING_KEYS.filter((key) => 'resettable' in GUILD_SETTINGS[key]);
  return [
    ...SETTING_KEYS.map((key) => settingOption(GUILD_SETTINGS[key], localizedOption(texts, key))),
    {
      type: ApplicationCommandOptionType.String,
      ...localizedOption(texts, 'reset'),
      // A choice is named, valued and localized as the option it clears.
      choices: resettable.map((key) => {
        const { name, name_localizations } = localizedOption(texts, key);
        return { name, value: name, name_localizations };
      }),
    },
  ];
}

function settingOption(row: SettingRow, named: ReturnType<typeof localizedOption>): APIApplicationCommandBasicOption {
  switch (row.kind) {
    case 'channel':
    case 'feed-channel':
      return { type: ApplicationCommandOptionType.Channel, ...named, channel_types: [...TEXT_CHANNELS] };
    case 'role':
      return { type: ApplicationCommandOptionType.Role, ...named };
    case 'boolean':
      return { type: ApplicationCommandOptionType.Boolean, ...named };
    case 'integer':
      return { type: ApplicationCommandOptionType.Integer, ...named, min_value: row.min, max_value: row.max };
    case 'locale':
      return {
        type: ApplicationCommandOptionType.String,
        ...named,
        // The languages by their own names, the same in every language.
        choices: [
          { name: 'English', value: SETTING_LOCALES[0] },
          { name: 'Polski', value: SETTING_LOCALES[1] },
          { name: en.admin.localeChoiceAuto, value: LOCALE_AUTO, name_localizations: { pl: pl.admin.localeChoiceAuto } },
        ],
      };
    case 'time-zone':
      return { type: ApplicationCommandOptionType.String, ...named, max_length: 64 };
    case 'feed-nicks':
      return {
        type: ApplicationCommandOptionType.String,
        ...named,
        choices: [
          { name: en.feed.choiceShow, value: 'show', name_localizations: { pl: pl.feed.choiceShow } },
          { name: en.feed.choiceHide, value: 'hide', name_localizations: { pl: pl.feed.choiceHide } },
        ],
      };
  }
}

/** A setting chosen in the interaction: its row, the change it asks for, and (a role) the role, to check it first. */
export interface ChosenSetting {
  row: SettingRow;
  changeKey: keyof SettingsChange;
  value: unknown;
  role?: { id: string; managed: boolean };
}

/** The settings the interaction sets, in the table's order; `reset:` is read by `resetChoice`. */
export function chosenSettings(options: CommandInteraction['options']): ChosenSetting[] {
  return SETTING_KEYS.flatMap((key) => {
    const row: SettingRow = GUILD_SETTINGS[key];
    const changeKey = ('changedAs' in row ? row.changedAs : row.field) as keyof SettingsChange;
    if (row.kind === 'role') {
      const role = options.getRole(row.option, false);
      return role ? [{ row, changeKey, value: role.id, role }] : [];
    }
    const value = readOption(options, row);
    return value === undefined ? [] : [{ row, changeKey, value }];
  });
}

function readOption(options: CommandInteraction['options'], row: SettingRow): unknown {
  switch (row.kind) {
    case 'channel':
    case 'feed-channel':
      return options.getChannel(row.option, false)?.id;
    case 'role':
      return options.getRole(row.option, false)?.id;
    case 'boolean':
      return options.getBoolean(row.option, false) ?? undefined;
    case 'integer':
      return options.getInteger(row.option, false) ?? undefined;
    case 'locale': {
      const locale = options.getString(row.option, false);
      if (locale === LOCALE_AUTO) return null;
      return (SETTING_LOCALES as readonly (string | null)[]).includes(locale) ? locale : undefined;
    }
    case 'time-zone':
      // Checked by the handler, which tells the admin a name it does not know.
      return options.getString(row.option, false)?.trim() || undefined;
    case 'feed-nicks': {
      const nicks = options.getString(row.option, false);
      return (FEED_NICKS as readonly (string | null)[]).includes(nicks) ? nicks : undefined;
    }
  }
}

/** The change key of the setting `reset:` clears, or undefined. Its choices are valued as the options they clear. */
export function resetChoice(options: CommandInteraction['options'], resetOption: string): keyof SettingsChange | undefined {
  const chosen = options.getString(resetOption, false);
  const key = SETTING_KEYS.find((candidate) => 'resettable' in GUILD_SETTINGS[candidate] && GUILD_SETTINGS[candidate].option === chosen);
  if (!key) return undefined;
  const row: SettingRow = GUILD_SETTINGS[key];
  return ('changedAs' in row ? row.changedAs : row.field) as keyof SettingsChange;
}

/** A setting as an admin reads it: channel and role mentions, units, on/off. */
export function describeSetting(t: Messages, key: SettingKey, settings: GuildSettings): string {
  const a = t.admin;
  const row: SettingRow = GUILD_SETTINGS[key];
  const value = (settings as unknown as Record<string, unknown>)[row.field];
  switch (row.kind) {
    case 'channel':
      return value ? `<#${value as string}>` : a.none;
    case 'role':
      return value ? `<@&${value as string}>` : a.none;
    case 'boolean':
      return value ? a.on : a.off;
    case 'integer':
      return a[row.unit](value as number);
    case 'locale':
      return value ? a.localeNames[value as (typeof SETTING_LOCALES)[number]] : a.localeAuto;
    case 'feed-channel': {
      // A stopped feed reads differently, so setting the same channel again counts as a change.
      const feed = value as GuildSettings['purchaseFeed'];
      return feed ? `<#${feed.channelId}>${feed.refused ? ' ⚠️' : ''}` : a.none;
    }
    case 'feed-nicks':
      return value === 'hide' ? a.feedNicksHidden : a.feedNicksShown;
    case 'time-zone':
      return value as string;
  }
}
