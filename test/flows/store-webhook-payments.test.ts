import { GatewayIntentBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { ADMIN, connectStoreWebhook as connect, loggedMore, postAsStore, TEMPLATE } from '../support/store-webhook.js';
import { textOf } from '../support/ui.js';

/**
 * The store's purchase webhook as the fast path. The admin connects it (the bot identified with
 * Guild Messages at login: STORE_WEBHOOK_INTENT), the local store posts each purchase through it, and the bot
 * confirms the payment with the store (transaction/info) with no poll in between. The post is never
 * trusted: a forged id costs one question at most, and 10 a minute per license.
 */

describe('the store webhook confirms payments', () => {
  const h = useHarness();
  const s = linkSteps(h);
  let admin: Member;
  let hook: { id: string; token: string; url: string; channelId: string };
  beforeAll(async () => {
    admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    hook = await connect(h, admin);
  });

  it('identified with Guild Messages (never Message Content) at login; connecting made no second IDENTIFY', () => {
    expect(h.discord.identifies.map((record) => record.intents & (GatewayIntentBits.GuildMessages | GatewayIntentBits.MessageContent))).toEqual([GatewayIntentBits.GuildMessages]);
  });

  it('a paid link is confirmed from the post, with no poll in between: the DM says paid', async () => {
    h.store.purchaseWebhooks.configs.splice(0, Infinity, { url: hook.url, template: TEMPLATE });
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Fast_Payer', VIP_30);
    await s.poll();
    const polls = h.store.requestsTo('latestBuyers').length;
    const infos = h.store.requestsTo('transactionInfo').length;
    const read = loggedMore(h, 'store webhook: post read');
    const transactionId = h.store.pay(issued.url);
    await h.store.purchaseWebhooks.settled();
    await read;
    expect(h.store.purchaseWebhooks.statuses.at(-1)).toBe(200);
    expect((await s.record(issued))!.payment?.status).toBe('paid');
    // The post is no evidence of when: transaction/info gives no date, so one read of the server's latest purchases placed it.
    expect(h.store.requestsTo('latestBuyers')).toHaveLength(polls + 1);
    expect(h.store.requestsTo('transactionInfo').map((request) => request.path).slice(infos)).toEqual([`/v4/transaction/info/${transactionId}`]);
    await h.bot.services.delivery.whenIdle();
    expect(s.dmNow(issued)!.text).toContain('✅ The shop reports this order as paid');
    const status = textOf((await admin.sub('shop-admin', 'status')).message!);
    expect(status).toContain('Payments it confirmed in the last 24 h: 1.');

    // The next poll finds it decided: no second question, no second DM edit.
    const edits = s.dmNow(issued)!.edits;
    await s.poll();
    expect(h.store.requestsTo('transactionInfo')).toHaveLength(infos + 1);
    expect(s.dmNow(issued)!.edits).toBe(edits);
  });

  it('a forged id costs one question and reaches no member; 200 forged posts cost at most 10 questions a minute, queued, not dropped', async () => {
    h.store.purchaseWebhooks.configs.splice(0);
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Patient_Payer', VIP_30);
    await s.poll();
    const infos = h.store.requestsTo('transactionInfo').length;
    const post = (content: string) => fetch(`${hook.url}?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content }) });
    const forged = '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
    let read = loggedMore(h, 'store webhook: post read');
    await post(`Zakup Patient_Payer: VIP, 10,00 zł, ${forged}`);
    await read;
    expect(h.store.requestsTo('transactionInfo').slice(infos).map((request) => request.path)).toEqual([`/v4/transaction/info/${forged}`]);
    expect((await s.record(issued))!.payment).toBeUndefined();
    expect(s.dmNow(issued)!.edits).toBe(0);

    const before = h.store.requestsTo('transactionInfo').length;
    // Each post read before the next is sent (a flood sent at once is read newest first, at most 50
    // waiting: store-webhook-queue.test.ts).
    for (let index = 0; index < 200; index += 1) {
      read = loggedMore(h, 'store webhook: post read');
      await post(`Zakup: ${crypto.randomUUID()} ${'x'.repeat(index % 7)}`);
      await read;
    }
    h.clock.advance(5_000);
    await s.tick();
    // 10 a minute (the first forged post named an open link's nick: its own budget, one per 10 s). The
    // rest wait in the queue, never dropped: the next minute asks 10 more (the newest first).
    expect(h.store.requestsTo('transactionInfo').length - before).toBe(10);
    await s.poll(1, 60_000);
    expect(h.store.requestsTo('transactionInfo').length - before).toBe(20);
    // An id the store does not know was named by whoever holds the URL: asked once, never again
    // (before: each was followed 30 days, every few hours, as a purchase the store lists is). The
    // queue empties at 10 a minute: 200 ids in about 20 minutes, then nothing more is asked.
    await s.poll(24, 30 * 60_000);
    const asked = h.store.requestsTo('transactionInfo').length;
    expect(asked - before).toBe(200);
    await s.poll(4, 30 * 60_000);
    expect(h.store.requestsTo('transactionInfo').length).toBe(asked);
    expect(h.bot.services.storeWebhooks.known().size).toBe(1);
    expect(s.dmNow(issued)!.edits).toBe(0);
    expect(h.discord.messagesIn(issued.dm.channel_id).map(textOf).join('\n')).not.toContain('Zakup');
    expect(en.storeWebhook.template).toContain('{TRANSACTION_ID}');
  }, 120_000);
});

describe('the store webhook, in the cases around the fast path', () => {
  const h = useHarness();
  const s = linkSteps(h);
  let hook: { id: string; token: string; url: string; channelId: string };
  beforeAll(async () => {
    hook = await connect(h, new Member(h, { permissions: ADMIN, username: 'owner' }));
  });

  it('reads a Polish post with the id in an embed field', async () => {
    h.store.purchaseWebhooks.configs.splice(0, Infinity, { url: hook.url, template: 'Gracz {NICK} kupił {PRODUCT} ({VARIANT}) za {AMOUNT} metodą {METHOD}. Transakcja: {TRANSACTION_ID}', title: 'Nowy zakup w sklepie', layout: 'field' });
    const issued = await s.checkout(new Member(h), 'Polski_Gracz', VIP_30);
    await s.poll();
    const read = loggedMore(h, 'store webhook: post read');
    h.store.pay(issued.url);
    await h.store.purchaseWebhooks.settled();
    await read;
    const post = h.discord.messagesIn(hook.channelId).at(-1)!;
    expect(post.content).toBe('');
    expect(JSON.stringify(post.embeds)).toContain('Gracz Polski_Gracz kupił');
    expect((await s.record(issued))!.payment?.status).toBe('paid');
  });

  it('follows a transaction posted while the store still says pending, and settles it once paid', async () => {
    h.store.purchaseWebhooks.configs.splice(0);
    const issued = await s.checkout(new Member(h), 'Pending_Payer', VIP_30);
    await s.poll();
    const transactionId = h.store.pay(issued.url, { status: 'pending' });
    const read = loggedMore(h, 'store webhook: post read');
    await postAsStore(hook, `Zakup Pending_Payer: ${transactionId}`);
    await read;
    expect((await s.record(issued))!.payment?.status).toBe('pending');
    h.store.setStatus(transactionId, 'paid');
    await s.poll(3);
    expect((await s.record(issued))!.payment?.status).toBe('paid');
  });

  it('loses nothing when the bot restarts between the post and the store’s answer', async () => {
    h.store.purchaseWebhooks.configs.splice(0);
    const issued = await s.checkout(new Member(h), 'Restart_Payer', VIP_30);
    await s.poll();
    const transactionId = h.store.pay(issued.url);
    // The store cannot answer now: the post's id waits in the watcher's storage.
    h.store.failNext('transactionInfo', { status: 503, body: { message: 'busy' } }, 10);
    const read = loggedMore(h, 'store webhook: post read');
    await postAsStore(hook, `Zakup Restart_Payer: ${transactionId}`);
    await read;
    expect((await s.record(issued))!.payment).toBeUndefined();
    await h.restart();
    h.store.clearFaults('transactionInfo');
    // Latest buyers stays down: only the id the post handed over can settle the link, placed in time
    // by the date the store's answer gives (the Java SDK's createdAt; a post is no evidence of when).
    h.store.failNext('latestBuyers', { status: 503, body: { message: 'busy' } }, 50);
    h.store.infoDates = 'createdAt';
    await s.poll(2);
    h.store.infoDates = 'none';
    expect((await s.record(issued))!.payment?.status).toBe('paid');
  });
});
