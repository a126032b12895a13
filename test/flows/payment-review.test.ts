import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { openStorage } from '../../src/storage/keyv-store.js';
import { licenseId } from '../../src/security/license-id.js';
import { pl } from '../../src/i18n/pl.js';
import type { FakeMessage } from '../fakes/discord/fake-discord.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness, type Harness } from '../support/harness.js';
import { defaultShop } from '../fakes/spaceis/fixtures.js';
import { linkSteps } from '../support/links.js';
import { buttonLabels, buttons, textOf } from '../support/ui.js';

/**
 * Issue 28, "who paid is a guess": nicks are public, so anyone may check out with another's nick
 * and the same items. A purchase that links of two or more members could have paid settles none of
 * them by itself: each guild's log channel gets one post with a button per candidate, moderators
 * choose, and /links user shows the same buttons for a guild without a log channel.
 */

const ADMIN = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ManageGuild;
const unix = (ms: number) => Math.floor(ms / 1000);

function steps(h: Harness) {
  const base = linkSteps(h);
  return {
    ...base,
    async logChannel(guildId = h.discord.defaultGuildId) {
      const channel = h.discord.addChannel(guildId, { name: 'shop-log' });
      await h.bot.services.storage.guildSettings.set(guildId, { logChannelId: channel });
      return channel;
    },
    reviewPosts: (channel: string) => h.discord.messagesIn(channel).filter((post) => textOf(post).includes(en.review.title)),
    paidPosts: (channel: string) => h.discord.messagesIn(channel).filter((post) => textOf(post).includes(en.log.linkPaidTitle)),
    /** A message as it stands now. */
    now: (message: FakeMessage) => h.discord.message(message.channel_id, message.id)!,
  };
}

