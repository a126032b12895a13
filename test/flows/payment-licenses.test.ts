import { describe, expect, it } from 'vitest';
import { findVariant } from '../fakes/spaceis/fixtures.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness, type Harness } from '../support/harness.js';
import { linkSteps, type Issued } from '../support/links.js';
import { guildsWithOwnLicenses, type LicensedGuild } from '../support/own-licenses.js';
import { buttons } from '../support/ui.js';
import { licenseId } from '../../src/security/license-id.js';
import { openStorage } from '../../src/storage/keyv-store.js';

/**
 * Issue 28, point 6: licenses are watched independently and idle costs nothing. Many guilds, each
 * selling from its own license, each with an open link; one license's store is slow.
 */

const SECOND = 1_000;
const LICENSES = 24;

function steps(h: Harness) {
  const base = linkSteps(h);
  return {
    ...base,
    record: (guild: LicensedGuild, issued: Issued) => h.bot.services.storage.paymentLinks.get(guild.guildId, issued.id),
    buyersOf: (guild: LicensedGuild) => h.store.requestsTo('latestBuyers').filter((request) => request.headers.authorization === `Bearer ${guild.key}`).length,
  };
}

describe(`${LICENSES} guilds, each with a license of its own and an open link`, () => {
  const h = useHarness();
  const s = steps(h);
  let guilds: LicensedGuild[];
  const issued = new Map<string, Issued>();

  it('are each polled every 30 s, and a round with nothing due reads no license and writes nothing', async () => {
    guilds = await guildsWithOwnLicenses(h, LICENSES);
    for (const [index, guild] of guilds.entries()) {
      const buyer = new Member(h, { guildId: guild.guildId, channelId: guild.channelId });
      issued.set(guild.guildId, await s.checkout(buyer, `Gracz_${index}`, VIP_30));
    }
    await s.poll();
    const before = guilds.map((guild) => s.buyersOf(guild));
    await s.poll(2);
    expect(guilds.map((guild, index) => s.buyersOf(guild) - before[index]!)).toEqual(guilds.map(() => 2));

    // 5 s after a round: nothing is due. Before issue 28 every license's open links, state and
    // guild settings were read (and its state written) every 5 s.
    const reads = h.storage.reads;
    const writes = h.storage.writtenKeys.length;
    h.clock.advance(5 * SECOND);
    await s.tick();
    expect(h.storage.writtenKeys.length - writes).toBe(0);
    // The due-time index's slot, and the purchase feed's list of guilds: whatever the number of licenses.
    expect(h.storage.reads - reads).toBeLessThanOrEqual(2);
  });

  it('a slow store for one license does not hold up another license’s confirmation', async () => {
    const [slow, fast] = [guilds[0]!, guilds[1]!];
    const held = h.store.hold('latestBuyers', slow.key);
    h.store.pay(issued.get(fast.guildId)!.url);
    h.clock.advance(30 * SECOND);
    const round = s.tick();
    await held.reached;
    // The other licenses' round goes on while the slow one waits for its store.
    await h.logged('payment link settled: the member’s copies rewritten');
    expect((await s.record(fast, issued.get(fast.guildId)!))!.payment?.status).toBe('paid');
    expect(buttons(s.dmNow(issued.get(fast.guildId)!)!)).toEqual([]);
    // ... while the slow license's request is still waiting at its store (before: the rounds ran one
    // license after the other, and the fast one was confirmed only once the slow request timed out).
    expect(h.store.inFlight).toBeGreaterThan(0);

    // The next tick starts without waiting for the slow license's round, and does not poll it twice.
    const slowPolls = s.buyersOf(slow);
    h.clock.advance(30 * SECOND);
    await s.tick();
    expect(s.buyersOf(slow)).toBe(slowPolls);
    held.release();
    await round;
  });

  it('a checkout on a license already watched writes only its own guild’s list of open links', async () => {
    const guild = guilds[2]!;
    const from = h.storage.writtenKeys.length;
    await s.checkout(new Member(h, { guildId: guild.guildId, channelId: guild.channelId }), 'Another_One', VIP_30);
    const written = h.storage.writtenKeys.slice(from).filter((key) => key.includes('pay-'));
    expect(written).toEqual([`shopbot:pay-open:${guild.license}:${guild.guildId}`]);
  });

  it('a checkout on a license already watched reads O(1) records of the registry: never the list of every license (issue 36, point 4)', async () => {
    const guild = guilds[3]!;
    const from = h.storage.readKeys.length;
    await s.checkout(new Member(h, { guildId: guild.guildId, channelId: guild.channelId }), 'Reads_Little', VIP_30);
    const read = h.storage.readKeys.slice(from);
    // Before: `pay-licenses`, about 670 KB at 10 000 licenses, was read by every checkout.
    expect(read.filter((key) => key === 'shopbot:pay-licenses')).toEqual([]);
    expect(read.filter((key) => key.includes(`pay-listed:${guild.license}`)).length).toBeLessThanOrEqual(1);
  });
});

