import { describe, expect, it } from 'vitest';
import { defaultShop, findVariant } from '../fakes/spaceis/fixtures.js';
import { openStorage } from '../../src/storage/keyv-store.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness, type Harness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { buttonLabels } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';

/** Issue 28, point 7: the edges of the store's list. Each test names what the watcher did before. */

const SECOND = 1_000;
const DAY = 86_400_000;

function steps(h: Harness) {
  const base = linkSteps(h);
  return {
    ...base,
    vip30: () => findVariant(h.store.shop, 'VIP', '30 dni', { server: 'Survival' }),
  };
}

/** latest_buyers answered with these rows once (the store's own shape). */
function listOnce(h: Harness, rows: { transactionId: string; nick: string; date?: string }[]): void {
  const survival = h.store.shop.servers.find((server) => server.name === 'Survival')!;
  const data = rows.map((row) => ({ ...row, method: 'blik', amount: 10, productName: 'VIP', variantName: '30 dni', server: { id: survival.id, name: survival.name } }));
  h.store.failNext('latestBuyers', { status: 200, body: { success: true, type: 'response', data } });
}

describe('the edges of the store’s list', () => {
  const h = useHarness();
  const s = steps(h);

  it('compares nicks as ASCII: a purchase by "\\u212Aasia" (Kelvin sign) does not pay Kasia’s link', async () => {
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Kasia_K', VIP_30);
    await s.poll();
    h.store.purchaseOnWebsite({ nick: '\u212Aasia_K', items: [{ variantId: s.vip30().variant.id, quantity: 1 }] });
    await s.poll();
    // Before: JavaScript's case folding made the Kelvin sign a "k", and the link was paid.
    expect((await s.record(issued))!.payment).toBeUndefined();
    expect(buttonLabels(s.dmNow(issued)!)).toEqual([en.checkout.pay]);
  });

  it('refuses a transaction id longer than 64 characters before it is asked about or stored, and reads at most 30 rows', async () => {
    const buyer = new Member(h);
    await s.checkout(buyer, 'Long_Ids', VIP_30);
    await s.poll();
    const info = h.store.requestsTo('transactionInfo').length;
    const long = 'x'.repeat(65);
    const filler = Array.from({ length: 30 }, (_, index) => ({ transactionId: `filler-${index}`, nick: `Someone_${index}` }));
    listOnce(h, [{ transactionId: long, nick: 'Long_Ids' }, ...filler, { transactionId: 'row-31', nick: 'Long_Ids' }]);
    const written = h.storage.writtenKeys.length;
    await s.poll();
    // Before: both were asked about (transaction/info with the long id, and the 32nd row).
    expect(h.store.requestsTo('transactionInfo').length).toBe(info);
    expect(h.storage.writtenKeys.slice(written).some((key) => key.includes(long))).toBe(false);
  });

  it('looks at the open links again before setting a purchase aside: a link issued while the round read pays', async () => {
    const buyer = new Member(h);
    await s.checkout(buyer, 'Mid_Round', VIP_30);
    await s.poll();
    const held = h.store.hold('latestBuyers');
    h.clock.advance(30 * SECOND);
    const round = s.tick();
    await held.reached;
    // While the round waits for the store, the same member checks out other items and pays them.
    const second = await s.checkout(buyer, 'Mid_Round', { server: 'Survival', category: 'Rangi', product: 'VIP', variant: 'Na zawsze' });
    h.store.pay(second.url);
    held.release();
    await round;
    // Before: the purchase matched none of the links the round had read, and was set aside for good.
    expect((await s.record(second))!.payment?.status).toBe('paid');
  });
});

describe('a store whose dates run ahead', () => {
  const h = useHarness();
  const s = steps(h);

  it('takes a date later than now (plus the allowed skew) as no date: an earlier purchase listed "tomorrow" does not pay a new link', async () => {
    const earlier = h.store.purchaseOnWebsite({ nick: 'Future_Date', items: [{ variantId: s.vip30().variant.id, quantity: 1 }] });
    h.clock.advance(10 * 60 * SECOND);
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Future_Date', VIP_30);
    listOnce(h, [{ transactionId: earlier, nick: 'Future_Date', date: new Date(h.clock.now() + DAY).toISOString() }]);
    await s.poll();
    // Before: the date was believed, the purchase looked made after the link, and paid it.
    expect((await s.record(issued))!.payment).toBeUndefined();
  });
});

