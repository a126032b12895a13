import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { redisUrl, TEST_DB, testStorage } from '../support/redis.js';

const DAY = 86_400_000;

/**
 * On Redis, records that expire carry a real time to live: Redis deletes them itself (SQLite needs
 * the sweep: test/flows/reliability/record-expiry.test.ts).
 */
describe('records that expire, on Redis', () => {
  const storage = testStorage('expiry');
  const h = useHarness({ storageUrl: storage.url });
  const redis = new Redis(redisUrl(), { db: TEST_DB, maxRetriesPerRequest: 1 });
  afterAll(async () => {
    redis.disconnect();
    await storage.cleanUp();
  });

  /** Milliseconds left before Redis deletes the bot's key (-1: never). */
  const ttlOf = (key: string) => redis.pttl(`${storage.prefix}:${key}`);

  it('writes a cart with CART_EXPIRY_DAYS to live, again on every change, and a nick with 90 days', async () => {
    const member = new Member(h);
    const cartKey = `cart:${h.discord.defaultGuildId}:${member.user.id}`;
    await addToCart(member, VIP_30, 1);
    const first = await ttlOf(cartKey);
    expect(first).toBeGreaterThan(30 * DAY - 60_000);
    expect(first).toBeLessThanOrEqual(30 * DAY);

    await redis.pexpire(`${storage.prefix}:${cartKey}`, DAY);
    await addToCart(member, VIP_30, 1);
    expect(await ttlOf(cartKey)).toBeGreaterThan(30 * DAY - 60_000);

    await member.run('checkout', { nick: 'Redis_Nick' });
    // A remembered nick is kept per shop (the license's id).
    const nickKey = `nick:${(await h.bot.services.stores.forGuild(h.discord.defaultGuildId))!.license}:${member.user.id}`;
    expect(await ttlOf(nickKey)).toBeGreaterThan(90 * DAY - 60_000);
    expect(await ttlOf(nickKey)).toBeLessThanOrEqual(90 * DAY);
  });
});
