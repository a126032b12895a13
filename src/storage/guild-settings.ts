import { z } from 'zod';
import type Keyv from 'keyv';
import type { Logger } from '../logger.js';
import { parseRecord } from './records.js';

/**
 * Per-guild settings. Every field has a default, so a guild nobody configured works as-is
 * and a record from an older version gains new fields on read.
 */
const guildSettingsSchema = z.object({
  /** Allow items from several servers in one cart (the shop's panel must allow it too). */
  multiServerCart: z.boolean().default(false),
});

export type GuildSettings = z.infer<typeof guildSettingsSchema>;

export const DEFAULT_GUILD_SETTINGS: GuildSettings = guildSettingsSchema.parse({});

export class GuildSettingsRepository {
  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
  ) {}

  async get(guildId: string): Promise<GuildSettings> {
    const key = settingsKey(guildId);
    return parseRecord(guildSettingsSchema, await this.keyv.get(key), () => ({ ...DEFAULT_GUILD_SETTINGS }), this.logger, key);
  }

  async set(guildId: string, settings: GuildSettings): Promise<void> {
    await this.keyv.set(settingsKey(guildId), guildSettingsSchema.parse(settings));
  }
}

function settingsKey(guildId: string): string {
  return `guild:${guildId}`;
}
