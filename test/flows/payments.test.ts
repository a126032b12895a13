import { readFileSync } from 'node:fs';
import { ButtonStyle, ComponentType, PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import type { FakeMessage } from '../fakes/discord/fake-discord.js';
import { BUYER_EMAIL } from '../fakes/spaceis/fake-spaceis.js';
import { findVariant, landmarks } from '../fakes/spaceis/fixtures.js';
import { addToCart, Member, SKY_VIP, VIP_30, VIP_FOREVER } from '../support/buyer.js';
import { LICENSE_KEY, startHarness, useHarness, type Harness } from '../support/harness.js';
import { linkSteps, type Issued } from '../support/links.js';
import { buttonLabels, buttons, isDisplay, textOf } from '../support/ui.js';

/**
 * After the Pay button: the bot learns from the store whether a link was paid (latest buyers, then
 * the transaction's details), tells the member in the DM, moderators in /links and the log channel,
 * and never handles a purchase twice. Rounds of the watcher run when the test calls them
 * (`payments.tick()`), on the test's clock.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const COINS_370 = { server: 'Survival', category: 'Monety', product: landmarks.rangeProduct, variant: '370 monet' };
const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ManageGuild;

const unix = (ms: number) => Math.floor(ms / 1000);

/** The links a buyer sees in My payment links, each as its heading line: state icon, reference, state. */
const listed = (message: FakeMessage): string[] =>
  textOf(message)
    .split('\n')
    .filter((line) => line.startsWith('### '))
    .map((line) => line.slice(4));

function steps(h: Harness) {
  const base = linkSteps(h);
  return {
    ...base,
    async myLinks(buyer: Member) {
      await buyer.run('cart');
      return (await buyer.press(en.links.myLinks)).message!;
    },
    requests: () => ({ buyers: h.store.requestsTo('latestBuyers').length, info: h.store.requestsTo('transactionInfo').length }),
  };
}

async function logChannel(h: Harness): Promise<string> {
  const channel = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-log' });
  await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { logChannelId: channel });
  return channel;
}

const paidPosts = (h: Harness, channel: string) => h.discord.messagesIn(channel).filter((message) => textOf(message).includes(en.log.linkPaidTitle));

