import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { PaymentLinkRepository, type NewPaymentLink } from '../../../src/storage/payment-links.js';

const T0 = Date.UTC(2026, 10, 1, 12);
const DAY = 86_400_000;

/** An in-memory store that counts what is written: statements (set / setMany calls) and bytes. */
function countingRepository() {
  const writes: { statements: number; bytes: number; onSet?: (key: string) => void } = { statements: 0, bytes: 0 };
  class CountingStore extends Map<string, unknown> {
    override set(key: string, value: unknown): this {
      writes.statements += 1;
      writes.bytes += key.length + JSON.stringify(value).length;
      writes.onSet?.(key);
      return super.set(key, value);
    }
    setMany(entries: { key: string; value: unknown }[]): boolean[] {
      writes.statements += 1;
      for (const { key, value } of entries) {
        writes.bytes += key.length + JSON.stringify(value).length;
        writes.onSet?.(key);
        super.set(key, value);
      }
      return entries.map(() => true);
    }
  }
  const keyv = new Keyv({ store: new CountingStore() });
  return { keyv, writes, repository: new PaymentLinkRepository(keyv, createLogger('silent')) };
}

function newLink(index: number, change: Partial<NewPaymentLink> = {}): NewPaymentLink {
  return {
    guildId: `g${index % 7}`,
    userId: `u${index}`,
    nick: 'Steve_123',
    items: [{ variantId: 'v', quantity: 1, serverName: 'Survival', productName: 'VIP', variantName: '30 dni' }],
    url: `https://shop.example/pay/${index}`,
    license: 'l',
    createdAt: T0 + index,
    ...change,
  };
}

describe('writing a payment link', () => {
  it('writes the record and all its indexes in one statement', async () => {
    const { repository, writes } = countingRepository();
    await repository.create(newLink(0)); // a guild's first link of a day also notes the day and the guild
    writes.statements = 0;
    await repository.create(newLink(7)); // the same guild, the same day
    expect(writes.statements).toBe(1);
  });

  it('writes about as much for the thousandth link of a busy day as for the first', async () => {
    const { repository, writes } = countingRepository();
    const bytesOf = async (index: number) => {
      writes.bytes = 0;
      await repository.create(newLink(index));
      return writes.bytes;
    };
    const early = await bytesOf(1);
    for (let index = 2; index < 1000; index += 1) await repository.create(newLink(index));
    const late = await bytesOf(1000);
    // A single list per day made the thousandth write carry a thousand entries (~30 kB).
    expect(late).toBeLessThan(early + 5_000);
  });

  it('prunes days written before the index had buckets as well as new ones', async () => {
    const { keyv, repository } = countingRepository();
    const legacy = await repository.create(newLink(1, { createdAt: T0 - 3 * DAY }));
    // As the previous version stored a day: one list of [guild, link] pairs under the day's key.
    const day = new Date(T0 - 3 * DAY).toISOString().slice(0, 10);
    await keyv.delete([`link-day-buckets:${day}:g${legacy.guildId}`, `link-day:${day}:g${legacy.guildId}:1`, `link-day-guilds:${day}`]);
    await keyv.set(`link-day:${day}`, [[legacy.guildId, legacy.id]]);
    const current = await repository.create(newLink(2, { createdAt: T0 - 2 * DAY }));
    const kept = await repository.create(newLink(3, { createdAt: T0 }));

    expect(await repository.pruneOlderThan(T0 - DAY)).toBe(2);
    expect(await repository.get(legacy.guildId, legacy.id)).toBeUndefined();
    expect(await repository.get(current.guildId, current.id)).toBeUndefined();
    expect(await repository.get(kept.guildId, kept.id)).toBeDefined();
    expect(await repository.pruneOlderThan(T0 - DAY)).toBe(0);
  });

  it('writes the links of one guild made at the same moment together: each listed, newest first, a full day bucket continued in the next', async () => {
    const { keyv, repository, writes } = countingRepository();
    const inGuild = (index: number) => newLink(index, { guildId: 'g0', userId: `u${index}` });
    const first = await repository.create(inGuild(0));
    writes.statements = 0;
    // 150 at once; one at a time, each read and rewrote the guild's lists under their locks: 150 statements.
    const made = await Promise.all(Array.from({ length: 150 }, (_, index) => repository.create(inGuild(index + 1))));
    expect(writes.statements).toBeLessThanOrEqual(4);

    expect((await repository.listRecent('g0')).map((link) => link.id)).toEqual(made.map((link) => link.id).reverse().slice(0, 50));
    for (const link of made.slice(0, 5)) expect((await repository.listForMember('g0', link.userId, 0, 5)).links.map((each) => each.id)).toEqual([link.id]);
    // The day's index: every link in the order made, 100 to a bucket.
    const day = new Date(T0).toISOString().slice(0, 10);
    const bucket = async (n: number) => ((await keyv.get<[string, string][]>(`link-day:${day}:gg0:${n}`)) ?? []).map(([, id]) => id);
    const all = [first.id, ...made.map((link) => link.id)];
    expect(await bucket(1)).toEqual(all.slice(0, 100));
    expect(await bucket(2)).toEqual(all.slice(100));
    expect(await keyv.get(`link-day-buckets:${day}:gg0`)).toBe(2);
  });

  it("writes no key that every guild's checkouts rewrite: each guild's links of a day have an index of their own", async () => {
    const { repository, writes } = countingRepository();
    for (let index = 0; index < 7; index += 1) await repository.create(newLink(index)); // the first link of each of 7 guilds
    const written = new Map<string, number>();
    writes.onSet = (key) => written.set(key, (written.get(key) ?? 0) + 1);
    for (let index = 7; index < 70; index += 1) await repository.create(newLink(index));
    // 63 links over 7 guilds: no key was written by more than that guild's own 9 checkouts.
    expect(Math.max(...written.values())).toBeLessThanOrEqual(9);
    expect([...written.keys()].filter((key) => key.includes('link-day')).every((key) => /:gg\d/.test(key))).toBe(true);
  });
});