describe('a purchase two members’ links could have paid', () => {
  const h = useHarness();
  const s = steps(h);

  it('settles nobody’s link: one log post with a button per member; a moderator chooses, the other stays open', async () => {
    const log = await s.logChannel();
    const real = new Member(h);
    const copycat = new Member(h);
    const first = await s.checkout(real, 'Real_Buyer', VIP_30);
    const second = await s.checkout(copycat, 'Real_Buyer', VIP_30);
    const transaction = h.store.pay(first.url);
    await s.poll();

    // Nobody paid as far as the bot knows: no record, no DM, no "paid" post changes.
    for (const issued of [first, second]) {
      expect((await s.record(issued))!.payment).toBeUndefined();
      expect(buttonLabels(s.dmNow(issued)!)).toEqual([en.checkout.pay]);
      expect(s.dmNow(issued)!.edits).toBe(0);
    }
    expect(s.paidPosts(log)).toEqual([]);
    const [post, ...more] = s.reviewPosts(log);
    expect(more).toEqual([]);
    const posted = textOf(post!);
    expect(posted).toContain(en.review.intro('Real\\_Buyer'));
    expect(posted).toContain('1 × VIP — 30 dni');
    expect(posted).toContain(transaction);
    expect(posted).toContain(en.review.candidate(`<@${real.user.id}>`, first.id, `<t:${unix(first.createdAt)}:f>`));
    expect(posted).toContain(en.review.candidate(`<@${copycat.user.id}>`, second.id, `<t:${unix(second.createdAt)}:f>`));
    expect(posted).not.toContain(first.url);
    expect(buttonLabels(post!)).toEqual([en.review.confirmButton(first.id), en.review.confirmButton(second.id)]);
    for (const button of buttons(post!)) expect(button.custom_id!.length).toBeLessThanOrEqual(100);
    // The post names members without pinging them.
    const sent = h.discord.requests.find((request) => request.method === 'POST' && request.path === `/channels/${log}/messages` && JSON.stringify(request.body).includes(en.review.title));
    expect((sent!.body as { allowed_mentions?: unknown }).allowed_mentions).toEqual({ parse: [] });

    // Rounds go on and the bot restarts: the purchase is not asked about again, and the post is not made again.
    const info = h.store.requestsTo('transactionInfo').length;
    await h.restart();
    await s.poll(3);
    expect(h.store.requestsTo('transactionInfo').length).toBe(info);
    expect(s.reviewPosts(log)).toHaveLength(1);

    // The admins' status counts it.
    const admin = new Member(h, { permissions: ADMIN });
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain(en.review.status(1));

    // A member who is not a moderator is refused, and nothing changes.
    const stranger = new Member(h);
    await stranger.press(en.review.confirmButton(second.id), post);
    expect(stranger.last!.ephemeral).toBe(true);
    expect(textOf(stranger.message!)).toBe(en.review.notAllowed);
    expect((await s.record(second))!.payment).toBeUndefined();

    // A moderator chooses the first link: it is paid, confirmed by them; the second stays open.
    const mod = s.moderator();
    await mod.press(en.review.confirmButton(first.id), post);
    expect(mod.last!.ephemeral).toBe(true);
    expect(textOf(mod.message!)).toContain(en.review.confirmed(first.id, `<@${real.user.id}>`));
    expect((await s.record(first))!.payment).toMatchObject({ status: 'paid', transactionId: transaction, confirmedBy: mod.user.id });
    expect(buttons(s.dmNow(first)!)).toEqual([]);
    expect(textOf(s.dmNow(first)!)).toContain('The shop reports this order as paid');
    expect((await s.record(second))!.payment).toBeUndefined();
    expect(buttonLabels(s.dmNow(second)!)).toEqual([en.checkout.pay]);
    const [paid, ...morePaid] = s.paidPosts(log);
    expect(morePaid).toEqual([]);
    expect(textOf(paid!)).toContain(`<@${real.user.id}>`);
    expect(textOf(paid!)).toContain(en.review.confirmedBy(`<@${mod.user.id}>`));

    const list = (await s.links(mod, 'user', { member: real.user.id })).message!;
    expect(s.names(list)).toEqual([`✅ ${first.id} · Paid`]);
    expect(textOf(list)).toContain(en.review.confirmedBy(`<@${mod.user.id}>`));
    const other = (await s.links(mod, 'user', { member: copycat.user.id })).message!;
    expect(s.names(other)).toEqual([`🕒 ${second.id} · Pending`]);
    expect(textOf(other)).not.toContain(en.review.waiting);
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).not.toContain(en.review.statusLabel);

    // A second press — another moderator, the other button — says who confirmed, and changes nothing.
    const late = s.moderator();
    await late.press(en.review.confirmButton(second.id), post);
    expect(textOf(late.message!)).toBe(en.review.already(first.id, `<@${mod.user.id}>`));
    expect((await s.record(second))!.payment).toBeUndefined();
    expect(s.dmNow(second)!.edits).toBe(0);
    expect(s.paidPosts(log)).toHaveLength(1);

    // The copycat's link still settles by itself once a purchase is theirs alone.
    h.store.pay(second.url);
    await s.poll();
    expect((await s.record(second))!.payment).toMatchObject({ status: 'paid' });
    expect((await s.record(second))!.payment?.confirmedBy).toBeUndefined();
  });

  it('without a log channel, /links user says a payment waits for staff and offers the same buttons; a withdrawn candidate’s says so', async () => {
    await h.bot.services.storage.guildSettings.set(h.discord.defaultGuildId, { logChannelId: null });
    const one = new Member(h);
    const two = new Member(h);
    const first = await s.checkout(one, 'No_Log_Chan', VIP_30);
    const second = await s.checkout(two, 'No_Log_Chan', VIP_30);
    h.store.pay(second.url);
    await s.poll();
    expect((await s.record(second))!.payment).toBeUndefined();

    const mod = s.moderator();
    const list = (await s.links(mod, 'user', { member: two.user.id })).message!;
    expect(textOf(list)).toContain(en.review.waiting);
    expect(textOf(list)).toContain(`<@${one.user.id}>`);
    expect(buttonLabels(list)).toEqual(expect.arrayContaining([en.review.confirmButton(first.id), en.review.confirmButton(second.id)]));
    // In Polish for a Polish moderator.
    const polish = (await s.links(s.moderator({ locale: 'pl' }), 'user', { member: one.user.id })).message!;
    expect(textOf(polish)).toContain(pl.review.waiting);

    // The first member's link is withdrawn meanwhile: its button says so and changes nothing.
    await s.links(mod, 'revoke', { link: first.id });
    await mod.press(en.review.confirmButton(first.id), list);
    expect(textOf(mod.message!)).toBe(en.review.withdrawn(first.id, `<@${mod.user.id}>`));
    expect((await s.record(first))!.payment).toBeUndefined();

    await mod.press(en.review.confirmButton(second.id), list);
    expect(textOf(mod.message!)).toContain(en.review.confirmed(second.id, `<@${two.user.id}>`));
    expect(buttons(s.dmNow(second)!)).toEqual([]);
    const after = (await s.links(mod, 'user', { member: two.user.id })).message!;
    expect(textOf(after)).not.toContain(en.review.waiting);
    expect(s.names(after)).toEqual([`✅ ${second.id} · Paid`]);
  });
});