describe('a license key rotated while links are open', () => {
  const h = useHarness({ shop: { ...defaultShop(), licenseId: '6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b' } });
  const s = steps(h);

  it('one purchase pays at most one link: the shop’s transactions are kept under the shop, not the key', async () => {
    // One member's links (two members' would wait for staff: test/flows/payment-review.test.ts).
    const buyer = new Member(h);
    const before = await s.checkout(buyer, 'Rot_Nick', VIP_30);
    await s.poll();
    // In the SpaceIs panel: a new key for the same shop; the operator restarts with it.
    const rotated = 'rotated-license-key-NEVER-LOG-ME-b2c4';
    h.store.shopsByKey.set(rotated, h.store.shop);
    await h.restart({ SPACEIS_API_KEY: rotated });
    const after = await s.checkout(buyer, 'Rot_Nick', VIP_30);
    await s.poll();
    h.store.purchaseOnWebsite({ nick: 'Rot_Nick', items: [{ variantId: s.vip30().variant.id, quantity: 1 }] });
    await s.poll(3);
    const paid = [];
    for (const issued of [before, after]) if ((await s.record(issued))!.payment?.status === 'paid') paid.push(issued.id);
    // Before: each key's links were watched on their own, and the one purchase paid both. Now it pays
    // the newest link issued before it, whichever key issued it.
    expect(paid).toEqual([after.id]);
  });
});

describe('what the version before issue 28 left in storage', () => {
  const h = useHarness();
  const s = steps(h);

  it('its list of open links and its handled transactions are read: the link is paid by a new purchase, not by one already handled', async () => {
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Old_Version', VIP_30);
    const record = (await s.record(issued))!;
    const handled = h.store.purchaseOnWebsite({ nick: 'Old_Version', items: [{ variantId: s.vip30().variant.id, quantity: 1 }] });
    // As the earlier version wrote them: one list of the license's open links, a handled transaction.
    const storage = await openStorage(h.config.STORAGE_URL);
    try {
      await storage.keyv.delete(`pay-open:${record.license}:${record.guildId}`);
      await storage.keyv.delete(`pay-open-guilds:${record.license}`);
      await storage.keyv.set(`pay-open:${record.license}`, [{ guildId: record.guildId, linkId: record.id, nick: record.nick, createdAt: record.createdAt, items: [] }]);
      await storage.keyv.set(`pay-tx:${record.license}:${handled}`, { at: h.clock.now() });
    } finally {
      await storage.close();
    }
    await h.restart();
    await s.poll();
    expect((await s.record(issued))!.payment).toBeUndefined();
    const paid = h.store.pay(issued.url);
    await s.poll();
    expect((await s.record(issued))!.payment).toMatchObject({ status: 'paid', transactionId: paid });
  });
});

describe('a store whose dates sit an hour ahead', () => {
  const h = useHarness();
  const s = steps(h);

  it('is warned about once in the log; its purchases still pay their links, placed by when they were first listed', async () => {
    h.store.now = () => h.clock.now() + 3_600_000;
    const warning = 'payment watch: the store dates purchases a whole number of hours ahead of now: its times are not Warsaw time; such rows count as undated (see docs/spaceis-api.md, Payments)';
    const buyer = new Member(h);
    const first = await s.checkout(buyer, 'Hour_Ahead', VIP_30);
    await s.poll();
    h.store.pay(first.url);
    await s.poll();
    expect((await s.record(first))!.payment?.status).toBe('paid');
    const second = await s.checkout(new Member(h), 'Hour_Ahead_2', VIP_30);
    await s.poll();
    h.store.pay(second.url);
    await s.poll(3);
    expect((await s.record(second))!.payment?.status).toBe('paid');
    // Before: no warning at all, and the dates were believed.
    expect(h.logs.filter((line) => line.includes(warning))).toHaveLength(1);
  });
});
