import { describe, expect, it } from 'vitest';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';

/**
 * What checking out asks of storage, held (issue 39): when checkouts crowd in, every statement is
 * main-thread work for the bot and a turn at the SQLite file, so a checkout reads the member's cart
 * once before the link and once under its lock (the link is made from that one), and the payment
 * watcher reads a license's open links together, not one statement per link.
 */
describe('what checking out asks of storage', () => {
  const h = useHarness();
  const cartReads = () => h.storage.readKeys.filter((key) => key.startsWith('shopbot:cart:')).length;

  it('a /checkout with a nick reads the member’s cart twice: once to price it, once under its lock', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    const before = cartReads();
    const reply = await member.run('checkout', { nick: 'Costly_1' });
    expect(textOf(reply.message!)).toContain(en.checkout.sentTitle);
    expect(cartReads() - before).toBe(2);
  });

  it('a /checkout reads the member’s checkout times once (the cooldown’s check, under the cart’s lock) and still counts the link for the cooldown', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    const timesRead = () => h.storage.readKeys.filter((key) => key.startsWith('shopbot:checkout-times:')).length;
    const before = timesRead();
    const reply = await member.run('checkout', { nick: 'Timed_1' });
    expect(textOf(reply.message!)).toContain(en.checkout.sentTitle);
    expect(timesRead() - before).toBe(1);
    // The time was written all the same: a second checkout at once waits for the cooldown.
    await addToCart(member, VIP_30);
    const again = await member.run('checkout', { nick: 'Timed_1' });
    expect(textOf(again.message!)).toContain(en.checkout.cooldown(30).split('30')[0]!);
  });

  it('after a guild’s first link of the day, a checkout reads neither of the lists pruning walks (days, and the day’s guilds)', async () => {
    const [first, second] = [new Member(h), new Member(h)];
    await addToCart(first, VIP_30);
    await addToCart(second, VIP_30);
    await first.run('checkout', { nick: 'Daily_1' });
    const before = h.storage.readKeys.length;
    const reply = await second.run('checkout', { nick: 'Daily_2' });
    expect(textOf(reply.message!)).toContain(en.checkout.sentTitle);
    const dayLists = h.storage.readKeys.slice(before).filter((key) => key === 'shopbot:link-days' || key.startsWith('shopbot:link-day-guilds:'));
    expect(dayLists).toEqual([]);
  });

  it('the payment watcher reads 150 open links in two reads of storage, not 150', async () => {
    const members = Array.from({ length: 150 }, () => new Member(h));
    for (const [index, member] of members.entries()) {
      await addToCart(member, VIP_30);
      const reply = await member.run('checkout', { nick: `Open_${index}` });
      expect(textOf(reply.message!)).toContain(en.checkout.sentTitle);
      // Past the cooldown and the hourly limit of links, which count per member anyway.
      h.clock.advance(1_000);
    }
    const readsBefore = h.storage.readKeys.length;
    const statementsBefore = h.storage.readStatements;
    await h.bot.services.payments.tick();
    const linkReads = h.storage.readKeys.slice(readsBefore).filter((key) => key.startsWith('shopbot:link:')).length;
    expect(linkReads).toBeGreaterThanOrEqual(150);
    // Every link record in ceil(150 / 100) statements; the rest of the round is a handful more.
    expect(h.storage.readStatements - statementsBefore).toBeLessThan(20);
  });

  it('40 members checking out at once: every link is kept, listed for moderators and watched, and the guild’s shared lists are written a few times, not 40', async () => {
    const members = Array.from({ length: 40 }, () => new Member(h));
    for (const member of members) await addToCart(member, VIP_30);
    const written = h.storage.writtenKeys.length;
    const dms = members.map((member) => h.discord.waitForDm(member.user.id));
    const replies = await Promise.all(members.map((member, index) => member.run('checkout', { nick: `Crowd_${index}` })));
    for (const reply of replies) expect(textOf(reply.message!)).toContain(en.checkout.sentTitle);
    const ids = (await Promise.all(dms)).map((dm) => /Link reference: (\w+)/.exec(textOf(dm))![1]!);
    expect(new Set(ids).size).toBe(40);

    // Before: each checkout read and wrote the guild's recent links, its day's bucket and its open links
    // under their locks, one after another (40 writes of each; issue 39).
    const writes = h.storage.writtenKeys.slice(written);
    const writesOf = (prefix: string) => writes.filter((key) => key.startsWith(prefix)).length;
    expect(writesOf('shopbot:links-recent:')).toBeLessThanOrEqual(20);
    expect(writesOf('shopbot:link-day:')).toBeLessThanOrEqual(20);
    expect(writesOf('shopbot:pay-open:')).toBeLessThanOrEqual(20);

    // Every link in the guild's recent list (the moderators' /links autocomplete), newest first, and in its member's list.
    const { paymentLinks } = h.bot.services.storage;
    const recent = (await paymentLinks.listRecent(h.discord.defaultGuildId)).map((link) => link.id);
    expect(recent.slice(0, 40).sort()).toEqual([...ids].sort());
    for (const [index, member] of members.entries()) {
      expect((await paymentLinks.listForMember(h.discord.defaultGuildId, member.user.id, 0, 10)).links.map((link) => link.id)).toEqual([ids[index]]);
    }
    // And every one watched: paid (20 at a time: the store lists a server's 30 latest purchases), all 40 are confirmed.
    const urls = h.store.paymentUrls.slice(-40);
    for (const half of [urls.slice(0, 20), urls.slice(20)]) {
      for (const url of half) h.store.pay(url);
      await linkSteps(h).poll();
    }
    const unpaid = (await Promise.all(ids.map((id) => paymentLinks.get(h.discord.defaultGuildId, id)))).filter((link) => link?.payment?.status !== 'paid');
    expect(unpaid.map((link) => link?.id)).toEqual([]);
  });
});
