import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { startBotsOnRedis, type BotsOnRedis } from '../support/bots-on-redis.js';
import { ADMIN, connectStoreWebhook, TEMPLATE } from '../support/store-webhook.js';
import { buttons } from '../support/ui.js';

/**
 * Issue 38: two bots on one Redis both see the store's post (both gateways deliver it, both read it
 * through the webhook's token): the payment is confirmed with the store once, the DM edited once.
 */
describe('two bots on one Redis, one store post', () => {
  let env: BotsOnRedis;
  beforeAll(async () => {
    env = await startBotsOnRedis('store-webhook');
  });
  afterAll(() => env.close());

  it('one post: one transaction/info, one DM edit, whichever process reads it first', async () => {
    const { discord, store, clock } = env;
    const admin = new Member({ discord }, { session: discord.gatewaySessions()[0]!.id, permissions: ADMIN, username: 'owner' });
    const hook = await connectStoreWebhook({ discord }, admin);
    // The other process learns of the connection at its start (docs/store-webhook.md).
    await env.restart(1);
    store.purchaseWebhooks.configs.push({ url: hook.url, template: TEMPLATE });
    const sessions = discord.gatewaySessions().map((session) => session.id);
    expect(sessions).toHaveLength(2);

    const buyer = new Member({ discord }, { session: sessions[0]! });
    await addToCart(buyer, VIP_30);
    const dmSent = discord.waitForDm(buyer.user.id);
    await buyer.run('checkout', { nick: 'Hook_Procs' });
    const dm = await dmSent;
    await Promise.all(env.bots.map((bot) => bot.services.payments.tick()));
    const polls = store.requestsTo('latestBuyers').length;

    const read = new RegExp(`^/webhooks/${hook.id}/[^/]+/messages/`);
    const reads = [discord.waitForRequest('GET', read), discord.waitForRequest('GET', read)];
    const edited = discord.waitForRequest('PATCH', new RegExp(`/messages/${dm.id}$`));
    store.pay(-1);
    await store.purchaseWebhooks.settled();
    await Promise.all([...reads, edited]);
    // Both processes read the post; the rounds after it find the transaction decided.
    for (let round = 0; round < 3; round += 1) {
      clock.advance(5_000);
      await Promise.all(env.bots.map((bot) => bot.services.payments.tick()));
    }

    expect(store.requestsTo('transactionInfo')).toHaveLength(1);
    // The store's answer carries no date: one read of the server's latest purchases places it in time.
    expect(store.requestsTo('latestBuyers')).toHaveLength(polls + 1);
    const message = discord.message(dm.channel_id, dm.id)!;
    expect(message.edits).toBe(1);
    expect(buttons(message)).toEqual([]);
  });
});
