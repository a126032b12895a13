import type { Clock } from '../clock.js';
import type { WindowCounter } from '../coordination/window-counter.js';
import type { PaymentLink, PaymentLinkRepository } from '../storage/payment-links.js';
import { StorageError } from '../storage/storage-error.js';

/**
 * "Check payment link" for every member: is each URL in a message one this bot issued in this
 * server? Exact match through the URL index, as the moderators' /links verify. A URL the bot did not
 * issue is answered with the address the bot's own links go to, read from the guild's newest links,
 * so a look-alike domain stands out. Limited per member (CHECKS_PER_MINUTE): a check costs one index
 * read and one record read per URL, and at most HOST_SAMPLE record reads more for the real address.
 */

/** Messages a member can check in a minute. */
export const CHECKS_PER_MINUTE = 10;
/** URLs checked in one message; a message with more says the rest were not checked. */
export const URLS_PER_CHECK = 10;
/** The guild's newest links read to learn where the shop's payment pages are. */
const HOST_SAMPLE = 5;
const MINUTE_MS = 60_000;

export type CheckAdmission = { kind: 'admitted' } | { kind: 'full'; retryAfterSeconds: number };

export interface UrlCheck {
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

  /** What the bot knows of each URL (the first URLS_PER_CHECK), and the shop's real payment hosts when a URL is not its own. */
  async check(guildId: string, urls: readonly string[]): Promise<LinkCheckResult> {
    const checked = urls.slice(0, URLS_PER_CHECK);
    const checks = await Promise.all(checked.map(async (url) => ({ url, link: await this.links.findByUrl(guildId, url) })));
    const shopHosts = checks.every((check) => check.link) ? [] : await this.shopHosts(guildId);
    return { checks, shopHosts };
  }

  private async shopHosts(guildId: string): Promise<string[]> {
    const recent = await this.links.listRecent(guildId, HOST_SAMPLE);
    return [...new Set(recent.map((link) => hostOf(link.url)).filter((host): host is string => host !== undefined))];
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
