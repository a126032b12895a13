import { createHash } from 'node:crypto';
import { OfferCache } from '../spaceis/offer-cache.js';
import { StoreClient, type StoreResponseInfo } from '../spaceis/client.js';
import type { LicenseProblem, ShopAccess, StoreDirectoryOptions } from './shop-access.js';
import { createStoreGate, type StoreGate } from '../spaceis/gate.js';
import { RedisOfferCopies } from '../spaceis/redis-offer-copy.js';
import { VariantWarmUp } from '../spaceis/variant-warm-up.js';
import { DEMO_LICENSE } from '../demo/license.js';
import type { LicenseLoad } from '../ops/metrics.js';
import { fingerprintOf, licenseId, sameLicense } from '../security/license-id.js';
import type { GuildLicense, GuildSettings } from '../storage/guild-settings.js';
import { sameShopIdentity, withServerOffer, withServers } from './shop-identity.js';
import { learnShop, observeShop, type LearningShop } from './shop-learning.js';

export type { LicenseProblem, ShopAccess, StoreDirectoryOptions } from './shop-access.js';

/** A license no guild used for this long is let go: its client (and key), gate and offer cache. */
export const LICENSE_IDLE_MS = 60 * 60_000;
/** Idle licenses are looked for at most this often, so an interaction never walks the map for nothing. */
const SWEEP_EVERY_MS = 60_000;

interface LicenseEntry extends LearningShop {
  client: StoreClient;
  offers: OfferCache;
  gate: StoreGate;
  warmUp: VariantWarmUp;
  lastUsed: number;
}

/** What a guild's settings resolve to, without the key: that stays inside the license's client. */
interface Resolved {
  guildId: string;
  license: string;
  source: 'guild' | 'default';
}

/** A version of a guild's settings resolves to a license, to a problem with its own, or (null) to no shop. */
type Resolution = Resolved | { problem: LicenseProblem } | null;

/**
 * Hands out the shop a guild sells from: its own license if an admin set one, else the bot's
 * default. Guilds sharing a license share one client and one offer cache, so a crowd in one
 * guild costs the store no more than a single buyer. Licenses are held only while in use: one
 * no guild asked for in LICENSE_IDLE_MS, or that its guild replaced, is let go (unless a request
 * is in flight in its gate) and built again, key decrypted again, when a guild needs it.
 */
export class StoreDirectory {
  /** Settings objects are frozen and replaced on change, so each version is resolved once. null = no shop. */
  readonly #bySettings = new WeakMap<GuildSettings, Resolution>();
  /** By the license's full id: never by the key itself, and never by a fingerprint, which two keys may share. */
  readonly #byLicense = new Map<string, LicenseEntry>();
  /** The built-in demo shop, once a guild uses it (never let go: it holds no key). */
  #demo: LicenseEntry | undefined;
  #lastSweep: number;
  readonly #offerCopies: RedisOfferCopies | undefined;
  readonly #defaultLicenseGuilds: ReadonlySet<string> | undefined;