describe('a paid link', () => {
  const h = useHarness();
  const s = steps(h);
  let log: string;
  beforeAll(async () => {
    log = await logChannel(h);
  });

  it('is shown as paid to the member (DM without its Pay button), to moderators and in the log channel, once', async () => {
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Steve_123', VIP_30, 2);
    await s.tick(); // the first look at the server: nothing bought yet
    expect(s.requests()).toEqual({ buyers: 1, info: 0 });

    const transaction = h.store.pay(issued.url);
    const paidAt = h.clock.now() + 30 * SECOND;
    await s.poll();
    expect(s.requests()).toEqual({ buyers: 2, info: 1 });

    const dm = s.dmNow(issued)!;
    expect(buttons(dm)).toEqual([]);
    expect(dm.edits).toBe(1);
    expect(dm.text).toContain(`✅ The shop reports this order as paid (<t:${unix(paidAt)}:f>).`);
    expect(textOf(dm)).toContain(en.payments.dmDelivery);
    expect(textOf(dm)).toContain(`If they do not arrive, ask the server's staff and give them the link reference **${issued.id}**.`);
    expect(textOf(dm)).toContain('2 × VIP — 30 dni');
    expect(textOf(dm)).not.toContain(issued.url);

    expect(listed(await s.myLinks(buyer))).toEqual([`✅ ${issued.id} · Paid`]);
    expect(textOf(buyer.message!)).toContain(`Paid <t:${unix(paidAt)}:f>`);

    const mod = s.moderator();
    const list = (await s.links(mod, 'user', { member: buyer.user.id })).message!;
    expect(s.names(list)).toEqual([`✅ ${issued.id} · Paid`]);
    expect(textOf(list)).toContain(`Paid <t:${unix(paidAt)}:f> (<t:${unix(paidAt)}:R>), as reported by the shop`);
    expect(textOf(list)).toContain(`Shop transaction: \`${transaction}\``);
    expect(textOf(list)).toContain(en.links.whatBotKnows);
    const verified = textOf((await s.links(mod, 'verify', { url: issued.url })).message!);
    expect(verified).toContain(`✅ **Paid <t:${unix(paidAt)}:f>`);
    expect(verified).toContain(`Shop transaction: \`${transaction}\``);

    const [post, ...more] = paidPosts(h, log);
    expect(more).toEqual([]);
    const posted = textOf(post!);
    expect(posted).toContain(`The shop reports the order of <@${buyer.user.id}> for the nick **Steve\\_123** as paid.`);
    expect(posted).toContain('• 2 × VIP — 30 dni');
    expect(posted).toContain(`Link reference: ${issued.id}`);
    expect(posted).toContain(transaction);
    expect(posted).not.toContain(issued.url);

    // Rounds go on; the purchase is not asked about again, and nothing changes.
    await s.poll(3);
    expect(s.requests().info).toBe(1);
    expect(paidPosts(h, log)).toHaveLength(1);
    expect(s.dmNow(issued)!.edits).toBe(1);
    expect(await h.bot.services.storage.paymentWatch.openLinks((await s.record(issued))!.license)).toEqual([]);
  });

  it('is settled once when the bot restarts between the payment and the poll', async () => {
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Restart_Me', COINS_370, 3);
    h.store.pay(issued.url);
    await h.restart();
    await s.poll();
    await s.poll();
    expect((await s.record(issued))!.payment?.status).toBe('paid');
    expect(paidPosts(h, log).filter((post) => textOf(post).includes(issued.id))).toHaveLength(1);
    expect(buttons(s.dmNow(issued)!)).toEqual([]);
  });

  it('takes the Pay button out of the reply the link was shown in (DMs closed)', async () => {
    const closed = new Member(h);
    h.discord.refuseDms(closed.user.id);
    await addToCart(closed, VIP_FOREVER);
    const reply = (await closed.run('checkout', { nick: 'No_Dms' })).message!;
    expect(buttonLabels(reply)).toEqual([en.checkout.pay]);
    h.store.pay(-1);
    await s.poll();
    const edited = h.discord.message(reply.channel_id, reply.id)!;
    expect(buttons(edited)).toEqual([]);
    expect(edited.text).toContain('The shop reports this order as paid');
  });

  it('speaks Polish to a Polish member, and to a Polish moderator', async () => {
    const buyer = new Member(h);
    await addToCart(buyer, SKY_VIP);
    // The member's Discord is in Polish when they check out: the DM is written in Polish, and rewritten in it.
    buyer.options.locale = 'pl';
    const dmSent = h.discord.waitForDm(buyer.user.id);
    await buyer.run('checkout', { nick: 'Polak_2' });
    const issued = { id: /Numer linku: (\w+)/.exec(textOf(await dmSent))![1]!, url: h.store.paymentUrls.at(-1)!, dm: await dmSent, createdAt: h.clock.now() };
    h.store.pay(issued.url);
    await s.poll();
    const dm = s.dmNow(issued)!;
    expect(dm.text).toContain('Sklep potwierdził płatność za to zamówienie');
    expect(textOf(dm)).toContain(pl.payments.dmDelivery);
    expect(textOf(dm)).toContain(`zapytaj administrację i podaj numer linku **${issued.id}**`);
    const list = (await s.links(s.moderator({ locale: 'pl' }), 'user', { member: buyer.user.id })).message!;
    expect(s.names(list)).toEqual([`✅ ${issued.id} · Opłacony`]);
    expect(textOf(list)).toContain(', według sklepu');
    expect(textOf(list)).toContain('Transakcja w sklepie:');
    // /linki sprawdź says the state once: „✅ **Opłacony …**”, not „**Opłacony**: Opłacony …”.
    const verifiedPl = textOf((await s.links(s.moderator({ locale: 'pl' }), 'verify', { url: issued.url })).message!);
    expect(verifiedPl).toMatch(/✅ \*\*Opłacony <t:\d+:f> \(<t:\d+:R>\), według sklepu\*\*/);
    expect(verifiedPl).not.toContain('**Opłacony**:');
  });
});

