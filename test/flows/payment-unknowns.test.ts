import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { Member, SKY_VIP, VIP_30 } from '../support/buyer.js';
import { useHarness, type Harness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { buttons, textOf } from '../support/ui.js';

/**
 * Issue 28, point 3: one unknown answer is not a dead license. Before, any 404 from latest_buyers
 * or transaction/info switched following payments off for the whole license for six hours.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ManageGuild;

function steps(h: Harness) {
  const base = linkSteps(h);
  return {
    ...base,
    infoAbout: (transaction: string) => h.store.requestsTo('transactionInfo').filter((request) => request.path.endsWith(`/${transaction}`)).length,
  };
}

describe('a transaction the store answers 404 about', () => {
  const h = useHarness();
  const s = steps(h);

  it('is asked about again a few times, then set aside; other transactions are settled meanwhile and the license stays on', async () => {
    const unknownBuyer = new Member(h);
    const unknownLink = await s.checkout(unknownBuyer, 'Not_Known', VIP_30);
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Known_One', VIP_30);
    await s.poll();
    const unknown = h.store.pay(unknownLink.url);
    h.clock.advance(SECOND);
    h.store.pay(issued.url);
    // The store does not know the first one (yet): 404, and to the two requests about it that follow.
    const notFound = { status: 404, body: { success: false, type: 'error', message: 'transaction not found' } };
    h.store.failNext('transactionInfo', notFound);
    await s.poll();
    h.store.failNext('transactionInfo', notFound, 2);
    expect((await s.record(issued))!.payment?.status).toBe('paid');
    expect(buttons(s.dmNow(issued)!)).toEqual([]);
    expect(s.infoAbout(unknown)).toBe(1);

    await s.poll(8);
    expect(s.infoAbout(unknown)).toBe(3);
    expect((await s.record(unknownLink))!.payment).toBeUndefined();
    await s.poll(20);
    expect(s.infoAbout(unknown)).toBe(3);
    const admin = new Member(h, { permissions: ADMIN });
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain(en.admin.statusPaymentsOn(30));
  });
});

describe('a server whose latest buyers answer 404', () => {
  const h = useHarness();
  const s = steps(h);

  it('is skipped with a line in /shop-admin status; the other servers are followed', async () => {
    const skyBuyer = new Member(h);
    await s.checkout(skyBuyer, 'Sky_Gone', SKY_VIP);
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Survives', VIP_30);
    // SkyBlock is deleted at the store: its latest buyers answer 404 from now on.
    const skyBlock = h.store.shop.servers.find((server) => server.name === 'SkyBlock')!;
    h.store.shop = { ...h.store.shop, servers: h.store.shop.servers.filter((server) => server !== skyBlock) };
    await s.poll();
    h.store.pay(issued.url);
    await s.poll();
    expect((await s.record(issued))!.payment?.status).toBe('paid');
    expect(buttons(s.dmNow(issued)!)).toEqual([]);

    const admin = new Member(h, { permissions: ADMIN });
    const status = textOf((await admin.sub('shop-admin', 'status')).message!);
    expect(status).toContain(en.admin.statusPaymentsOn(30));
    expect(status).toContain('Servers whose latest purchases SpaceIs answers 404 for: **');
    // Not asked again every round: once per few hours.
    const asked = h.store.requestsTo('latestBuyers').filter((request) => request.path.includes(skyBlock.id)).length;
    await s.poll(10);
    expect(h.store.requestsTo('latestBuyers').filter((request) => request.path.includes(skyBlock.id)).length).toBe(asked);
    h.clock.advance(MINUTE);
  });
});