  constructor(private readonly options: StoreDirectoryOptions) {
    this.#lastSweep = options.clock.now();
    this.#defaultLicenseGuilds = options.defaultLicenseGuilds ? new Set(options.defaultLicenseGuilds) : undefined;
    const { coordination } = options;
    if (coordination?.redis) this.#offerCopies = new RedisOfferCopies(coordination.redis, coordination, options.logger);
    options.settings.onUpdate((guildId, before, after) => this.#licenseReplaced(guildId, before.license, after.license));
  }

  get hasDefaultLicense(): boolean {
    return this.options.defaultApiKey !== undefined;
  }

  get canStoreGuildLicenses(): boolean {
    return this.options.secretBox !== undefined;
  }

  /** Whether the operator listed this guild by name in DEFAULT_LICENSE_GUILDS (not merely left the list unset): voucher codes on the default license are money. */
  defaultLicenseListed(guildId: string): boolean {
    return this.#defaultLicenseGuilds?.has(guildId) === true;
  }

  /** Whether the bot has a default license that this guild may not sell from (DEFAULT_LICENSE_GUILDS leaves it out). */
  defaultLicenseRefused(guildId: string): boolean {
    return this.hasDefaultLicense && this.#defaultLicenseGuilds !== undefined && !this.#defaultLicenseGuilds.has(guildId);
  }

  /** Licenses held right now (each with a client, a gate and an offer cache). */
  /** What each held license's gate carries now, by short fingerprint (the operator's metrics). */
  loads(): LicenseLoad[] {
    return [...this.#byLicense].map(([license, entry]) => ({ license: fingerprintOf(license), state: entry.gate.state, ...entry.gate.load }));
  }

  get size(): number {
    return this.#byLicense.size;
  }

  /** The guild's shop, or undefined when no license is configured for it. */
  async forGuild(guildId: string): Promise<ShopAccess | undefined> {
    return this.forSettings(guildId, await this.options.settings.get(guildId));
  }

  /**
   * The shop for already-read guild settings (the router reads them once per interaction).
   * A guild's own key is sealed for that guild, so `guildId` must be the guild they belong to.
   */
  forSettings(guildId: string, settings: GuildSettings): ShopAccess | undefined {
    const access = this.#access(guildId, settings);
    this.#sweepIfDue();
    return access;
  }

  /** Why the guild's own license cannot be used, or undefined when nothing is wrong with it. */
  licenseProblem(guildId: string, settings: GuildSettings): LicenseProblem | undefined {
    if (!this.#bySettings.has(settings)) this.#access(guildId, settings);
    const known = this.#bySettings.get(settings);
    return known && 'problem' in known ? known.problem : undefined;
  }

  /**
   * The demo shop: one client, gate and offer cache shared by every demo guild, exactly like a
   * license, but its client's `fetch` answers from the demo file in-process.
   */
  #demoAccess(demoFetch: typeof fetch): ShopAccess {
    if (!this.#demo) {
      // Local even on Redis: the demo answers in-process, so it has no rate limit to share.
      const gate = createStoreGate({ now: () => this.options.clock.now() });
      const client = new StoreClient({ baseUrl: 'http://demo.invalid', apiKey: 'demo-shop', gate, fetch: demoFetch });
      const offers = new OfferCache(client, { now: () => this.options.clock.now() });
      this.#demo = { client, offers, gate, warmUp: this.#warmUp(offers, gate), lastUsed: 0 };
    }
    const { client, offers, gate, warmUp } = this.#demo;
    return { license: DEMO_LICENSE, fingerprint: DEMO_LICENSE, client, offers, gate, warmUp, source: 'demo' };
  }

  /**
   * Whether records written under license `stored` (a cart, a payment link) belong to the shop that
   * license `current` sells from: the same license, or another key of the same shop as the store's
   * answers told (a key the operator rotated). The shop `stored` reached is read from storage; the
   * one `current` reaches is learned from its offer if not yet known (at most two store requests,
   * usually answered by the offer cache). A license the bot never read an offer with is a shop of its
   * own. Throws a StoreError when `current`'s shop could not be learned: nothing should be dropped then.
   */
  async sameShop(stored: string, current: string): Promise<boolean> {
    if (sameLicense(stored, current)) return true;
    const identities = this.options.identities;
    if (!identities || stored === DEMO_LICENSE || current === DEMO_LICENSE) return false;
    const before = await identities.get(stored);
    if (!before) return false;
    const entry = this.#byLicense.get(current);
    const now = entry ? await learnShop(current, entry, identities, this.options.logger) : await identities.get(current);
    return now !== undefined && sameShopIdentity(before, now);
  }

  /**
   * A name for the shop a license reaches, the same for every key of that shop as far as the store's
   * answers told (the store's licenseId when it sent one, else its servers' UUIDs): what the payment
   * watcher keeps a shop's transactions under, so a rotated key never handles one purchase twice.
   * The license itself while nothing is known of its shop. Read from storage only (no request).
   */
  async shopKey(license: string): Promise<string> {
    const identity = license === DEMO_LICENSE ? undefined : await this.options.identities?.get(license);
    if (identity?.storeLicenseId) return `id:${identity.storeLicenseId}`;
    if (identity?.serverIds) return `srv:${createHash('sha256').update(identity.serverIds.join(',')).digest('hex').slice(0, 32)}`;
    return license;
  }

  /** A client for a key an admin is about to save, to check it first; not cached, so a rejected key leaves no trace. */
  probe(apiKey: string): StoreClient {
    return this.#newClient(apiKey);
  }

  #access(guildId: string, settings: GuildSettings): ShopAccess | undefined {
    // The demo comes first: an admin chose it explicitly, and it needs no key.
    if (settings.demo && this.options.demoFetch) return this.#demoAccess(this.options.demoFetch);
    const known = this.#bySettings.get(settings);
    if (known === null || (known && 'problem' in known)) return undefined;
    const held = known?.guildId === guildId ? this.#byLicense.get(known.license) : undefined;
    if (known && held) return this.#use(known, held);

    const found = this.#resolve(guildId, settings);
    if (!found || 'problem' in found) {
      this.#bySettings.set(settings, found ?? null);
      return undefined;
    }
    const resolved: Resolved = { guildId, license: licenseId(found.apiKey), source: found.source };
    this.#bySettings.set(settings, resolved);
    return this.#use(resolved, this.#byLicense.get(resolved.license) ?? this.#hold(resolved.license, found.apiKey));
  }

  #use(resolved: Resolved, entry: LicenseEntry): ShopAccess {
    entry.lastUsed = this.options.clock.now();
    const { client, offers, gate, warmUp } = entry;
    return { license: resolved.license, fingerprint: fingerprintOf(resolved.license), client, offers, gate, warmUp, source: resolved.source };
  }