/**
 * A DM sent before the bot drew its messages as display components (text and an embed) is edited in
 * that form when its link is withdrawn or settled; a DM sent since is display components and stays so.
 * The link record tells them apart (`delivery.display`): a record from before has no such mark.
 */
describe('a DM sent before display components', () => {
  const h = useHarness();
  const s = steps(h);

  /** What checkout sent before display components: the order in an embed, the Pay button in a row; the record points there, unmarked. */
  async function classicDm(issued: Issued, buyer: Member): Promise<FakeMessage> {
    const sent = await h.bot.client.users.send(buyer.user.id, {
      content: '',
      embeds: [{ title: 'Your order — Test Guild', fields: [{ name: 'Nick', value: 'Old_Dm' }], footer: { text: `Link reference: ${issued.id}` } }],
      components: [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Link, url: issued.url, label: 'Pay' }] }],
    });
    await h.bot.services.storage.paymentLinks.update(h.discord.defaultGuildId, issued.id, (link) => ({ ...link, delivery: { kind: 'dm', channelId: sent.channelId, messageId: sent.id } }));
    const message = h.discord.message(sent.channelId, sent.id)!;
    expect(isDisplay(message)).toBe(false);
    expect(buttonLabels(message)).toEqual([en.checkout.pay]);
    return message;
  }
  const now = (message: FakeMessage) => h.discord.message(message.channel_id, message.id)!;

  it('stays classic when a moderator withdraws its link; a new DM is display components, withdrawn as such', async () => {
    const buyer = new Member(h);
    const old = await s.checkout(buyer, 'Old_Dm', VIP_30);
    const oldDm = await classicDm(old, buyer);
    const fresh = await s.checkout(buyer, 'New_Dm', COINS_370);
    expect(isDisplay(fresh.dm)).toBe(true);
    expect((await s.record(fresh))!.delivery).toMatchObject({ kind: 'dm', messageId: fresh.dm.id, display: true });

    for (const issued of [old, fresh]) {
      expect(textOf((await s.links(s.moderator(), 'revoke', { link: issued.id })).message!)).toContain(en.links.dmEdited);
    }
    const withdrawn = now(oldDm);
    expect(isDisplay(withdrawn)).toBe(false);
    expect(withdrawn.content).toBe(`⚠️ ${en.links.dmWithdrawn}`);
    expect(withdrawn.embeds.map((embed) => (embed as { title?: string }).title)).toEqual([en.links.dmWithdrawnTitle('Test Guild')]);
    expect(buttons(withdrawn)).toEqual([]);
    expect(textOf(withdrawn)).toContain('1 × VIP — 30 dni');

    const displayed = s.dmNow(fresh)!;
    expect(isDisplay(displayed)).toBe(true);
    expect(displayed.embeds).toEqual([]);
    expect(buttons(displayed)).toEqual([]);
    expect(textOf(displayed)).toContain(en.links.dmWithdrawn);
    expect(textOf(displayed)).toContain(`## ${en.links.dmWithdrawnTitle('Test Guild')}`);
    expect(textOf(displayed)).toContain('1 × Pakiet monet — 370 monet');
  });

  it('stays classic when the shop reports its payment; a new DM is display components, paid as such', async () => {
    const buyer = new Member(h);
    const old = await s.checkout(buyer, 'Old_Paid', VIP_30);
    const oldDm = await classicDm(old, buyer);
    const fresh = await s.checkout(buyer, 'New_Paid', COINS_370);
    h.store.pay(old.url);
    h.store.pay(fresh.url);
    await s.poll();

    const paid = now(oldDm);
    expect(isDisplay(paid)).toBe(false);
    expect(paid.content).toMatch(/^✅ The shop reports this order as paid \(<t:\d+:f>\)\.$/);
    expect(paid.embeds.map((embed) => (embed as { title?: string }).title)).toEqual([en.payments.dmPaidTitle('Test Guild')]);
    expect(buttons(paid)).toEqual([]);

    const displayed = s.dmNow(fresh)!;
    expect(isDisplay(displayed)).toBe(true);
    expect(buttons(displayed)).toEqual([]);
    expect(textOf(displayed)).toMatch(/^✅ The shop reports this order as paid \(<t:\d+:f>\)\.$/m);
    expect(textOf(displayed)).toContain(`## ${en.payments.dmPaidTitle('Test Guild')}`);
    expect(textOf(displayed)).toContain(en.payments.dmAskStaff(fresh.id));
  });
});

