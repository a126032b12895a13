import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import type { InsightsCounter } from '../../../src/services/insights/counter.js';
import { InsightsCounting, SEARCH_WORDS_PER_GUILD_DAY } from '../../../src/services/insights/counting.js';

/**
 * Anyone can type anything into `/shop item:`: the searches that found nothing are counted within a
 * budget per guild and day, so a flood of made-up words cannot grow the guild's record without end.
 */
describe('the searches that found nothing, counted within a budget', () => {
  it('counts at most SEARCH_WORDS_PER_GUILD_DAY a guild a day in this process, and again the next day', () => {
    const counted: string[] = [];
    const counter = { member: (guildId: string, day: string, _user: string, scope: string) => counted.push(`${guildId}|${day}|${scope}`), add: () => undefined } as unknown as InsightsCounter;
    const clock = new ManualClock();
    const counting = new InsightsCounting(counter, clock);
    for (let index = 0; index <= SEARCH_WORDS_PER_GUILD_DAY; index += 1) counting.searchMissed('g1', `member${index}`, `word${String.fromCharCode(97 + (index % 26))}${Math.floor(index / 26).toString(36).replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)}`);
    expect(counted).toHaveLength(SEARCH_WORDS_PER_GUILD_DAY);
    // Another guild has a budget of its own.
    counting.searchMissed('g2', 'member', 'elytra');
    expect(counted.at(-1)).toMatch(/^g2\|/);
    clock.advance(24 * 3_600_000);
    counting.searchMissed('g1', 'member', 'elytra');
    expect(counted).toHaveLength(SEARCH_WORDS_PER_GUILD_DAY + 2);
  });
});
