import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness, type Harness } from '../support/harness.js';
import { linkSteps, type Issued } from '../support/links.js';
import { ADMIN, connectStoreWebhook, loggedMore, postAsStore, TEMPLATE } from '../support/store-webhook.js';
import { textOf } from '../support/ui.js';

/**
 * The store's webhook is news, never a date or a quota (docs/store-webhook.md, "What the bot does
 * with a post"): a posted purchase is placed in time by the store's own evidence, posted ids wait in
 * a paced queue instead of being dropped, a followed transaction's post makes it due at once, and a
 * flood of forged ids can neither hide a real payment nor keep the webhook looking healthy.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const PAID = '✅ The shop reports this order as paid';

type Hook = { id: string; token: string; url: string; channelId: string };

/** Connects the guild's webhook once per harness (the describe's beforeAll); the store posts nothing by itself until a test says so. */
function setUp(h: Harness): () => { admin: Member; hook: Hook } {
  let connected: { admin: Member; hook: Hook } | undefined;
  beforeAll(async () => {
    const admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    connected = { admin, hook: await connectStoreWebhook(h, admin) };
  });
  return () => {
    h.store.purchaseWebhooks.configs.splice(0);
    return connected!;
  };
}

/** Posts through the webhook's URL and waits until the bot read the post. */
async function post(h: Harness, hook: Hook, content: string): Promise<void> {
  const read = loggedMore(h, 'store webhook: post read');
  await postAsStore(hook, content);
  await read;
}

const forgedIds = (count: number) => Array.from({ length: count }, () => crypto.randomUUID());

describe('a post is news, not evidence of when', () => {
  const h = useHarness();
  const s = linkSteps(h);
  const connected = setUp(h);

  it('an old website purchase posted after a copycat opened a link for its nick and items settles nothing', async () => {
    const { hook } = connected();
    const copycat = await s.checkout(new Member(h), 'Old_Buyer', VIP_30);
    const items = h.store.issuedLinks.at(-1)!.items;
    // Bought on the website three days ago; the bot has no record of it.
    const old = h.store.purchaseOnWebsite({ nick: 'Old_Buyer', items, date: h.clock.now() - 3 * DAY });
    await s.poll();
    await post(h, hook, `Zakup Old_Buyer: VIP (30 dni), 10,00 zł, ${old}`);
    await s.poll(2, 5_000);
    await h.bot.services.delivery.whenIdle();
    expect((await s.record(copycat))!.payment).toBeUndefined();
    expect(s.dmNow(copycat)!.edits).toBe(0);
  });

  it('the same when the old purchase is pushed out of the latest purchases and the store dates it only in transaction/info (createdAt)', async () => {
    const { hook } = connected();
    h.store.infoDates = 'createdAt';
    try {
      const copycat = await s.checkout(new Member(h), 'Older_Buyer', VIP_30);
      const items = h.store.issuedLinks.at(-1)!.items;
      const old = h.store.purchaseOnWebsite({ nick: 'Older_Buyer', items, date: h.clock.now() - 40 * DAY });
      for (let index = 0; index < 31; index += 1) h.store.purchaseOnWebsite({ nick: `Someone_${index}`, items, date: h.clock.now() - DAY });
      await s.poll();
      await post(h, hook, `Zakup Older_Buyer: VIP (30 dni), 10,00 zł, ${old}`);
      await s.poll(2, 5_000);
      expect((await s.record(copycat))!.payment).toBeUndefined();
    } finally {
      h.store.infoDates = 'none';
    }
  });

  it('an undated purchase the latest purchases do not list settles no link issued before its post', async () => {
    const { hook } = connected();
    const copycat = await s.checkout(new Member(h), 'Gone_Buyer', VIP_30);
    const items = h.store.issuedLinks.at(-1)!.items;
    const old = h.store.purchaseOnWebsite({ nick: 'Gone_Buyer', items, date: h.clock.now() - 5 * DAY });
    for (let index = 0; index < 31; index += 1) h.store.purchaseOnWebsite({ nick: `Other_${index}`, items, date: h.clock.now() - DAY });
    await s.poll();
    await post(h, hook, `Zakup Gone_Buyer: VIP (30 dni), 10,00 zł, ${old}`);
    await s.poll(2, 5_000);
    expect((await s.record(copycat))!.payment).toBeUndefined();
  });

  it('an id posted in other letters (capitals) is the same transaction: asked nothing more, settled once', async () => {
    const { hook } = connected();
    const first = await s.checkout(new Member(h), 'Case_Payer', VIP_30);
    await s.poll();
    const id = h.store.pay(first.url);
    await post(h, hook, `Zakup Case_Payer: VIP, ${id}`);
    expect((await s.record(first))!.payment?.status).toBe('paid');
    const asked = h.store.requestsTo('transactionInfo').length;
    const second = await s.checkout(new Member(h), 'Case_Payer', VIP_30);
    await s.poll();
    await post(h, hook, `Zakup Case_Payer: VIP, ${id.toUpperCase()}`);
    await s.poll(2, 5_000);
    expect(h.store.requestsTo('transactionInfo').slice(asked).filter((request) => request.path.toLowerCase().includes(id))).toEqual([]);
    expect((await s.record(second))!.payment).toBeUndefined();
  });
});