describe('purchases that are not the link’s', () => {
  const h = useHarness();
  const s = steps(h);

  it('match nothing: another nick, other items, another quantity, or made before the link', async () => {
    const log = await logChannel(h);
    const vip = findVariant(h.store.shop, 'VIP', '30 dni').variant.id;
    const forever = findVariant(h.store.shop, 'VIP', 'Na zawsze').variant.id;
    const before = h.clock.now();
    h.store.purchaseOnWebsite({ nick: 'Match_Me', items: [{ variantId: vip, quantity: 2 }], date: before - 5 * MINUTE });
    h.clock.advance(2 * MINUTE);
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Match_Me', VIP_30, 2);
    await s.tick();
    h.store.purchaseOnWebsite({ nick: 'Someone_Else', items: [{ variantId: vip, quantity: 2 }] });
    h.store.purchaseOnWebsite({ nick: 'match_me', items: [{ variantId: forever, quantity: 2 }] });
    h.store.purchaseOnWebsite({ nick: 'MATCH_ME', items: [{ variantId: vip, quantity: 3 }] });
    h.store.purchaseOnWebsite({ nick: 'Match_Me', items: [{ variantId: vip, quantity: 2 }, { variantId: forever, quantity: 1 }] });
    await s.poll(4);

    expect((await s.record(issued))!.payment).toBeUndefined();
    expect(listed(await s.myLinks(buyer))).toEqual([`🕒 ${issued.id} · Pending`]);
    expect(buttonLabels(s.dmNow(issued)!)).toEqual([en.checkout.pay]);
    expect(h.discord.messagesIn(log).filter((post) => textOf(post).includes(en.log.linkPaidTitle))).toEqual([]);
    // Only the purchases by the link's nick (any case) made after it were asked about, each once.
    expect(s.requests().info).toBe(3);

    // The right purchase afterwards is the link's, but the nick has just bought outside the bot (the
    // purchases above matched no link): a website buyer's nick settles no link by itself, staff choose (issue 36).
    h.store.purchaseOnWebsite({ nick: 'match_ME', items: [{ variantId: vip, quantity: 2 }] });
    await s.poll();
    expect((await s.record(issued))!.payment).toBeUndefined();
    expect(h.discord.messagesIn(log).filter((post) => textOf(post).includes(en.review.introWebsite('match\\_ME')))).toHaveLength(1);
  });

  it('pays the newest of two identical links issued before it, and a second identical purchase pays the other', async () => {
    const buyer = new Member(h);
    const older = await s.checkout(buyer, 'Twin_Links', VIP_30);
    h.clock.advance(5 * MINUTE);
    const newer = await s.checkout(buyer, 'Twin_Links', VIP_30);
    h.store.pay(older.url);
    await s.poll();
    expect((await s.record(newer))!.payment?.status).toBe('paid');
    expect((await s.record(older))!.payment).toBeUndefined();
    h.store.pay(older.url);
    await s.poll();
    expect((await s.record(older))!.payment?.status).toBe('paid');
  });

  it('never matches a withdrawn link', async () => {
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Withdrawn_1', COINS_370);
    await s.links(s.moderator(), 'revoke', { link: issued.id });
    h.store.pay(issued.url);
    await s.poll();
    expect((await s.record(issued))!.payment).toBeUndefined();
    expect(listed(await s.myLinks(buyer))).toEqual([`⛔ ${issued.id} · Withdrawn`]);
  });

  it('reads a cart purchase listed as one row per item as one purchase', async () => {
    h.store.buyersListing = 'row-per-item';
    try {
      const buyer = new Member(h);
      await addToCart(buyer, VIP_30, 2);
      const issued = await s.checkout(buyer, 'Two_Lines', COINS_370, 4);
      expect((await s.record(issued))!.items).toHaveLength(2);
      const info = s.requests().info;
      h.store.pay(issued.url);
      await s.poll();
      expect((await s.record(issued))!.payment?.status).toBe('paid');
      expect(s.requests().info).toBe(info + 1);
    } finally {
      h.store.buyersListing = 'one-row';
    }
  });
});

