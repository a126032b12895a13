import * as z from 'zod';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../settings/time-zone.js';
import { FEED_NICKS, GUILD_SETTINGS, SETTING_KEYS, SETTING_LOCALES, type GuildSettingsTable, type SettingRow } from '../settings/guild-settings-table.js';

/**
 * How each kind of setting is kept (src/settings/guild-settings-table.ts): every field has a default,
 * so a guild nobody configured works as-is and a record from an older version gains new fields on read.
 */

export const snowflake = z.string().regex(/^\d{5,20}$/);

/**
 * The purchase feed's channel (src/services/purchase-feed.ts); null = off. `since`: when it was
 * switched on (nothing made earlier is posted); `refused`: the channel refused the bot, so the
 * feed stops until the admins set a channel again.
 */
const purchaseFeedSchema = z
  .object({ channelId: snowflake, since: z.number(), refused: z.object({ at: z.number(), reason: z.enum(['no-access', 'gone']) }).optional() })
  .nullable()
  .default(null);

/** An IANA time zone; one this Node no longer knows reads as the default rather than losing the record. */
const timeZoneSchema = z.string().refine(isTimeZone).catch(DEFAULT_TIME_ZONE).default(DEFAULT_TIME_ZONE);

/** The stored schema of a row's field, by its kind. */
type SchemaOf<R extends SettingRow> = R extends { kind: 'channel' | 'role' }
  ? z.ZodDefault<z.ZodNullable<typeof snowflake>>
  : R extends { kind: 'boolean' }
    ? z.ZodDefault<z.ZodBoolean>
    : R extends { kind: 'integer' }
      ? z.ZodDefault<z.ZodNumber>
      : R extends { kind: 'locale' }
        ? z.ZodDefault<z.ZodNullable<z.ZodEnum<{ [L in (typeof SETTING_LOCALES)[number]]: L }>>>
        : R extends { kind: 'feed-nicks' }
          ? z.ZodDefault<z.ZodEnum<{ [N in (typeof FEED_NICKS)[number]]: N }>>
          : R extends { kind: 'time-zone' }
            ? typeof timeZoneSchema
            : typeof purchaseFeedSchema;

function schemaOf(row: SettingRow): z.ZodType {
  switch (row.kind) {
    case 'channel':
    case 'role':
      return snowflake.nullable().default(null);
    case 'boolean':
      return z.boolean().default(row.default);
    case 'integer':
      return z.number().int().min(row.min).max(row.max).default(row.default);
    case 'locale':
      /** Language of what the bot posts in channels (log, panel); null = the guild's preferred locale. */
      return z.enum(SETTING_LOCALES).nullable().default(null);
    case 'feed-nicks':
      /** Whether buyers' nicks are shown in /shop-top and the purchase feed, or "a player". */
      return z.enum(FEED_NICKS).default('show');
    case 'feed-channel':
      return purchaseFeedSchema;
    case 'time-zone':
      return timeZoneSchema;
  }
}

/** The settings' fields of the guild settings' schema, one per row of the table. */
export const settingsShape = Object.fromEntries(SETTING_KEYS.map((key) => [GUILD_SETTINGS[key].field, schemaOf(GUILD_SETTINGS[key])])) as {
  [K in keyof GuildSettingsTable as GuildSettingsTable[K]['field']]: SchemaOf<GuildSettingsTable[K]>;
};