describe('posted ids are queued and paced, never dropped', () => {
  const h = useHarness();
  const s = linkSteps(h);
  const connected = setUp(h);

  /** The DM says paid within `withinMs` of now (rounds every 5 s, as the production timer runs them). */
  async function paidWithin(issued: Issued, withinMs: number): Promise<boolean> {
    for (let waited = 0; ; waited += 5_000) {
      await h.bot.services.delivery.whenIdle();
      if (s.dmNow(issued)!.text.includes(PAID)) return true;
      if (waited + 5_000 > withinMs) return false;
      h.clock.advance(5_000);
      await s.tick();
    }
  }

  it('with 500 forged ids waiting, a real payment’s post changes the member’s DM within 5 s; forged ids cost at most 10 questions a minute', async () => {
    const { hook } = connected();
    const issued = await s.checkout(new Member(h), 'Real_Payer', VIP_30);
    await s.poll();
    const infos = h.store.requestsTo('transactionInfo').length;
    const forged = forgedIds(500);
    for (let start = 0; start < forged.length; start += 10) await post(h, hook, forged.slice(start, start + 10).map((id) => `Zakup Forger: VIP, ${id}`).join('\n'));
    expect(h.store.requestsTo('transactionInfo').length - infos).toBeLessThanOrEqual(10);
    h.store.purchaseWebhooks.configs.splice(0, Infinity, { url: hook.url, template: TEMPLATE });
    const read = loggedMore(h, 'store webhook: post read');
    h.store.pay(issued.url);
    await h.store.purchaseWebhooks.settled();
    await read;
    h.store.purchaseWebhooks.configs.splice(0);
    expect(await paidWithin(issued, 5_000)).toBe(true);
    // The forged ids still wait: asked 10 a minute, the newest first, never dropped for the queue's bound.
    const before = h.store.requestsTo('transactionInfo').length;
    await s.poll(1, MINUTE);
    const asked = h.store.requestsTo('transactionInfo').length - before;
    expect(asked).toBeGreaterThan(0);
    expect(asked).toBeLessThanOrEqual(10 + 2);
  });

  it('ids beside an open link’s nick cost at most one question per 10 s for that link', async () => {
    const { hook } = connected();
    const issued = await s.checkout(new Member(h), 'Copied_Nick', VIP_30);
    await s.poll();
    const infos = h.store.requestsTo('transactionInfo').length;
    await post(h, hook, forgedIds(20).map((id) => `Zakup Copied_Nick: VIP (30 dni), 10,00 zł, ${id}`).join('\n'));
    const onePost = h.store.requestsTo('transactionInfo').length - infos;
    expect(onePost).toBe(1);
    h.clock.advance(10_000);
    await s.tick();
    expect(h.store.requestsTo('transactionInfo').length - infos).toBe(2);
    expect((await s.record(issued))!.payment).toBeUndefined();
  });

  it('a second post of a transaction followed while pending makes it due at once: paid within 5 s', async () => {
    const { hook } = connected();
    const issued = await s.checkout(new Member(h), 'Pending_Twice', VIP_30);
    await s.poll();
    const id = h.store.pay(issued.url, { status: 'pending' });
    await post(h, hook, `Zakup Pending_Twice: VIP, ${id}`);
    expect((await s.record(issued))!.payment?.status).toBe('pending');
    h.clock.advance(2_000);
    h.store.setStatus(id, 'paid');
    await post(h, hook, `Zakup Pending_Twice: VIP, ${id}`);
    expect(await paidWithin(issued, 5_000)).toBe(true);
  });

  it('one 404 for a posted id does not end it: the poll that lists it settles the link', async () => {
    const { hook } = connected();
    const issued = await s.checkout(new Member(h), 'Late_Details', VIP_30);
    await s.poll();
    const id = h.store.pay(issued.url);
    // The store lists the purchase ahead of its details.
    h.store.failNext('transactionInfo', { status: 404, body: { message: 'transaction not found' } });
    await post(h, hook, `Zakup Late_Details: VIP, ${id}`);
    expect((await s.record(issued))!.payment).toBeUndefined();
    await s.poll(2);
    expect((await s.record(issued))!.payment?.status).toBe('paid');
  });

  it('while ids wait in the queue the servers are polled at the rush pace, webhook healthy: a payment with no post is found within 30 s', async () => {
    const { hook } = connected();
    const issued = await s.checkout(new Member(h), 'No_Post_Payer', VIP_30);
    await s.poll();
    for (let batch = 0; batch < 2; batch += 1) await post(h, hook, forgedIds(20).map((id) => `Zakup Forger: ${id}`).join('\n'));
    h.store.pay(issued.url);
    await s.poll(2);
    expect((await s.record(issued))!.payment?.status).toBe('paid');
  });
});