describe('a storage failure in the middle of a round', () => {
  const h = useHarness();
  const s = steps(h);

  it('never makes the watcher poll at every tick: the next poll time was written before the store was asked', async () => {
    const buyer = new Member(h);
    await s.checkout(buyer, 'Disk_Full', VIP_30);
    await s.poll();
    // A purchase by the nick keeps a candidate in every poll; writing what it is fails.
    h.store.purchaseOnWebsite({ nick: 'Disk_Full', items: [{ variantId: findVariant(h.store.shop, 'VIP', '30 dni', { server: 'Survival' }).variant.id, quantity: 1 }] });
    h.storage.failWrites = (key) => key.includes('pay-tx');
    const before = h.store.requestsTo('latestBuyers').length;
    for (let elapsed = 0; elapsed < 2 * 60 * SECOND; elapsed += 5 * SECOND) {
      h.clock.advance(5 * SECOND);
      await s.tick();
    }
    // Every 30 s, as without the failure (before: the schedule was written only at the end of a round,
    // and this test saw the polls stop: one in two minutes).
    expect(h.store.requestsTo('latestBuyers').length - before).toBe(4);
    h.storage.recover();
  });

  it('keeps a license watched when its next wake-up could not be written', async () => {
    await s.checkout(new Member(h), 'Wake_Up', VIP_30);
    await s.poll();
    h.storage.failWrites = (key) => key.includes('pay-due');
    await s.poll();
    h.storage.recover();
    const before = h.store.requestsTo('latestBuyers').length;
    await s.poll(3);
    // Before this was handled, the license was listed in no slot of the due-time index any more: never polled again until a restart.
    expect(h.store.requestsTo('latestBuyers').length - before).toBe(3);
  });
});

describe('a store whose rate limit runs low', () => {
  const h = useHarness();
  const s = steps(h);

  it('pauses background polls for a minute while X-RateLimit-Remaining is under a tenth of the limit; members still check out', async () => {
    const buyer = new Member(h);
    await s.checkout(buyer, 'Low_Budget', VIP_30);
    await s.poll();
    const before = h.store.requestsTo('latestBuyers').length;
    h.store.failNext('latestBuyers', { status: 200, body: { success: true, type: 'response', data: [] }, headers: { 'X-RateLimit-Limit': '600', 'X-RateLimit-Remaining': '42' } });
    await s.poll();
    expect(h.store.requestsTo('latestBuyers').length - before).toBe(1);
    // The next two rounds ask nothing (before: a poll every 30 s whatever the budget).
    await s.poll(2);
    expect(h.store.requestsTo('latestBuyers').length - before).toBe(1);
    const other = new Member(h);
    await s.checkout(other, 'Still_Buys', VIP_30);
    // After the pause one request reads the budget again; it is back up: polls go on.
    await s.poll(2);
    expect(h.store.requestsTo('latestBuyers').length - before).toBeGreaterThanOrEqual(2);
  });
});

describe('a license whose store gate is busy with members', () => {
  // The watcher waits this long for the gate to be quiet before skipping the license (1 s in production).
  const h = useHarness({ paymentQuietWaitMs: 0 });
  const s = steps(h);

  it('is skipped this round instead of queueing behind them, and polled once the gate is quiet', async () => {
    const buyer = new Member(h);
    await s.checkout(buyer, 'Busy_Gate', VIP_30);
    await s.poll();
    const shop = (await h.bot.services.stores.forGuild(h.discord.defaultGuildId))!;
    const { server, category, product } = findVariant(h.store.shop, VIP_30.product, VIP_30.variant, { server: VIP_30.server });
    // Four members' product pages at the store at once: every one of the license's four slots is taken.
    const holds = [0, 1, 2, 3].map(() => h.store.hold('variants'));
    const pages = holds.map(() => shop.client.getVariants(server.id, category.id, product.id, { lane: 'members' }));
    await Promise.all(holds.map((hold) => hold.reached));
    const polls = h.store.requestsTo('latestBuyers').length;
    h.clock.advance(30 * SECOND);
    // The round ends without a request (before: it waited for the gate, however long members kept it).
    await s.tick();
    expect(h.store.requestsTo('latestBuyers').length).toBe(polls);
    for (const hold of holds) hold.release();
    await Promise.all(pages);
    // A skipped poll waits for its next turn, one interval later.
    await s.poll();
    expect(h.store.requestsTo('latestBuyers').length).toBe(polls + 1);
  });
});