  #resolve(guildId: string, settings: GuildSettings): { apiKey: string; source: 'guild' | 'default' } | { problem: LicenseProblem } | undefined {
    if (settings.license) {
      if (!this.options.secretBox) return { problem: 'no-encryption-key' };
      const apiKey = this.#open(guildId, settings.license);
      if (apiKey !== undefined) return { apiKey, source: 'guild' };
      // Sealed for another guild (copied), or with another ENCRYPTION_KEY: the guild's admins chose
      // their own shop, so it sells nothing rather than the default license's items.
      this.options.logger?.warn({ guild: guildId, fingerprint: settings.license.fingerprint }, "the guild's license does not open here; it sells nothing until an admin sets it again");
      return { problem: 'unreadable' };
    }
    const fallback = this.options.defaultApiKey;
    if (fallback && this.defaultLicenseRefused(guildId)) {
      // Once per version of the guild's settings: the operator sees which guilds try to sell from the default license.
      this.options.logger?.info({ guild: guildId }, 'the guild may not sell from the default license (DEFAULT_LICENSE_GUILDS); it has no shop until an admin sets its own license');
      return undefined;
    }
    return fallback ? { apiKey: fallback, source: 'default' } : undefined;
  }

  #open(guildId: string, license: GuildLicense): string | undefined {
    try {
      return this.options.secretBox?.open(license.sealed, guildId);
    } catch {
      return undefined;
    }
  }

  #hold(license: string, apiKey: string): LicenseEntry {
    const { sharedGateState, logger } = this.options;
    const gate = createStoreGate({ now: () => this.options.clock.now(), license, sharedState: sharedGateState, logger });
    const client = this.#newClient(apiKey, gate, fingerprintOf(license));
    const shared = this.#offerCopies?.forLicense(license);
    const offers = new OfferCache(client, {
      now: () => this.options.clock.now(),
      ...(this.options.offerTtlMs !== undefined ? { ttlMs: this.options.offerTtlMs } : {}),
      ...(shared ? { shared } : {}),
      // What the store says about the shop, kept by license: a rotated key's carts are recognised by it.
      onServers: (servers) => observeShop(license, entry, this.options.identities, this.options.logger, (known) => withServers(known, servers)),
      onServerOffer: (offer) => observeShop(license, entry, this.options.identities, this.options.logger, (known) => withServerOffer(known, offer)),
    });
    // On Redis one process at a time warms a license: the others find its reads in the shared copy.
    const entry: LicenseEntry = { client, offers, gate, warmUp: this.#warmUp(offers, gate, shared ? license : undefined), lastUsed: this.options.clock.now() };
    this.#byLicense.set(license, entry);
    return entry;
  }

  /** The license's background variants read; `sharedLicense` (on Redis) runs it in one process at a time. */
  #warmUp(offers: OfferCache, gate: StoreGate, sharedLicense?: string): VariantWarmUp {
    const { coordination, logger, clock } = this.options;
    const runAlone = sharedLicense && coordination ? (work: () => Promise<void>) => coordination.runAlone(`variants-warm-up:${sharedLicense}`, work) : undefined;
    return new VariantWarmUp({ offers, gate, now: () => clock.now(), ...(runAlone ? { runAlone } : {}), ...(logger ? { logger } : {}) });
  }

  /** A guild cleared or replaced its own license: the old one goes now, not an hour later. */
  #licenseReplaced(guildId: string, before: GuildLicense | undefined, after: GuildLicense | undefined): void {
    if (!before || before.sealed === after?.sealed) return;
    const apiKey = this.#open(guildId, before);
    if (apiKey === undefined) return;
    const old = licenseId(apiKey);
    const next = after && this.#open(guildId, after);
    if (next !== undefined && licenseId(next) === old) return; // the same key, sealed again
    this.#letGo(old);
  }

  #sweepIfDue(): void {
    const now = this.options.clock.now();
    if (now - this.#lastSweep < SWEEP_EVERY_MS) return;
    this.#lastSweep = now;
    for (const [license, entry] of this.#byLicense) {
      if (now - entry.lastUsed >= LICENSE_IDLE_MS) this.#letGo(license);
    }
  }

  /** Requests in flight keep a license: its gate must stay the one every caller goes through. */
  #letGo(license: string): void {
    if (!this.#byLicense.get(license)?.gate.idle) return;
    this.#byLicense.delete(license);
    this.#offerCopies?.forget(license);
  }

  #newClient(apiKey: string, gate?: StoreGate, license?: string): StoreClient {
    const report = this.options.onStoreResponse;
    return new StoreClient({
      baseUrl: this.options.baseUrl,
      apiKey,
      ...(gate ? { gate } : {}),
      ...(report && license ? { onResponse: (info: StoreResponseInfo) => report({ ...info, license }) } : {}),
      ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
      ...(this.options.sleep ? { sleep: this.options.sleep } : {}),
    });
  }
}