describe('two guilds selling from the same license', () => {
  const h = useHarness();
  const s = steps(h);

  it('each get one post naming their own member, and a moderator of either settles it for both', async () => {
    const home = h.discord.defaultGuildId;
    const away = h.discord.addGuild({ name: 'Second server' }).id;
    const homeLog = await s.logChannel(home);
    const awayLog = await s.logChannel(away);
    const here = new Member(h);
    const there = new Member(h, { guildId: away });
    const mine = await s.checkout(here, 'Two_Guilds', VIP_30);
    const theirs = await s.checkout(there, 'Two_Guilds', VIP_30);
    h.store.pay(theirs.url);
    await s.poll();

    const [homePost, ...moreHome] = s.reviewPosts(homeLog);
    const [awayPost, ...moreAway] = s.reviewPosts(awayLog);
    expect([moreHome, moreAway]).toEqual([[], []]);
    expect(buttonLabels(homePost!)).toEqual([en.review.confirmButton(mine.id)]);
    expect(textOf(homePost!)).not.toContain(there.user.id);
    expect(buttonLabels(awayPost!)).toEqual([en.review.confirmButton(theirs.id)]);
    expect(textOf(awayPost!)).not.toContain(here.user.id);
    expect((await s.record(mine, home))!.payment).toBeUndefined();
    expect((await s.record(theirs, away))!.payment).toBeUndefined();

    const awayMod = s.moderator({ guildId: away });
    await awayMod.press(en.review.confirmButton(theirs.id), awayPost);
    expect((await s.record(theirs, away))!.payment).toMatchObject({ status: 'paid', confirmedBy: awayMod.user.id });
    // The other guild's post is stale now: its button says it was settled, never by whom nor which link of
    // another Discord server (issue 36, point 6); its link stays open.
    const homeMod = new Member(h, { permissions: ADMIN });
    await homeMod.press(en.review.confirmButton(mine.id), homePost);
    expect(textOf(homeMod.message!)).toBe(en.review.alreadySettled);
    expect(textOf(homeMod.message!)).not.toContain(awayMod.user.id);
    expect(textOf(homeMod.message!)).not.toContain(theirs.id);
    expect((await s.record(mine, home))!.payment).toBeUndefined();
    expect(buttonLabels(s.dmNow(mine)!)).toEqual([en.checkout.pay]);
  });
});

describe('links issued before the open-link index kept the member', () => {
  const h = useHarness();
  const s = steps(h);

  it('are grouped by the member their record names', async () => {
    const log = await s.logChannel();
    const one = new Member(h);
    const two = new Member(h);
    const first = await s.checkout(one, 'Old_Entries', VIP_30);
    const second = await s.checkout(two, 'Old_Entries', VIP_30);
    // The index as the version before issue 28 wrote it: one list per license, no member in its entries.
    const records = [(await s.record(first))!, (await s.record(second))!];
    const license = records[0]!.license;
    const storage = await openStorage(h.config.STORAGE_URL);
    try {
      for (const record of records) await storage.keyv.delete(`pay-open:${license}:${record.guildId}`);
      await storage.keyv.delete(`pay-open-guilds:${license}`);
      await storage.keyv.set(
        `pay-open:${license}`,
        records.map((record) => ({ guildId: record.guildId, linkId: record.id, nick: record.nick, createdAt: record.createdAt, items: [] })),
      );
    } finally {
      await storage.close();
    }
    await h.restart();

    h.store.pay(first.url);
    await s.poll();
    expect((await s.record(first))!.payment).toBeUndefined();
    expect((await s.record(second))!.payment).toBeUndefined();
    const [post] = s.reviewPosts(log);
    expect(textOf(post!)).toContain(`<@${one.user.id}>`);
    expect(textOf(post!)).toContain(`<@${two.user.id}>`);
  });
});

