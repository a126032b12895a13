import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness, type Harness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { textOf } from '../support/ui.js';

/**
 * Issue 36, point 2: no purchase forgotten when its links close. A transaction the bot started
 * following is followed on its own schedule until the store gives a final status or 30 days pass,
 * whether or not the links it could have paid are still open; a license with nothing left to follow
 * costs nothing.
 *
 * Before: a purchase two members' links could have paid, still pending at the store, was decided
 * again against the links open at that moment: once they had passed their lifetime it was
 * "nobody's", and the store's later "paid" brought no staff post. Its license was meanwhile
 * visited, and its state rewritten, every poll interval.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function logChannel(h: Harness, name: string): Promise<string> {
  const channel = h.discord.addChannel(h.discord.defaultGuildId, { name });
  await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { logChannelId: channel });
  return channel;
}

const reviewPosts = (h: Harness, channel: string) => h.discord.messagesIn(channel).filter((post) => textOf(post).includes(en.review.title));

/** Storage operations a tick makes on the payment watcher's keys of one license (as SQLite holds them). */
async function watcherCostOfTick(h: Harness, license: string): Promise<{ reads: number; writes: number }> {
  const reads = h.storage.readKeys.length;
  const writes = h.storage.writtenKeys.length;
  await h.bot.services.payments.tick();
  const mine = (key: string) => key.includes(license);
  return { reads: h.storage.readKeys.slice(reads).filter(mine).length, writes: h.storage.writtenKeys.slice(writes).filter(mine).length };
}

describe('a purchase two members’ links could have paid, pending while its links expire', () => {
  const h = useHarness();
  const s = linkSteps(h);

  it('goes to staff when the store says paid two days later: one post, no link settled by itself; then its license costs nothing', async () => {
    const log = await logChannel(h, 'log-follow');
    const real = new Member(h);
    const copycat = new Member(h);
    const first = await s.checkout(real, 'Slow_Payer', VIP_30);
    const second = await s.checkout(copycat, 'Slow_Payer', VIP_30);
    const transaction = h.store.pay(first.url, { status: 'pending' });
    await s.poll();
    expect(reviewPosts(h, log)).toEqual([]);

    // Two days pass: both links pass their lifetime (24 h) while the payment is pending.
    await s.poll(8 * 48, 15 * MINUTE);
    expect((await s.record(first))!.payment).toBeUndefined();
    expect((await s.record(second))!.payment).toBeUndefined();

    h.store.setStatus(transaction, 'paid');
    await s.poll(2, 15 * MINUTE);
    const posts = reviewPosts(h, log);
    expect(posts).toHaveLength(1);
    expect(textOf(posts[0]!)).toContain(transaction);
    expect((await s.record(first))!.payment).toBeUndefined();
    expect((await s.record(second))!.payment).toBeUndefined();

    // Nothing left to follow: its license is read and written by no tick.
    const license = (await s.record(first))!.license;
    await s.poll(2, 15 * MINUTE);
    for (let tick = 0; tick < 5; tick += 1) {
      h.clock.advance(5_000);
      expect(await watcherCostOfTick(h, license)).toEqual({ reads: 0, writes: 0 });
    }
    await s.poll(3, HOUR);
    expect(reviewPosts(h, log)).toHaveLength(1);
  });
});

describe('a license whose only work is a pending payment', () => {
  const h = useHarness();
  const s = linkSteps(h);

  it('costs nothing on the ticks between its follow-ups', async () => {
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Waits_Long', VIP_30);
    h.store.pay(issued.url, { status: 'pending' });
    await s.poll();
    expect((await s.record(issued))!.payment).toMatchObject({ status: 'pending' });
    // Past the link's lifetime; the payment is still followed (at most every 15 minutes).
    await s.poll(4 * 26, 15 * MINUTE);
    const license = (await s.record(issued))!.license;
    const idle: { reads: number; writes: number }[] = [];
    // One follow-up interval (15 minutes), tick by tick: a follow-up costs something (at each end of
    // the interval at most); the other 178 ticks nothing.
    for (let tick = 0; tick < (15 * MINUTE) / 5_000; tick += 1) {
      h.clock.advance(5_000);
      const cost = await watcherCostOfTick(h, license);
      if (cost.reads > 0 || cost.writes > 0) idle.push(cost);
    }
    expect(idle.length).toBeLessThanOrEqual(2);
  });
});

describe('a transaction id handed to the watcher from outside its polls (PaymentWatcher.follow)', () => {
  const h = useHarness();
  const s = linkSteps(h);

  it('is asked about at once, before its server is due, and settles the one link it paid; handing it again changes nothing', async () => {
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Hook_Told', VIP_30);
    await s.poll();
    const transaction = h.store.pay(issued.url);
    const license = (await s.record(issued))!.license;
    const polls = h.store.requestsTo('latestBuyers').length;
    await h.bot.services.payments.follow(license, [transaction]);
    h.clock.advance(5_000);
    await s.tick();
    // Its server is next due 25 s later: the follow alone settled it (transaction/info gives no date:
    // one read of the server's latest purchases placed it in time, as a post is no evidence of when).
    expect(h.store.requestsTo('latestBuyers').length).toBe(polls + 1);
    expect((await s.record(issued))!.payment).toMatchObject({ status: 'paid', transactionId: transaction });
    expect(s.dmNow(issued)!.text).toContain('The shop reports this order as paid');
    await h.bot.services.payments.follow(license, [transaction]);
    await s.poll(3);
    expect(s.dmNow(issued)!.edits).toBe(1);
  });
});