describe('a payment the store has not settled yet', () => {
  const h = useHarness();
  const s = steps(h);

  it('is followed while pending, across a restart, until it is paid', async () => {
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Slow_Payer', VIP_30);
    const transaction = h.store.pay(issued.url, { status: 'pending' });
    await s.poll();
    const matched = (await s.record(issued))!;
    expect(matched.payment).toMatchObject({ status: 'pending', transactionId: transaction });
    expect(buttonLabels(s.dmNow(issued)!)).toEqual([en.checkout.pay]);
    const list = (await s.links(s.moderator(), 'user', { member: buyer.user.id })).message!;
    expect(s.names(list)).toEqual([`🕒 ${issued.id} · Pending`]);
    expect(textOf(list)).toContain(en.links.paymentUnderWay);

    // Asked again after 30 s, then 60 s, 120 s…: each time still pending.
    const info = s.requests().info;
    await s.poll(); // 30 s: due
    expect(s.requests().info).toBe(info + 1);
    await s.poll(); // 60 s after the last: not yet
    expect(s.requests().info).toBe(info + 1);
    await s.poll();
    expect(s.requests().info).toBe(info + 2);

    await h.restart();
    h.store.setStatus(transaction, 'paid');
    h.clock.advance(2 * MINUTE);
    await s.tick();
    expect(s.requests().info).toBe(info + 3);
    expect((await s.record(issued))!.payment?.status).toBe('paid');
    expect(buttons(s.dmNow(issued)!)).toEqual([]);
    await s.poll(20);
    expect(s.requests().info).toBe(info + 3);
  });

  it('still pays its link when it completes after the link’s lifetime ended', async () => {
    await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { linkLifetimeHours: 1 });
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Late_Payer', VIP_30);
    const transaction = h.store.pay(issued.url, { status: 'pending' });
    await s.poll();
    expect((await s.record(issued))!.payment).toMatchObject({ status: 'pending', transactionId: transaction });
    h.clock.advance(HOUR);
    await s.poll(2);
    h.store.setStatus(transaction, 'paid');
    for (let round = 0; round < 4; round += 1) {
      h.clock.advance(15 * MINUTE);
      await s.tick();
    }
    expect((await s.record(issued))!.payment).toMatchObject({ status: 'paid', transactionId: transaction });
    expect(buttons(s.dmNow(issued)!)).toEqual([]);
    await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { linkLifetimeHours: 24 });
  });

  // Issue 28, point 4: a failed or expired attempt no longer closes the link at once (before: the DM said
  // "failed" at the next poll and a later paid transaction was never matched).
  it('that fails or expires: the link stays open for its lifetime; when it ends with no paid attempt, the DM says so and how to buy again', async () => {
    const buyer = new Member(h);
    const failing = await s.checkout(buyer, 'Fail_Pay', VIP_30);
    const failed = h.store.pay(failing.url, { status: 'pending' });
    await s.poll();
    h.store.setStatus(failed, 'fail');
    await s.poll();
    expect(buttonLabels(s.dmNow(failing)!)).toEqual([en.checkout.pay]);
    expect((await s.record(failing))!.payment).toBeUndefined();

    const expiring = await s.checkout(buyer, 'Expire_Pay', COINS_370);
    h.store.pay(expiring.url, { status: 'expired' });
    await s.poll();
    expect(buttonLabels(s.dmNow(expiring)!)).toEqual([en.checkout.pay]);

    // Both links' 24 h lifetime (and the watch's grace) end with no paid attempt: they settle with what the shop last said.
    h.clock.advance(DAY);
    await s.poll(2);
    const failedDm = s.dmNow(failing)!;
    expect(buttons(failedDm)).toEqual([]);
    expect(failedDm.text).toMatch(/^❌ The shop reports that the payment for this order failed \(<t:\d+:f>\)\. Do not pay through this link again\.$/m);
    expect(textOf(failedDm)).toContain(en.payments.dmBuyAgain);
    const expiredDm = s.dmNow(expiring)!;
    expect(buttons(expiredDm)).toEqual([]);
    expect(expiredDm.text).toContain('The shop reports that the payment for this order expired before it was completed');

    const view = await s.myLinks(buyer);
    expect(listed(view)).toEqual([`⌛ ${expiring.id} · Expired`, `❌ ${failing.id} · Payment failed`]);
    expect(textOf(view)).toContain('The shop reported the payment as expired');
    expect(textOf(view)).toContain('The shop reported the payment as failed');
    // Buy again is there for both; neither can be sent again.
    expect(buttonLabels(view)).toEqual(expect.arrayContaining([en.buyAgain.button(failing.id), en.buyAgain.button(expiring.id)]));
  });

  // Issue 28, point 4. Before: the first (failed) transaction closed the link as "failed"; the paid one matched nothing.
  it('a failed first attempt, then a pending one, then a paid one for the same link: the link ends paid, told once', async () => {
    const log = h.discord.addChannel(h.discord.defaultGuildId, { name: 'shop-log-attempts' });
    await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { logChannelId: log });
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Second_Try', VIP_30);
    h.store.pay(issued.url, { status: 'fail' });
    await s.poll();
    expect(buttonLabels(s.dmNow(issued)!)).toEqual([en.checkout.pay]);
    const pending = h.store.pay(issued.url, { status: 'pending' });
    await s.poll();
    expect((await s.record(issued))!.payment).toMatchObject({ status: 'pending', transactionId: pending });
    h.clock.advance(MINUTE);
    const paid = h.store.pay(issued.url);
    await s.poll();
    expect((await s.record(issued))!.payment).toMatchObject({ status: 'paid', transactionId: paid });
    const dm = s.dmNow(issued)!;
    expect(buttons(dm)).toEqual([]);
    expect(dm.text).toContain('✅ The shop reports this order as paid');
    // The pending one completes later: the link stays paid by the other, and nothing is told twice.
    h.store.setStatus(pending, 'paid');
    await s.poll(6);
    expect((await s.record(issued))!.payment?.transactionId).toBe(paid);
    expect(s.dmNow(issued)!.edits).toBe(1);
    expect(paidPosts(h, log).filter((post) => textOf(post).includes(issued.id))).toHaveLength(1);
  });
});

