import type { Clock } from '../../clock.js';
import { messages } from '../../i18n/index.js';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../logger.js';
import { wallClock } from '../../settings/time-zone.js';
import type { InsightsDigestStore } from '../../storage/insights-digest.js';
import { fixedBackoff } from '../jobs/backoff.js';
import type { BackgroundJob } from '../jobs/runner.js';
import type { ShopAccess } from '../store-directory.js';
import type { Insights, RenderedReport } from './insights.js';
import { DAY_MS, dayOf, dayStart } from './keys.js';

/** The digest is due from this hour of a Monday, local time, until that Monday ends. */
export const DIGEST_HOUR = 9;
/** How often the job looks: a digest is posted at most this late after 09:00. */
export const DIGEST_EVERY_MS = 5 * 60_000;
/** Weeks this process remembers as done (posted or claimed elsewhere): no storage read for them again. */
const DONE_KEPT = 50_000;

export type DigestOutcome = 'posted' | 'refused' | 'failed';

/** Discord's side (src/discord/insights-digest-poster.ts). */
export interface DigestPoster {
  /** The language of what the bot posts in the guild's channels. */
  localeFor(guildId: string): Promise<Locale>;
  post(guildId: string, channelId: string, digest: DigestContent): Promise<DigestOutcome>;
  /** The channel refused the bot: the admins are told in the log channel, once. */
  refused(guildId: string, channelId: string): Promise<void>;
}

export interface DigestContent {
  rendered: RenderedReport;
  /** The local date of the Monday it is posted on. */
  monday: string;
  locale: Locale;
  /** A product's name as the offer cache holds it now (no store request). */
  productName: (server: string, product: string) => string | undefined;
}

export interface DigestDeps {
  store: InsightsDigestStore;
  insights: Insights;
  poster: DigestPoster;
  /** The guild's digest channel as its settings hold it now (none: the digest was turned off). */
  channelOf(guildId: string): Promise<string | null>;
  /** The shop the guild sells from; none: nothing to report. */
  shopOf(guildId: string): Promise<ShopAccess | undefined>;
  clock: Clock;
  logger: Logger;
}

/**
 * The weekly digest: every Monday from 09:00 in the guild's time zone, last week's overview posted
 * in the channel the admins named, once across processes and restarts (a claim per guild and week,
 * made before the post). A round reads one record, the registry of guilds with the digest on; the
 * wall clock is read once per time zone; a guild is visited only on its Monday from 09:00, and after
 * its week is done (here or by another process) not again. A bot that was down at 09:00 posts
 * when it is back, within that Monday; on Tuesday that week is skipped. A channel that refuses the
 * bot ends the digest (the guild leaves the registry) and the admins are told once; setting the
 * channel again turns it back on.
 *
 * The week's numbers are the seven UTC days of last Monday's to last Sunday's dates (the counters
 * are kept by UTC day).
 */
export class WeeklyDigest {
  readonly #done = new Set<string>();

  constructor(private readonly deps: DigestDeps) {}

  async round(): Promise<void> {
    const now = this.deps.clock.now();
    const guilds = await this.deps.store.guilds();
    const mondays = new Map<string, string | undefined>();
    for (const [guildId, zone] of Object.entries(guilds)) {
      if (!mondays.has(zone)) {
        const local = wallClock(now, zone);
        mondays.set(zone, local.weekday === 1 && local.hour >= DIGEST_HOUR ? local.date : undefined);
      }
      const monday = mondays.get(zone);
      if (!monday || this.#done.has(`${guildId}:${monday}`)) continue;
      try {
        await this.#guild(guildId, monday);
      } catch (error) {
        // Storage failing: the week is not marked done, the next round tries again (the claim keeps it to one post).
        this.deps.logger.warn({ err: error, guild: guildId }, 'insights digest: could not be posted this round; the next round tries again');
      }
    }
  }

  async #guild(guildId: string, monday: string): Promise<void> {
    const channelId = await this.deps.channelOf(guildId);
    if (!channelId) {
      await this.deps.store.include(guildId, undefined);
      return;
    }
    const shop = await this.deps.shopOf(guildId);
    if (!shop) {
      this.#markDone(guildId, monday);
      return;
    }
    // Read before the claim: a storage failure here leaves the week to the next round.
    const locale = await this.deps.poster.localeFor(guildId);
    const t = messages(locale);
    const lastDay = dayOf(dayStart(monday) - DAY_MS);
    const rendered = await this.deps.insights.report({ guildId, license: shop.license, period: '7d', server: '', lastDay, chart: { locale, words: t.insights.chartWords, title: t.insights.chartTitle } });
    const first = await this.deps.store.claim(guildId, monday);
    this.#markDone(guildId, monday);
    if (!first) return;
    const outcome = await this.deps.poster.post(guildId, channelId, { rendered, monday, locale, productName: (server, product) => productName(shop, server, product) });
    if (outcome === 'refused') {
      this.deps.logger.warn({ guild: guildId, channel: channelId }, 'insights digest: the channel refused the bot; the digest is off until the admins set a channel again');
      await this.deps.store.include(guildId, undefined);
      await this.deps.poster.refused(guildId, channelId);
    } else if (outcome === 'failed') {
      this.deps.logger.warn({ guild: guildId, week: monday }, "insights digest: the post failed; this week's digest is not posted again");
    }
  }

  #markDone(guildId: string, monday: string): void {
    this.#done.add(`${guildId}:${monday}`);
    if (this.#done.size > DONE_KEPT) this.#done.delete(this.#done.values().next().value!);
  }

  job(): BackgroundJob {
    return {
      name: 'insights-digest',
      everyMs: DIGEST_EVERY_MS,
      work: () => this.round(),
      backoff: fixedBackoff(DIGEST_EVERY_MS),
      doing: 'posting the weekly insights digests',
      failed: 'the weekly insights digests could not be read',
      cost: {
        storeRequestsPerHour: '0 (the digest reads the insights counters, never the store)',
        readsPerRound:
          "one read of the registry of guilds with the digest on (none per guild without it); from 09:00 on a guild's Monday, once that week: its settings and license (cached), its insights report (the 14 day records) and one claim",
        writesPerRound: 'none, except one claim per guild with the digest on per week',
      },
    };
  }
}

function productName(shop: ShopAccess, server: string, product: string): string | undefined {
  for (const category of shop.offers.peekServer(server)?.categories ?? []) {
    const found = category.products.find((candidate) => candidate.id === product);
    if (found) return found.name;
  }
  return undefined;
}