describe('a sale with the webhook healthy', () => {
  const h = useHarness();
  const s = linkSteps(h);
  const connected = setUp(h);

  it('80 payments in a minute on one server: none lost, every DM says paid', async () => {
    const { hook } = connected();
    const links: Issued[] = [];
    for (let index = 0; index < 80; index += 1) links.push(await s.checkout(new Member(h), `Sale_${index}`, VIP_30));
    await s.poll();
    h.store.purchaseWebhooks.configs.splice(0, Infinity, { url: hook.url, template: TEMPLATE });
    // The store posts each payment as it is made, and the bot reads each post as it comes.
    for (const link of links) {
      const read = loggedMore(h, 'store webhook: post read');
      h.store.pay(link.url);
      await h.store.purchaseWebhooks.settled();
      await read;
      h.clock.advance(750);
    }
    h.store.purchaseWebhooks.configs.splice(0);
    await s.poll(10, 5_000);
    await h.bot.services.delivery.whenIdle();
    const unpaid = links.filter((link) => !s.dmNow(link)!.text.includes(PAID));
    expect(unpaid.map((link) => link.id)).toEqual([]);
  }, 120_000);
});

describe('health counts only what the store confirmed', () => {
  const h = useHarness();
  const s = linkSteps(h);
  const connected = setUp(h);

  it('a random id posted between misses does not hide that the webhook seems off', async () => {
    const { admin, hook } = connected();
    const log = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-log' });
    await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { logChannelId: log });
    const miss = async (nick: string) => {
      const issued = await s.checkout(new Member(h), nick, VIP_30);
      await s.poll();
      h.store.pay(issued.url);
      await s.poll(11);
      expect((await s.record(issued))!.payment?.status).toBe('paid');
      h.clock.advance(2 * MINUTE);
      await s.tick();
    };
    await miss('Miss_One');
    await miss('Miss_Two');
    await post(h, hook, `Zakup Nobody: ${crypto.randomUUID()}`);
    await miss('Miss_Three');
    const status = textOf((await admin.sub('shop-admin', 'status')).message!);
    expect(status).toContain(en.storeWebhook.seemsOff);
  });
});

describe('the gateway reads a guild’s posts within a budget', () => {
  const h = useHarness();
  const s = linkSteps(h);
  const connected = setUp(h);

  it('a flood of posts does not hold back the read of the store’s real one: newest first, the oldest unread beyond 50 left', async () => {
    const { hook } = connected();
    const issued = await s.checkout(new Member(h), 'Flooded_Payer', VIP_30);
    await s.poll();
    const reads = () => h.logs.filter((line) => (JSON.parse(line) as { msg?: string }).msg === 'store webhook: post read').length;
    const before = reads();
    const left = loggedMore(h, 'store webhook: more posts than can be read; the oldest unread ones were left');
    // 150 posts at once, then the store's real one: none is waited for before the next is sent.
    const flood = forgedIds(150).map((id) => postAsStore(hook, `Zakup Forger: ${id}`));
    await Promise.all(flood);
    const transactionId = h.store.pay(issued.url);
    const settled = loggedMore(h, 'payment watch: the store settled a link’s payment');
    await postAsStore(hook, `Zakup Flooded_Payer: VIP (30 dni), 10,00 zł, ${transactionId}`);
    await Promise.all([left, settled]);
    // Read right after the one being read when it came (and the few the flood's own reads let in first).
    expect(reads() - before).toBeLessThan(10);
    expect((await s.record(issued))!.payment?.status).toBe('paid');
  });
});