describe('what polling costs the store', () => {
  const h = useHarness();
  const s = steps(h);

  it('asks nothing while no link is open, one server every 30 s while one is, and stops after it expires', async () => {
    const everyFiveSeconds = async (duration: number) => {
      for (let elapsed = 0; elapsed < duration; elapsed += 5 * SECOND) {
        h.clock.advance(5 * SECOND);
        await s.tick();
      }
    };
    const before = h.store.requests.length;
    await everyFiveSeconds(HOUR);
    expect(h.store.requests.length).toBe(before);

    await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { linkLifetimeHours: 1 });
    const buyer = new Member(h);
    await s.checkout(buyer, 'One_Open', VIP_30);
    const atIssue = s.requests();
    await everyFiveSeconds(HOUR + 5 * MINUTE);
    // One server (Survival) every 30 s while the link is open: its hour (less the minute the checkout
    // took) and a grace of two polls and a minute, in case it was paid in its last seconds.
    const polls = s.requests().buyers - atIssue.buyers;
    expect(polls).toBeGreaterThanOrEqual(120);
    expect(polls).toBeLessThanOrEqual(124);
    expect(s.requests().info).toBe(atIssue.info);

    const after = h.store.requests.length;
    await everyFiveSeconds(HOUR);
    expect(h.store.requests.length).toBe(after);
    expect(await h.bot.services.storage.paymentWatch.licenses()).toEqual([]);
  });

  it('pauses on a 429 like every store call, and members still check out', async () => {
    await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { linkLifetimeHours: 24 });
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Busy_Shop', VIP_30);
    h.store.failNext('latestBuyers', { status: 429, headers: { 'Retry-At': '40' }, body: { success: false, type: 'error', message: 'too many requests' } });
    await s.poll();
    const refused = s.requests().buyers;
    // The license is paused for 40 s: the next round asks nothing.
    await s.poll();
    expect(s.requests().buyers).toBe(refused);

    // Members' menus come from the cache meanwhile; once the pause is over, checkouts go through.
    h.clock.advance(15 * SECOND);
    const other = new Member(h);
    await addToCart(other, VIP_FOREVER);
    const next = await s.checkout(other, 'After_Pause', VIP_30);
    expect(buttonLabels(next.dm)).toEqual([en.checkout.pay]);
    h.store.pay(issued.url);
    await s.poll();
    expect(s.requests().buyers).toBe(refused + 1);
    expect((await s.record(issued))!.payment?.status).toBe('paid');
  });
});

