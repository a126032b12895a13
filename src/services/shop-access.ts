import type { StoreClient } from '../spaceis/client.js';
import type { StoreResponseInfo } from '../spaceis/client.js';
import type { StoreGate } from '../spaceis/gate.js';
import type { OfferCache } from '../spaceis/offer-cache.js';
import type { SharedGateState } from '../spaceis/shared-gate-state.js';
import type { VariantWarmUp } from '../spaceis/variant-warm-up.js';
import type { Coordination } from '../coordination/coordination.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { SecretBox } from '../security/secret-box.js';
import type { GuildSettingsRepository } from '../storage/guild-settings.js';
import type { ShopIdentityRepository } from '../storage/shop-identities.js';

/* What the store directory (store-directory.ts) hands a guild, and what it is given to do so. */

/** What a guild sells from: one license, its API client and its offer cache. */
export interface ShopAccess {
  /** The license's full id (sha256 of the key): what carts and link records are compared by. */
  readonly license: string;
  /** Its first 8 characters: for showing to admins and in logs only, as different keys can share one. */
  readonly fingerprint: string;
  readonly client: StoreClient;
  readonly offers: OfferCache;
  /** The license's limiter and circuit breaker (shared by every guild on the license). */
  readonly gate: StoreGate;
  /** Reads every product's variants in the background once a search asks for it (once per offer lifetime). */
  readonly warmUp: VariantWarmUp;
  /** Where the license comes from: the guild's own (/shop-admin license), the bot's default, or the built-in demo shop. */
  readonly source: 'guild' | 'default' | 'demo';
}

/**
 * Why a guild that has its own license cannot sell from it: its sealed key does not open here
 * (another ENCRYPTION_KEY, a damaged record, or a record copied from another guild), or no
 * ENCRYPTION_KEY is set at all. Such a guild is never served from the bot's default license
 * instead: its admins chose their own shop.
 */
export type LicenseProblem = 'unreadable' | 'no-encryption-key';

export interface StoreDirectoryOptions {
  baseUrl: string;
  defaultApiKey: string | undefined;
  /**
   * The guilds that may sell from `defaultApiKey` (DEFAULT_LICENSE_GUILDS); undefined: every guild.
   * Any other guild without a license of its own has no shop: its admins must set their own.
   */
  defaultLicenseGuilds?: readonly string[] | undefined;
  settings: GuildSettingsRepository;
  /**
   * Where the shop each license reached is remembered (src/services/shop-identity.ts), so records
   * of a rotated key are still recognised (`sameShop`). Without it, a license is only its key.
   */
  identities?: ShopIdentityRepository;
  /** Opens guilds' sealed license keys; undefined when ENCRYPTION_KEY is not set. */
  secretBox: SecretBox | undefined;
  clock: Clock;
  logger?: Logger;
  /** Every store answer on a held license, with the license's short fingerprint (the operator's metrics). */
  onStoreResponse?: (info: StoreResponseInfo & { license: string }) => void;
  offerTtlMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Answers the store's API for guilds on the demo shop (src/demo/demo-store.ts); without it there is no demo. */
  demoFetch?: typeof fetch;
  /**
   * How this process agrees with the others. On Redis (`coordination.redis` set) each license's gate
   * shares its pause, breaker and four request slots with every process, and its offer cache keeps
   * a shared copy that drops reach everywhere (docs/scaling-out.md). One process: nothing shared.
   */
  coordination?: Pick<Coordination, 'redis' | 'publish' | 'subscribe' | 'runAlone'>;
  /**
   * On Redis: a license's pause, breaker and slots as every process shares them
   * (src/spaceis/redis-gate-state.ts). Passed in by app.ts, which loads the Redis libraries only
   * when STORAGE_URL is redis:// (they add a quarter of a second to every start otherwise).
   */
  sharedGateState?: (license: string) => SharedGateState;
}
