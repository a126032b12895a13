import * as z from 'zod';
import type Keyv from 'keyv';
import type { Logger } from '../logger.js';
import type { SecretBox } from '../security/secret-box.js';
import type { Coordination } from '../coordination/coordination.js';
import { inProcessCoordination } from '../coordination/in-process.js';
import { parseRecord } from './records.js';
import { settingsShape, snowflake } from './setting-schemas.js';

/**
 * Per-guild settings: those an admin changes with /shop-admin settings are declared in
 * src/settings/guild-settings-table.ts (their schema: ./setting-schemas.ts); the others (license,
 * demo, servers, panel) are written by their own /shop-admin subcommands. Every field has a default,
 * so a guild nobody configured works as-is and a record from an older version gains new fields on read.
 */
export { SETTING_BOUNDS } from '../settings/guild-settings-table.js';

const guildLicenseSchema = z.object({
  /** AES-256-GCM sealed key, bound to the guild (see src/security/secret-box.ts); never the key in clear. */
  sealed: z.string(),
  /** For display only: two keys may share a fingerprint. */
  fingerprint: z.string(),
  setBy: z.string(),
  setAt: z.number(),
});

const guildSettingsSchema = z.object({
  /** The guild's own license; absent = the bot's default license (SPACEIS_API_KEY), if any. */
  license: guildLicenseSchema.optional(),
  /**
   * Sells from the demo shop built into the bot (/shop-admin license demo) instead of any license.
   * A field of its own, so records written before it existed read as "not the demo".
   */
  demo: z.boolean().default(false),
  /** Servers of the license that /shop does not offer here. Hidden rather than shown, so a server added later appears. */
  hiddenServerIds: z.array(z.string()).default([]),
  /**
   * The shop panel, so re-posting it replaces the old one. `display`: drawn with display components
   * (set when posted since they came). A panel without it is a classic message, which the refresher
   * replaces with a new one rather than edits (src/services/panel-refresh.ts).
   */
  panel: z.object({ channelId: snowflake, messageId: snowflake, display: z.literal(true).optional() }).nullable().default(null),
  /** The bot lost access to its panel (refused 3 times in a row) and stopped refreshing it; cleared when a panel is posted again. */
  panelLost: z.object({ channelId: snowflake, at: z.number() }).nullable().default(null),
  ...settingsShape,
});

export type GuildSettings = z.infer<typeof guildSettingsSchema>;
export type GuildLicense = z.infer<typeof guildLicenseSchema>;
export type PanelRecord = NonNullable<GuildSettings['panel']>;

export const DEFAULT_GUILD_SETTINGS: GuildSettings = guildSettingsSchema.parse({});

/** Told of every change of a guild's settings, after it is stored. */
export type SettingsListener = (guildId: string, before: GuildSettings, after: GuildSettings) => void;

/**
 * Settings are read on every interaction (the router needs them to pick the shop), but they change
 * only through `update()`. So after its first read a guild's settings are served from memory:
 * browsing a cached menu then touches no storage at all. One record per guild the bot serves,
 * frozen so that no caller can change the shared copy by accident.
 *
 * Several processes on one Redis (src/coordination) tell each other of every change, and each drops
 * its copy; since such a message can be lost, a copy there is also kept at most SHARED_CACHE_MS.
 *
 * A license sealed by an earlier version (bound to no guild) is re-sealed bound to its guild on
 * the record's first read and written back, so every record is upgraded once, by being used.
 */
export const SHARED_CACHE_MS = 30_000;

export class GuildSettingsRepository {
  readonly #cache = new Map<string, { settings: GuildSettings; readAt: number }>();
  readonly #listeners: SettingsListener[] = [];
  readonly #coordination: Pick<Coordination, 'shared' | 'locks' | 'publish' | 'subscribe'>;
  readonly #now: () => number;

  constructor(
    private readonly keyv: Keyv,
    private readonly logger: Logger,
    private readonly options: {
      secretBox?: SecretBox | undefined;
      coordination?: Pick<Coordination, 'shared' | 'locks' | 'publish' | 'subscribe'>;
      now?: () => number;
    } = {},
  ) {
    this.#coordination = options.coordination ?? inProcessCoordination();
    this.#now = options.now ?? Date.now;
    // Another process changed this guild's settings: the next read asks storage.
    this.#coordination.subscribe('settings', (guildId) => this.#cache.delete(guildId));
  }

  onUpdate(listener: SettingsListener): void {
    this.#listeners.push(listener);
  }

  async get(guildId: string): Promise<GuildSettings> {
    const cached = this.#cached(guildId);
    if (cached) return cached;
    // A failed read throws (StorageError) before anything is cached: defaults never stand in for a guild's settings.
    const { settings: read, upgraded } = await this.#load(guildId);
    if (upgraded) return (await this.update(guildId, (current) => current)).after;
    // An update that finished while this read was in flight has already cached the newer settings.
    if (!this.#cache.has(guildId)) this.#remember(guildId, read);
    return this.#cached(guildId) ?? read;
  }

  /** Read-modify-write under the guild's lock; returns the settings before and after. */
  async update(guildId: string, change: (current: GuildSettings) => GuildSettings): Promise<{ before: GuildSettings; after: GuildSettings }> {
    return this.#coordination.locks.run(settingsKey(guildId), async () => {
      // Under a shared lock the stored record is the truth: another process may have changed it.
      const before = (this.#coordination.shared ? undefined : this.#cached(guildId)) ?? (await this.#load(guildId)).settings;
      const after = deepFreeze(guildSettingsSchema.parse(change(structuredClone(before))));
      // A read racing this write caches what storage then holds; the write's outcome replaces it.
      this.#cache.delete(guildId);
      // A failed write throws (StorageError): nothing is cached, the next read asks storage again.
      await this.keyv.set(settingsKey(guildId), after);
      this.#remember(guildId, after);
      await this.#coordination.publish('settings', guildId);
      this.#tell(guildId, before, after);
      return { before, after };
    });
  }

  async set(guildId: string, settings: Partial<GuildSettings>): Promise<void> {
    await this.update(guildId, (current) => ({ ...current, ...settings }));
  }

  /** The stored record, its license re-sealed for this guild if an earlier version sealed it (`upgraded`). */
  async #load(guildId: string): Promise<{ settings: GuildSettings; upgraded: boolean }> {
    const key = settingsKey(guildId);
    const settings = parseRecord(guildSettingsSchema, await this.keyv.get(key), () => structuredClone(DEFAULT_GUILD_SETTINGS), this.logger, key);
    const resealed = settings.license && this.options.secretBox?.reseal(settings.license.sealed, guildId);
    if (!settings.license || !resealed) return { settings: deepFreeze(settings), upgraded: false };
    return { settings: deepFreeze({ ...settings, license: { ...settings.license, sealed: resealed } }), upgraded: true };
  }

  #cached(guildId: string): GuildSettings | undefined {
    const entry = this.#cache.get(guildId);
    if (!entry) return undefined;
    if (this.#coordination.shared && this.#now() - entry.readAt >= SHARED_CACHE_MS) {
      this.#cache.delete(guildId);
      return undefined;
    }
    return entry.settings;
  }

  #remember(guildId: string, settings: GuildSettings): void {
    this.#cache.set(guildId, { settings, readAt: this.#now() });
  }

  #tell(guildId: string, before: GuildSettings, after: GuildSettings): void {
    for (const listener of this.#listeners) {
      try {
        listener(guildId, before, after);
      } catch (error) {
        this.logger.error({ err: error, guild: guildId }, 'a settings listener failed');
      }
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function settingsKey(guildId: string): string {
  return `guild:${guildId}`;
}
