import { OfferCache } from '../spaceis/offer-cache.js';
import { StoreClient } from '../spaceis/client.js';
import type { Clock } from '../clock.js';

/** What a guild sells from: one license, its API client and its offer cache. */
export interface ShopAccess {
  /** Non-reversible fingerprint of the license key: safe to store, log and show. */
  readonly license: string;
  readonly client: StoreClient;
  readonly offers: OfferCache;
}

export interface StoreDirectoryOptions {
  baseUrl: string;
  defaultApiKey: string | undefined;
  clock: Clock;
  offerTtlMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Hands out the shop a guild sells from. Guilds sharing a license share one client and one
 * offer cache, so a crowd in one guild costs the store no more than a single buyer.
 */
export class StoreDirectory {
  readonly #byKey = new Map<string, ShopAccess>();

  constructor(private readonly options: StoreDirectoryOptions) {}

  /** The guild's shop, or undefined when no license is configured for it. */
  forGuild(_guildId: string | null): ShopAccess | undefined {
    const key = this.options.defaultApiKey;
    return key ? this.forKey(key) : undefined;
  }

  private forKey(apiKey: string): ShopAccess {
    let access = this.#byKey.get(apiKey);
    if (!access) {
      const client = new StoreClient({
        baseUrl: this.options.baseUrl,
        apiKey,
        ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
        ...(this.options.sleep ? { sleep: this.options.sleep } : {}),
      });
      const offers = new OfferCache(client, {
        now: () => this.options.clock.now(),
        ...(this.options.offerTtlMs !== undefined ? { ttlMs: this.options.offerTtlMs } : {}),
      });
      access = { license: client.fingerprint, client, offers };
      this.#byKey.set(apiKey, access);
    }
    return access;
  }
}