describe('the registry of watched licenses at 2 000 licenses (issue 36, point 4)', () => {
  const h = useHarness();

  /** A link as checkout records it, on a license of its own. */
  async function linkOn(license: string, index: number) {
    const { server, category, product, variant } = findVariant(h.store.shop, VIP_30.product, VIP_30.variant, { server: VIP_30.server });
    return h.bot.services.storage.paymentLinks.create({
      guildId: h.discord.defaultGuildId,
      userId: String(900_000_000_000_000_000n + BigInt(index)),
      nick: `Gracz_${index}`,
      url: `https://sklep.example.pl/pay/registry-${index}`,
      license,
      createdAt: h.clock.now(),
      items: [{ variantId: variant.id, quantity: 1, serverName: server.name, productName: product.name, variantName: variant.name, serverId: server.id, categoryId: category.id, productId: product.id }],
    });
  }

  it('a license joining it (its first open link) and leaving it writes a few KB, not the list of every license', { timeout: 120_000 }, async () => {
    const index = h.bot.services.storage.paymentWatch.index;
    for (let n = 0; n < 2_000; n++) await index.enlist(licenseId(`registry-license-${n}`));
    const joining = licenseId('registry-license-new');
    const registryBytes = () => h.storage.bytesWritten;
    const link = await linkOn(joining, 1);
    const before = registryBytes();
    const writes = h.storage.writtenKeys.length;
    await h.bot.services.payments.watch(link);
    const registryWrites = h.storage.writtenKeys.slice(writes).filter((key) => key.includes('pay-licenses'));
    // From the watch only (the link's record is written before): the registry and the indexes.
    // Before: `pay-licenses` (2 000 ids, about 134 KB; 670 KB at 10 000) rewritten whole for one license.
    expect(registryWrites.length).toBe(1);
    expect(registryBytes() - before).toBeLessThan(8_000);
    expect(await h.bot.services.storage.paymentWatch.licenses()).toContain(joining);

    // Leaving it (nothing open, nothing to follow) is as small.
    await index.closeOpen(joining, [{ guildId: h.discord.defaultGuildId, linkId: link.id }]);
    const leaving = registryBytes();
    expect(await index.retire(joining)).toBe(true);
    expect(registryBytes() - leaving).toBeLessThan(8_000);
    const licenses = await h.bot.services.storage.paymentWatch.licenses();
    expect(licenses).not.toContain(joining);
    expect(licenses).toHaveLength(2_000);
  });
});

describe('the registry written by a version before its buckets', () => {
  const h = useHarness();

  it('is read whole once, its licenses moved into the buckets, and deleted', async () => {
    const listed = [0, 1, 2, 3, 4].map((n) => licenseId(`legacy-registry-${n}`));
    await h.bot.services.storage.paymentWatch.index.enlist(licenseId('bucketed-already'));
    // As the earlier version wrote it: one list of every license.
    const storage = await openStorage(h.config.STORAGE_URL);
    try {
      await storage.keyv.set('pay-licenses', listed);
    } finally {
      await storage.close();
    }
    expect((await h.bot.services.storage.paymentWatch.licenses()).sort()).toEqual([...listed, licenseId('bucketed-already')].sort());
    const registryReads = h.storage.readKeys.length;
    expect((await h.bot.services.storage.paymentWatch.licenses()).sort()).toEqual([...listed, licenseId('bucketed-already')].sort());
    // The old list is gone: the second read finds nothing there (and moves nothing).
    expect(h.storage.writtenKeys.filter((key) => key.endsWith(':pay-licenses'))).toEqual(['shopbot:pay-licenses']);
    expect(h.storage.readKeys.slice(registryReads).filter((key) => key.endsWith(':pay-licenses'))).toHaveLength(1);
  });
});
