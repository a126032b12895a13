import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { redisUrl, testStorage } from '../support/redis.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { textOf } from '../support/ui.js';
import { afterAll, beforeAll } from 'vitest';

/**
 * Redis going away while the bot runs (a restart, a network cut; a proxy between them stands in):
 * members are told storage is unavailable and nothing is lost; the bot stays connected to Discord
 * and carries on by itself once Redis is back.
 */
describe('when Redis goes away and comes back', () => {
  const upstream = new URL(redisUrl());
  let proxy: TcpProxy;
  const storage = testStorage('outage');
  beforeAll(async () => {
    proxy = await TcpProxy.start({ host: upstream.hostname, port: Number(upstream.port || 6379) });
  });
  // The bot's STORAGE_URL points at the proxy; its port is known only once the proxy listens.
  const h = useHarness({
    get storageUrl() {
      const url = new URL(storage.url);
      url.port = String(proxy.port);
      return url.toString();
    },
  });
  afterAll(async () => {
    await proxy.close();
    await storage.cleanUp();
  });

  it('tells members storage is unavailable, keeps the gateway session, and recovers by itself', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 2);

    proxy.cut();
    await h.logged('Redis connection lost; reconnecting', 3);
    const during = await member.run('cart');
    expect(during.message!.text).toBe(en.common.storageUnavailable);
    expect(h.discord.gatewaySessions().filter((session) => session.live)).toHaveLength(1);

    proxy.restore();
    // Every connection (storage, coordination, change notices) says it is back.
    await h.logged('Redis connection back', 3);
    expect(textOf((await member.run('cart')).message!)).toContain('1. 2 × VIP — 30 dni');
    expect(h.discord.identifies).toHaveLength(1);
  });
});