describe('a shop whose API has no payment endpoints', () => {
  const h = useHarness();
  const s = steps(h);

  it('switches following payments off for that license, says so in /shop-admin status, and stops asking', async () => {
    h.store.noPaymentEndpoints.add(LICENSE_KEY);
    const admin = new Member(h, { permissions: ADMIN });
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain(en.admin.statusPaymentsOn(30));

    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'No_Endpoints', VIP_30);
    h.store.pay(issued.url);
    await s.poll();
    expect(s.requests()).toEqual({ buyers: 1, info: 0 });
    const status = textOf((await admin.sub('shop-admin', 'status')).message!);
    expect(status).toContain('Off for this license: SpaceIs answered 404 (“not found”) to its payment endpoints');

    await s.poll(60);
    expect(s.requests()).toEqual({ buyers: 1, info: 0 });
    expect((await s.record(issued))!.payment).toBeUndefined();

    // Six hours later one request tries again; the shop has them now.
    h.store.noPaymentEndpoints.clear();
    h.clock.advance(6 * HOUR);
    await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { linkLifetimeHours: 24 });
    await s.tick();
    expect((await s.record(issued))!.payment?.status).toBe('paid');
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain(en.admin.statusPaymentsOn(30));
  });
});

describe('a store that lists purchases without dates', () => {
  const h = useHarness();
  const s = steps(h);

  it('counts a purchase as made when the watcher first saw it, and what was listed before it looked as older than the link', async () => {
    h.store.buyersDates = 'none';
    const vip = findVariant(h.store.shop, 'VIP', '30 dni').variant.id;
    const buyer = new Member(h);
    // Bought earlier (no date says when): must not pay the link about to be issued.
    h.store.purchaseOnWebsite({ nick: 'No_Dates', items: [{ variantId: vip, quantity: 1 }], date: h.clock.now() - HOUR });
    const issued = await s.checkout(buyer, 'No_Dates', VIP_30);
    await s.tick();
    await s.poll();
    expect((await s.record(issued))!.payment).toBeUndefined();
    expect(s.requests().info).toBe(0);

    h.store.pay(issued.url);
    await s.poll();
    expect((await s.record(issued))!.payment?.status).toBe('paid');
  });
});

describe('the buyer’s e-mail', () => {
  it('never reaches storage, the logs or a Discord message, at the most verbose log level', async () => {
    const h = await startHarness({ logLevel: 'trace' });
    try {
      const s = steps(h);
      await logChannel(h);
      const buyer = new Member(h);
      const paid = await s.checkout(buyer, 'Mail_Secret', VIP_30);
      h.store.pay(paid.url, { status: 'pending' });
      await s.poll();
      h.store.setStatus(h.store.transactions.at(-1)!.id, 'paid');
      await s.poll();
      expect((await s.record(paid))!.payment?.status).toBe('paid');
      await s.links(s.moderator(), 'user', { member: buyer.user.id });
      await h.restart(); // what is on disk is all there is

      const storage = readFileSync(h.storageFile, 'utf8') + readFileSync(`${h.storageFile}-wal`, { encoding: 'utf8', flag: 'a+' });
      expect(storage).not.toContain(BUYER_EMAIL);
      for (const line of h.logs) {
        expect(line).not.toContain(BUYER_EMAIL);
        // Nor a payment URL.
        expect(line).not.toContain(paid.url);
      }
      for (const request of h.discord.requests) expect(JSON.stringify(request.body ?? '')).not.toContain(BUYER_EMAIL);
      expect(h.store.requestsTo('transactionInfo').length).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
  });
});
