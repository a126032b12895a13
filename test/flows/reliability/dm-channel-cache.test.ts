import { beforeAll, describe, expect, it } from 'vitest';
import { addToCart, Member, VIP_30 } from '../../support/buyer.js';
import { useHarness } from '../../support/harness.js';

const MINUTE_MS = 60_000;

describe('cached DM channels', () => {
  const h = useHarness();
  const dmOpens: string[] = [];
  beforeAll(() => {
    // Every "open a DM" request the bot sends to Discord.
    h.bot.client.rest.on('response', (request) => {
      if (request.method.toUpperCase() === 'POST' && request.path === '/users/@me/channels') dmOpens.push(request.path);
    });
  });

  async function checkout(member: Member): Promise<string> {
    await addToCart(member, VIP_30, 1);
    const dm = h.discord.waitForDm(member.user.id);
    await member.run('checkout', { nick: 'Repeat' });
    return (await dm).channel_id;
  }

  it('are reused while in use and forgotten after an hour', async () => {
    const member = new Member(h);
    const channelId = await checkout(member);
    expect(dmOpens).toHaveLength(1);

    h.clock.advance(31_000);
    await checkout(member); // within the hour: the cached channel, no new request
    expect(dmOpens).toHaveLength(1);
    expect(h.bot.client.channels.cache.has(channelId)).toBe(true);

    // The bot goes on serving others; the member does not come back for over an hour.
    const other = new Member(h);
    for (let minutes = 10; minutes <= 60; minutes += 10) {
      h.clock.advance(10 * MINUTE_MS);
      await other.run('cart');
    }
    expect(h.bot.client.channels.cache.has(channelId)).toBe(true);
    h.clock.advance(10 * MINUTE_MS);
    await other.run('cart');
    expect(h.bot.client.channels.cache.has(channelId)).toBe(false);

    await checkout(member); // opened again, once
    expect(dmOpens).toHaveLength(2);
  });
});