describe('the operator rotates SPACEIS_API_KEY to another key of the same shop', () => {
  const h = useHarness({ shop: { ...defaultShop(), licenseId: '6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b' } });
  const s = steps(h);

  it('counts the links issued under both keys together: a purchase two members’ links could match waits for staff', async () => {
    const log = await s.logChannel();
    const before = new Member(h);
    const old = await s.checkout(before, 'Rotated_Nick', VIP_30);
    h.store.shopsByKey.set(ROTATED_KEY, h.store.shop);
    await h.restart({ SPACEIS_API_KEY: ROTATED_KEY });
    const after = new Member(h);
    const fresh = await s.checkout(after, 'Rotated_Nick', VIP_30);
    expect((await s.record(fresh))!.license).not.toBe((await s.record(old))!.license);

    h.store.pay(fresh.url);
    await s.poll(2);
    expect((await s.record(fresh))!.payment).toBeUndefined();
    expect((await s.record(old))!.payment).toBeUndefined();
    const [post, ...more] = s.reviewPosts(log);
    expect(more).toEqual([]);
    expect(buttonLabels(post!)).toEqual([en.review.confirmButton(old.id), en.review.confirmButton(fresh.id)]);

    // The sole member's link of either key still settles by itself.
    const third = new Member(h);
    const alone = await s.checkout(third, 'Only_Mine', VIP_30);
    h.store.pay(alone.url);
    await s.poll();
    expect((await s.record(alone))!.payment).toMatchObject({ status: 'paid' });
  });
});

/** The same shop's new key, made in the SpaceIs panel. */
const ROTATED_KEY = 'rotated-license-key-NEVER-LOG-ME-review';

describe('a rotated key among 2 000 watched licenses (issue 36, point 4)', () => {
  const h = useHarness({ shop: { ...defaultShop(), licenseId: '7a2d3b8f-4c5e-4f60-9b1c-1d2e3f4a5b6c' } });
  const s = steps(h);

  it('finds the shop’s other key in one read for each purchase, not by reading every license', { timeout: 120_000 }, async () => {
    const index = h.bot.services.storage.paymentWatch.index;
    for (let n = 0; n < 2_000; n++) await index.enlist(licenseId(`another-shop-license-${n}`));
    const old = await s.checkout(new Member(h), 'Old_Key_Nick', VIP_30);
    h.store.shopsByKey.set(ROTATED_KEY_2, h.store.shop);
    await h.restart({ SPACEIS_API_KEY: ROTATED_KEY_2 });
    const first = await s.checkout(new Member(h), 'First_Buyer', VIP_30);
    h.store.pay(first.url);
    await s.poll(2);
    expect((await s.record(first))!.payment).toMatchObject({ status: 'paid' });

    // The next purchase under the new key: the old key's links are still looked at (the same nick waits
    // for staff), and finding them reads the shop's list, not the registry and 2 000 licenses' shops.
    const log = await s.logChannel();
    const again = await s.checkout(new Member(h), 'Old_Key_Nick', VIP_30);
    const reads = h.storage.readKeys.length;
    h.store.pay(again.url);
    await s.poll();
    const read = h.storage.readKeys.slice(reads);
    expect(s.reviewPosts(log)).toHaveLength(1);
    expect((await s.record(old))!.payment).toBeUndefined();
    expect(read.filter((key) => key.includes('pay-licenses'))).toEqual([]);
    expect(read.filter((key) => key.includes('license-shop:')).length).toBeLessThan(10);
  });
});

