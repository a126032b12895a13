import { describe, expect, it } from 'vitest';
import { createdAtOf, indexPair, indexRuleOf, mergedRaw, recordKeysToOrder, sourceAdds } from '../../../src/storage/index-merge.js';
import { RECENT_LIMIT } from '../../../src/storage/payment-links.js';

/** How the migration's --replace merges index lists (the in-Redis migration test runs it end to end). */

const stored = (value: unknown) => JSON.stringify({ value });
const GUILD = '100000000000000001';

describe('index lists merged by the migration', () => {
  it('knows which records are index lists; every other record is replaced whole', () => {
    expect(indexRuleOf(`links-of:${GUILD}:200`)).toEqual({ order: 'newest-first', guildId: GUILD });
    expect(indexRuleOf(`links-recent:${GUILD}`)).toEqual({ order: 'newest-first', guildId: GUILD, limit: RECENT_LIMIT });
    expect(indexRuleOf('link-days')).toEqual({ order: 'sorted' });
    expect(indexRuleOf(`link-day-buckets:2025-01-02:g${GUILD}`)).toEqual({ order: 'count' });
    expect(indexRuleOf(`link-day:2025-01-02:g${GUILD}:1`)).toEqual({ order: 'added' });
    expect(indexRuleOf('link-day-guilds:2025-01-02')).toEqual({ order: 'added' });
    for (const key of [`link:${GUILD}:ABC`, `link-url:${GUILD}:f00d`, `cart:${GUILD}:200`, 'nick:200', `guild:${GUILD}`]) expect(indexRuleOf(key)).toBeUndefined();
    // A value that is not a list as the bot writes it is replaced, as any record.
    expect(indexPair(`links-of:${GUILD}:200`, stored({ not: 'a list' }), stored(['A']))).toBeUndefined();
  });

  it("orders a member's links newest first by their records, ids without a record last, the recent list cut at its limit", () => {
    const times = new Map([
      ['A', 10],
      ['B', 30],
      ['C', 20],
    ]);
    const createdAt = (key: string) => times.get(key.split(':')[2]!);
    const pair = indexPair(`links-of:${GUILD}:200`, stored(['B', 'GONE', 'A']), stored(['C', 'A']))!;
    expect(sourceAdds(pair)).toBe(true);
    expect(recordKeysToOrder(pair)).toEqual(['B', 'GONE', 'A', 'C'].map((id) => `link:${GUILD}:${id}`));
    expect(JSON.parse(mergedRaw(pair, createdAt))).toEqual({ value: ['B', 'C', 'A', 'GONE'] });

    const full = Array.from({ length: RECENT_LIMIT }, (_unused, index) => `N${index}`);
    const recent = indexPair(`links-recent:${GUILD}`, stored(full), stored(['OLD']))!;
    const fullTimes = (key: string) => (key.endsWith(':OLD') ? 0 : 1_000 - Number(key.split(':N')[1]));
    // The source's older link falls past the limit: the target's list is what it was.
    expect(mergedRaw(recent, fullTimes)).toBe(stored(full));
  });

  it("keeps the list of days sorted, a day's entries in the order added, the larger bucket count, and the target's expiry", () => {
    const days = indexPair('link-days', stored(['2025-01-01', '2025-01-05']), stored(['2025-01-01', '2025-01-03']))!;
    expect(JSON.parse(mergedRaw(days, () => undefined)).value).toEqual(['2025-01-01', '2025-01-03', '2025-01-05']);

    const bucket = indexPair(`link-day:2025-01-02:g${GUILD}:1`, stored([[GUILD, 'A'], [GUILD, 'B']]), stored([[GUILD, 'A'], [GUILD, 'C']]))!;
    expect(JSON.parse(mergedRaw(bucket, () => undefined)).value).toEqual([[GUILD, 'A'], [GUILD, 'B'], [GUILD, 'C']]);

    const key = `link-day-buckets:2025-01-02:g${GUILD}`;
    expect(sourceAdds(indexPair(key, stored(3), stored(2))!)).toBe(false);
    expect(mergedRaw(indexPair(key, JSON.stringify({ value: 2, expires: 99 }), stored(3))!, () => undefined)).toBe(JSON.stringify({ value: 3, expires: 99 }));

    // The target already holds every id of the source's: nothing to merge.
    expect(sourceAdds(indexPair(`links-of:${GUILD}:200`, stored(['B', 'A']), stored(['A']))!)).toBe(false);
    expect(createdAtOf(stored({ id: 'A', createdAt: 5 }))).toBe(5);
    expect(createdAtOf(undefined)).toBeUndefined();
  });
});
