import { OfferCache } from '../spaceis/offer-cache.js';
import { keyFingerprint, StoreClient } from '../spaceis/client.js';
import { StoreGate } from '../spaceis/gate.js';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../security/secret-box.js';
import type { GuildSettings, GuildSettingsRepository } from '../storage/guild-settings.js';

/** What a guild sells from: one license, its API client and its offer cache. */
export interface ShopAccess {
  /** Non-reversible fingerprint of the license key: safe to store, log and show. */
  readonly license: string;
  readonly client: StoreClient;
  readonly offers: OfferCache;
  /** The license's limiter and circuit breaker (shared by every guild on the license). */
  readonly gate: StoreGate;
  /** Where the license comes from: the guild's own (/shop-admin license) or the bot's default. */
  readonly source: 'guild' | 'default';
}

/**
 * Why a guild that has its own license cannot sell from it: its sealed key does not open with
 * the current ENCRYPTION_KEY (changed, or the record damaged), or no ENCRYPTION_KEY is set at all.
 * Such a guild is never served from the bot's default license instead: its admins chose their own.
 */
export type LicenseProblem = 'unreadable' | 'no-encryption-key';

interface Resolved {
  access: ShopAccess | undefined;
  problem: LicenseProblem | undefined;
}

export interface StoreDirectoryOptions {
  baseUrl: string;
  defaultApiKey: string | undefined;
  settings: GuildSettingsRepository;
  /** Opens guilds' sealed license keys; undefined when ENCRYPTION_KEY is not set. */
  secretBox: SecretBox | undefined;
  clock: Clock;
  offerTtlMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Hands out the shop a guild sells from: its own license if an admin set one, else the bot's
 * default. Guilds sharing a license share one client and one offer cache, so a crowd in one
 * guild costs the store no more than a single buyer.
 */
export class StoreDirectory {
  /** The answer for each version of a guild's settings (see forSettings). */
  readonly #bySettings = new WeakMap<GuildSettings, Resolved>();
  /** Clients by license fingerprint (never by the key itself, which stays inside the client). */
  readonly #byLicense = new Map<string, { client: StoreClient; offers: OfferCache; gate: StoreGate }>();

  constructor(private readonly options: StoreDirectoryOptions) {}

  get hasDefaultLicense(): boolean {
    return this.options.defaultApiKey !== undefined;
  }

  get canStoreGuildLicenses(): boolean {
    return this.options.secretBox !== undefined;
  }

  /** The guild's shop, or undefined when no license is configured for it. */
  async forGuild(guildId: string): Promise<ShopAccess | undefined> {
    return this.forSettings(await this.options.settings.get(guildId));
  }

  /**
   * The shop for already-read guild settings (the router reads them once per interaction).
   * Settings objects are cached and frozen by their repository, so the answer (which hashes, and
   * for a guild license decrypts, the key) is worked out once per version of the settings.
   */
  forSettings(settings: GuildSettings): ShopAccess | undefined {
    return this.resolved(settings).access;
  }

  /** Why the guild's own license cannot be used, or undefined when nothing is wrong with it. */
  licenseProblem(settings: GuildSettings): LicenseProblem | undefined {
    return this.resolved(settings).problem;
  }

  private resolved(settings: GuildSettings): Resolved {
    let resolved = this.#bySettings.get(settings);
    if (!resolved) {
      resolved = this.resolve(settings);
      this.#bySettings.set(settings, resolved);
    }
    return resolved;
  }

  private resolve(settings: GuildSettings): Resolved {
    if (settings.license) {
      const secretBox = this.options.secretBox;
      if (!secretBox) return { access: undefined, problem: 'no-encryption-key' };
      let apiKey: string;
      try {
        apiKey = secretBox.open(settings.license.sealed);
      } catch {
        return { access: undefined, problem: 'unreadable' };
      }
      return { access: { ...this.forKey(apiKey), source: 'guild' }, problem: undefined };
    }
    const fallback = this.options.defaultApiKey;
    return { access: fallback ? { ...this.forKey(fallback), source: 'default' } : undefined, problem: undefined };
  }

  /** A client for a key an admin is about to save, to check it first; not cached, so a rejected key leaves no trace. */
  probe(apiKey: string): StoreClient {
    return this.newClient(apiKey);
  }

  private forKey(apiKey: string): { license: string; client: StoreClient; offers: OfferCache; gate: StoreGate } {
    const license = keyFingerprint(apiKey);
    let entry = this.#byLicense.get(license);
    if (!entry) {
      const gate = new StoreGate({ now: () => this.options.clock.now() });
      const client = this.newClient(apiKey, gate);
      const offers = new OfferCache(client, {
        now: () => this.options.clock.now(),
        ...(this.options.offerTtlMs !== undefined ? { ttlMs: this.options.offerTtlMs } : {}),
      });
      entry = { client, offers, gate };
      this.#byLicense.set(license, entry);
    }
    return { license, ...entry };
  }

  private newClient(apiKey: string, gate?: StoreGate): StoreClient {
    return new StoreClient({
      baseUrl: this.options.baseUrl,
      apiKey,
      ...(gate ? { gate } : {}),
      ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
      ...(this.options.sleep ? { sleep: this.options.sleep } : {}),
    });
  }
}