const ROTATED_KEY_2 = 'rotated-license-key-NEVER-LOG-ME-registry';

describe('a purchase two members’ links could have paid, before the store’s final word and after a month', () => {
  const h = useHarness();
  const s = steps(h);
  const DAY = 86_400_000;

  it('waits while the store says pending, pays nobody when it fails, and is raised once paid', async () => {
    const log = await s.logChannel();
    const [one, two] = [new Member(h), new Member(h)];
    const first = await s.checkout(one, 'Slow_Shared', VIP_30);
    const second = await s.checkout(two, 'Slow_Shared', VIP_30);
    const pending = h.store.pay(first.url, { status: 'pending' });
    await s.poll();
    expect(s.reviewPosts(log)).toEqual([]);
    for (const issued of [first, second]) expect((await s.record(issued))!.payment).toBeUndefined();
    h.store.setStatus(pending, 'paid');
    await s.poll();
    expect(s.reviewPosts(log)).toHaveLength(1);
    for (const issued of [first, second]) expect((await s.record(issued))!.payment).toBeUndefined();

    const failed = h.store.pay(second.url, { status: 'fail' });
    await s.poll(2);
    expect(s.reviewPosts(log)).toHaveLength(1);
    expect(s.reviewPosts(log).some((post) => textOf(post).includes(failed))).toBe(false);
    for (const issued of [first, second]) expect(buttonLabels(s.dmNow(issued)!)).toEqual([en.checkout.pay]);
  });

  it('is no longer offered after 30 days: the button says so, and status no longer counts it', async () => {
    const log = await s.logChannel();
    const [one, two] = [new Member(h), new Member(h)];
    const first = await s.checkout(one, 'Month_Old', VIP_30);
    await s.checkout(two, 'Month_Old', VIP_30);
    h.store.pay(first.url);
    await s.poll();
    const post = s.reviewPosts(log).find((candidate) => textOf(candidate).includes('Month\\_Old'))!;
    const admin = new Member(h, { permissions: ADMIN });
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain(en.review.statusLabel);

    h.clock.advance(31 * DAY);
    const mod = s.moderator();
    await mod.press(en.review.confirmButton(first.id), post);
    expect(textOf(mod.message!)).toBe(en.review.notWaiting);
    expect((await s.record(first))!.payment).toBeUndefined();
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).not.toContain(en.review.statusLabel);
  });
});

describe('a moderator’s confirmation whose Discord steps fail', () => {
  const h = useHarness();
  const s = steps(h);

  it('is finished by a later round: the DM edit Discord refused is done then, and the paid post is made once', async () => {
    const log = await s.logChannel();
    const real = new Member(h);
    const copycat = new Member(h);
    const first = await s.checkout(real, 'Staff_Steps', VIP_30);
    await s.checkout(copycat, 'Staff_Steps', VIP_30);
    h.store.pay(first.url);
    await s.poll();
    const [post] = s.reviewPosts(log);

    // Discord answers 500 to the DM's edit (discord.js retries each call a few times).
    h.discord.failRoute('PATCH', new RegExp(`^/channels/${first.dm.channel_id}/messages/${first.dm.id}$`), { status: 500, body: { code: 0, message: '500: Internal Server Error' } }, 4);
    const mod = s.moderator();
    await mod.press(en.review.confirmButton(first.id), post);
    expect((await s.record(first))!.payment).toMatchObject({ status: 'paid', confirmedBy: mod.user.id });
    // Before: the confirmation emitted once and a failed step was lost for good.
    expect(buttonLabels(s.dmNow(first)!)).toEqual([en.checkout.pay]);
    expect(s.paidPosts(log)).toHaveLength(1);

    await s.poll(2);
    expect(buttons(s.dmNow(first)!)).toEqual([]);
    expect(textOf(s.dmNow(first)!)).toContain('The shop reports this order as paid');
    await s.poll(3);
    expect(s.paidPosts(log)).toHaveLength(1);
    expect(s.dmNow(first)!.edits).toBe(1);
  });
});
