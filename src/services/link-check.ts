import type { Clock } from '../clock.js';
import type { WindowCounter } from '../coordination/window-counter.js';
import type { PaymentLink, PaymentLinkRepository } from '../storage/payment-links.js';
import { StorageError } from '../storage/storage-error.js';

/**
 * "Check payment link" for every member: is each URL in a message one this bot issued in this
 * server? Exact match through the URL index, as the moderators' /links verify. A URL the bot did not
 * issue is answered with the address the bot's own links go to, read from the guild's newest links,
 * so a look-alike domain stands out. Limited per member (CHECKS_PER_MINUTE): a check costs one index
 * read per reading of a URL (one, or a few when Markdown or punctuation follows it) and one record
 * read for an issued one, and at most HOST_SAMPLE record reads more for the real address.
 */

/** Messages a member can check in a minute. */
export const CHECKS_PER_MINUTE = 10;
/** URLs checked in one message; a message with more says the rest were not checked. */
export const URLS_PER_CHECK = 10;
/** The guild's newest links read to learn where the shop's payment pages are. */
const HOST_SAMPLE = 5;
const MINUTE_MS = 60_000;

export type CheckAdmission = { kind: 'admitted' } | { kind: 'full'; retryAfterSeconds: number };

/** An address as found in a message: how a reader names it, and each reading of it worth looking up (most literal first). */
export interface AddressReadings {
  shown: string;
  readings: readonly string[];
}

export interface UrlCheck {
  /** The reading the bot issued, or else the address as shown. */
  url: string;
  /** The record when this exact URL was issued by the bot in this guild. */
  link: PaymentLink | undefined;
}

export interface LinkCheckResult {
  checks: UrlCheck[];
  /** The hosts the bot's recent links in this guild go to (the shop's real payment site), when any were issued. */
  shopHosts: string[];
}

export class LinkCheck {
  constructor(
    private readonly links: PaymentLinkRepository,
    private readonly counter: WindowCounter,
    private readonly clock: Clock,
  ) {}

  /** Counts one check for the member; refused (with the seconds to wait) past CHECKS_PER_MINUTE in the current minute. */
  async admit(guildId: string, userId: string): Promise<CheckAdmission> {
    const now = this.clock.now();
    let count: number;
    try {
      count = await this.counter.hit(`link-checks:${guildId}:${userId}`, MINUTE_MS, now);
    } catch (error) {
      // The counter lives in Redis when processes share it: its failure is storage's, told as such.
      throw new StorageError('write', 'link-checks', error);
    }
    if (count <= CHECKS_PER_MINUTE) return { kind: 'admitted' };
    return { kind: 'full', retryAfterSeconds: Math.max(1, Math.ceil((MINUTE_MS - (now % MINUTE_MS)) / 1000)) };
  }

  /**
   * What the bot knows of each address (the first URLS_PER_CHECK), and the shop's real payment hosts
   * when one is not its own. An address's readings are looked up in order until one was issued (one
   * index read each, a handful at most: commands/check-link/message-urls.ts).
   */
  async check(guildId: string, addresses: readonly AddressReadings[]): Promise<LinkCheckResult> {
    const checked = addresses.slice(0, URLS_PER_CHECK);
    const checks = await Promise.all(checked.map((address) => this.#firstIssued(guildId, address)));
    const shopHosts = checks.every((check) => check.link) ? [] : await this.shopHosts(guildId);
    return { checks, shopHosts };
  }

  async #firstIssued(guildId: string, address: AddressReadings): Promise<UrlCheck> {
    for (const url of address.readings) {
      const link = await this.links.findByUrl(guildId, url);
      if (link) return { url, link };
    }
    return { url: address.shown, link: undefined };
  }

  private async shopHosts(guildId: string): Promise<string[]> {
    const recent = await this.links.listRecent(guildId, HOST_SAMPLE);
    return [...new Set(recent.map((link) => (link.url === undefined ? undefined : hostOf(link.url))).filter((host): host is string => host !== undefined))];
  }
}

/** The host of a URL, lower-case; undefined when it does not parse. */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
