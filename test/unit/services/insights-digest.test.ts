import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/logger.js';
import { WeeklyDigest, type DigestPoster } from '../../../src/services/insights/digest.js';
import { Insights } from '../../../src/services/insights/insights.js';
import type { ShopAccess } from '../../../src/services/store-directory.js';
import { InsightsDigestStore } from '../../../src/storage/insights-digest.js';
import { KeyvInsightsStore } from '../../../src/storage/insights.js';
import { ChartDouble } from '../../support/chart-double.js';

/**
 * The weekly digest's round at 10 000 guilds with it on: a round outside a guild's Monday morning
 * reads the registry and nothing per guild; on the Monday each guild is visited once a week, then
 * never again that week (remembered in memory, and claimed in storage for other processes).
 */
describe('the weekly digest at 10 000 guilds', () => {
  it('costs one registry read a round, and visits each guild once on its Monday', async () => {
    const keyv = new Keyv();
    const logger = createLogger('silent');
    // Sunday 22 November 2026, 12:00 UTC.
    const clock = new ManualClock();
    const store = new InsightsDigestStore(keyv, logger);
    const guilds = Array.from({ length: 10_000 }, (_, index) => `${100_000_000_000_000_000n + BigInt(index)}`);
    // Written as the setup service would, half in Warsaw and half in New York.
    const registry = Object.fromEntries(guilds.map((id, index) => [id, index % 2 === 0 ? 'Europe/Warsaw' : 'America/New_York']));
    await keyv.set('insights-digest-guilds', registry);
    const insights = new Insights({ store: new KeyvInsightsStore(keyv), clock, logger, renderer: new ChartDouble() });
    const visits = { channel: 0, posts: 0 };
    const poster: DigestPoster = {
      localeFor: async () => 'en',
      post: async () => {
        visits.posts += 1;
        return 'posted';
      },
      refused: async () => undefined,
    };
    const digest = new WeeklyDigest({
      store,
      insights,
      poster,
      channelOf: async () => {
        visits.channel += 1;
        return '200000000000000000';
      },
      shopOf: async () => ({ license: 'key', offers: { peekServer: () => undefined } }) as unknown as ShopAccess,
      clock,
      logger,
    });

    await digest.round();
    expect(visits).toEqual({ channel: 0, posts: 0 });

    clock.advance(20 * 3_600_000); // Monday 08:00 UTC: 09:00 in Warsaw, 03:00 in New York
    let started = performance.now();
    await digest.round();
    const mondayMs = performance.now() - started;
    expect(visits).toEqual({ channel: 5_000, posts: 5_000 });

    started = performance.now();
    await digest.round();
    const quietMs = performance.now() - started;
    expect(visits).toEqual({ channel: 5_000, posts: 5_000 });
    // A round with nothing due reads the registry and the wall clock of two zones: no guild costs it anything.
    expect(quietMs).toBeLessThan(mondayMs);

    clock.advance(6 * 3_600_000); // 09:00 in New York
    await digest.round();
    expect(visits).toEqual({ channel: 10_000, posts: 10_000 });

    // Another process (a fresh digest, the same storage) finds every week claimed: nothing posted twice.
    const other = new WeeklyDigest({ store, insights, poster, channelOf: async () => '200000000000000000', shopOf: async () => ({ license: 'key', offers: { peekServer: () => undefined } }) as unknown as ShopAccess, clock, logger });
    await other.round();
    expect(visits.posts).toBe(10_000);
  }, 120_000);
});
