import { ComponentType, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { FakeMessage } from '../fakes/discord/fake-discord.js';
import { DEFAULT_BOT_PERMISSIONS } from '../fakes/discord/payloads.js';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { componentsOf, textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';

const COOLDOWN = 10 * 60_000;

describe('A gift for a friend', () => {
  const h = useHarness();
  const { moderator, links } = linkSteps(h);
  const guildId = () => h.discord.defaultGuildId;
  const license = async () => (await h.bot.services.stores.forGuild(guildId()))!.license;
  /** The nick a buyer knows for a friend and types: the bot never offers a member's remembered nick to someone else (issue 36). */
  const friendNicks = new Map<string, string>();

  /** A buyer with VIP 30 in the cart and their own nick remembered, looking at the gift choice. */
  async function buyerAtGiftChoice(locale?: string): Promise<Member> {
    const buyer = new Member(h);
    await h.bot.services.storage.nicks.set(await license(), buyer.user.id, 'Buyer_Own');
    await addToCart(buyer, VIP_30);
    if (locale) buyer.options.locale = locale;
    await buyer.run('cart');
    await buyer.press(locale === 'pl' ? pl.gift.button : en.gift.button);
    return buyer;
  }
  function userSelectOf(message: FakeMessage): string {
    const found = componentsOf(message).find((component) => component.type === ComponentType.UserSelect);
    if (!found?.custom_id) throw new Error('no user select');
    return found.custom_id;
  }
  async function pickMember(buyer: Member, recipient: Member): Promise<void> {
    const { username: _username, ...dispatch } = buyer.options;
    const handle = await h.discord.selectUsers(buyer.user, buyer.message!, userSelectOf(buyer.message!), [recipient.user], dispatch);
    const outcome = await handle.settled();
    if (outcome.modal) {
      buyer.modal = outcome.modal;
      const nick = friendNicks.get(recipient.user.id);
      if (nick) await buyer.submit({ nick });
    } else if (outcome.message) buyer.message = outcome.message;
  }
  const lastNick = () => h.store.issuedLinks.at(-1)!.nick;
  const lastRecord = async () => (await h.bot.services.storage.paymentLinks.listRecent(guildId(), 1))[0]!;

  it('for a member: the nick the buyer types goes to the shop, the DM says whose gift it is, the buyer’s own nick is kept', async () => {
    const friend = new Member(h);
    friendNicks.set(friend.user.id, 'Friend_Nick');
    const buyer = await buyerAtGiftChoice();
    expect(textOf(buyer.message!)).toContain(en.gift.title);
    const dm = h.discord.waitForDm(buyer.user.id);
    await pickMember(buyer, friend);
    expect(lastNick()).toBe('Friend_Nick');
    expect(textOf(await dm)).toContain(`🎁 ${en.gift.label('Friend\\_Nick', `<@${friend.user.id}>`)}`);
    expect((await lastRecord()).gift).toEqual({ recipientId: friend.user.id });
    expect(await h.bot.services.checkout.rememberedNick(await license(), buyer.user.id)).toBe('Buyer_Own');

    // My payment links and the moderators' /links say the same.
    h.clock.advance(COOLDOWN);
    await buyer.run('cart');
    await buyer.press(en.links.myLinks);
    expect(textOf(buyer.message!)).toContain(en.gift.label('Friend\\_Nick', `<@${friend.user.id}>`));
    const list = await links(moderator(), 'user', { member: buyer.user.id });
    expect(textOf(list.message!)).toContain(en.gift.label('Friend\\_Nick', `<@${friend.user.id}>`));
  });

  it('for a member whose nick the bot does not know: the buyer types it', async () => {
    const friend = new Member(h);
    const buyer = await buyerAtGiftChoice();
    await pickMember(buyer, friend);
    expect(buyer.modal?.title).toBe(en.gift.nickTitle);
    const dm = h.discord.waitForDm(buyer.user.id);
    await buyer.submit({ nick: 'Typed_Friend' });
    expect(lastNick()).toBe('Typed_Friend');
    expect(textOf(await dm)).toContain(en.gift.label('Typed\\_Friend', `<@${friend.user.id}>`));
    expect((await lastRecord()).gift).toEqual({ recipientId: friend.user.id });
    h.clock.advance(COOLDOWN);
  });

  it('for a player by nick: no member on the link, “Gift for Nick”', async () => {
    const buyer = await buyerAtGiftChoice();
    await buyer.press(en.gift.byNick);
    const dm = h.discord.waitForDm(buyer.user.id);
    await buyer.submit({ nick: 'Any_Player' });
    expect(lastNick()).toBe('Any_Player');
    const text = textOf(await dm);
    expect(text).toContain(`🎁 ${en.gift.label('Any\\_Player', undefined)}`);
    expect(text).not.toContain('(<@');
    expect((await lastRecord()).gift).toEqual({});
    expect(await h.bot.services.checkout.rememberedNick(await license(), buyer.user.id)).toBe('Buyer_Own');
    h.clock.advance(COOLDOWN);
  });

  it('for oneself: just a purchase with the buyer’s own nick, no gift label', async () => {
    const buyer = await buyerAtGiftChoice();
    const dm = h.discord.waitForDm(buyer.user.id);
    await pickMember(buyer, buyer);
    expect(lastNick()).toBe('Buyer_Own');
    const text = textOf(await dm);
    expect(text).toContain(`${en.checkout.dmNick}: **Buyer\\_Own**`);
    expect(text).not.toContain('🎁');
    expect((await lastRecord()).gift).toBeUndefined();
    h.clock.advance(COOLDOWN);
  });

  /** Gifts VIP 30 to `friend` (the buyer types their nick), pays it at the shop and runs the payment watcher until it is reported. */
  async function paidGift(friend: Member): Promise<void> {
    const buyer = await buyerAtGiftChoice();
    const dm = h.discord.waitForDm(buyer.user.id);
    await pickMember(buyer, friend);
    await dm;
    await h.bot.services.payments.tick();
    h.store.pay(h.store.issuedLinks.at(-1)!.url);
    for (let round = 0; round < 3; round += 1) {
      h.clock.advance(30_000);
      await h.bot.services.payments.tick();
    }
    h.clock.advance(COOLDOWN);
  }
  /** A member of the server (one who has used the bot there), whose nick their friends know. */
  async function serverMember(nick: string): Promise<Member> {
    const member = new Member(h);
    await member.run('cart');
    friendNicks.set(member.user.id, nick);
    return member;
  }
  const dmsOf = (member: Member) => {
    const channel = h.discord.dmChannelOf(member.user.id);
    // The gift DMs only (the answer to the opt-out button is a private message in that channel too).
    return channel ? h.discord.messagesIn(channel).filter((message) => textOf(message).includes('🎁 A gift for you')) : [];
  };

  it('the recipient gets one DM once the gift is paid, and none after “Don’t send me gift messages”', async () => {
    const friend = await serverMember('Gifted_One');
    await paidGift(friend);
    expect((await lastRecord()).payment?.status).toBe('paid');
    const [dm, ...more] = dmsOf(friend);
    expect(more).toEqual([]);
    const text = textOf(dm!);
    expect(text).toContain('🎁 A gift for you — ');
    expect(text).toMatch(/<@\d+> bought you a gift on \*\*.*\*\*, and it is paid:/);
    expect(text).toContain('1 × VIP — 30 dni');
    expect(text).toContain(en.gift.dmNick('Gifted\\_One'));
    // More rounds: still one.
    h.clock.advance(30_000);
    await h.bot.services.payments.tick();
    expect(dmsOf(friend)).toHaveLength(1);

    // The recipient turns them off from the DM itself; the next paid gift brings no DM.
    const stop = await h.discord.click(friend.user, dm!, componentsOf(dm!).find((component) => component.label === en.gift.stopButton)!.custom_id!);
    const answer = await stop.settled();
    expect(textOf(answer.message!)).toBe(en.gift.stopped);
    await paidGift(friend);
    expect(dmsOf(friend)).toHaveLength(1);
  });

  it('no DM when the server turned gift messages off, or the recipient left the server', async () => {
    const friend = await serverMember('Quiet_One');
    await h.bot.services.storage.guildSettings.set(guildId(), { giftMessages: false });
    try {
      await paidGift(friend);
      expect(dmsOf(friend)).toEqual([]);
    } finally {
      await h.bot.services.storage.guildSettings.set(guildId(), { giftMessages: true });
    }
    const leaver = await serverMember('Gone_One');
    const buyer = await buyerAtGiftChoice();
    await pickMember(buyer, leaver);
    h.discord.removeMember(guildId(), leaver.user.id);
    await h.bot.services.payments.tick();
    h.store.pay(h.store.issuedLinks.at(-1)!.url);
    for (let round = 0; round < 3; round += 1) {
      h.clock.advance(30_000);
      await h.bot.services.payments.tick();
    }
    expect(dmsOf(leaver)).toEqual([]);
    h.clock.advance(COOLDOWN);
  });

  // Issue 36, point 3. Before: a closed DM was taken as done, silently: the admins never knew the recipient was not told.
  it('a recipient whose DMs are closed (403 50007): the gift DM is tried once, never again, and the admins are told once in status', async () => {
    const friend = await serverMember('Closed_Gift');
    h.discord.refuseDms(friend.user.id);
    await paidGift(friend);
    const paid = await lastRecord();
    expect(paid.payment?.status).toBe('paid');
    // Two hours more of rounds: longer than any step's backoff.
    for (let round = 0; round < 240; round += 1) {
      h.clock.advance(30_000);
      await h.bot.services.payments.tick();
    }
    const channel = h.discord.dmChannelOf(friend.user.id)!;
    expect(h.discord.requests.filter((request) => request.method === 'POST' && request.path === `/channels/${channel}/messages`).map((request) => request.status)).toEqual([403]);
    const admin = new Member(h, { permissions: PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ManageGuild, username: 'owner' });
    const line = en.payments.statusRefusedLine(`<@${paid.userId}>`, paid.id, en.payments.refusedStep.gift.nominative, en.payments.refusedReason['dms-closed']);
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).toContain(line);
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).not.toContain(line);
    h.discord.acceptDms(friend.user.id);
  });

  it('in Polish', async () => {
    const friend = new Member(h);
    friendNicks.set(friend.user.id, 'Kolega_PL');
    const buyer = await buyerAtGiftChoice('pl');
    const choice = textOf(buyer.message!);
    expect(choice).toContain(pl.gift.title);
    expect(choice).toContain(pl.gift.intro);
    const dm = h.discord.waitForDm(buyer.user.id);
    await pickMember(buyer, friend);
    expect(textOf(await dm)).toContain(`🎁 Prezent dla **Kolega\\_PL** (<@${friend.user.id}>)`);
    h.clock.advance(COOLDOWN);
  });
});

describe('a reward role earned by a gift', () => {
  const h = useHarness();

  it('goes to the member it was for, never to the buyer; the feed says “a gift” without naming the giver', async () => {
    const guildId = h.discord.defaultGuildId;
    h.discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageRoles);
    const vipRole = h.discord.addRole(guildId, 'VIP', { position: 1 });
    const admin = new Member(h, { permissions: PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageRoles, username: 'owner' });
    const { username: _admin, ...asAdmin } = admin.options;
    const suggested = await (await h.discord.autocomplete(admin.user, 'shop-admin', { name: 'product', value: 'vip' }, { ...asAdmin, subcommandGroup: 'rewards', subcommand: 'add', options: {} })).settled();
    const product = suggested.choices!.find((choice) => choice.name === 'VIP · Rangi · Survival')!;
    await admin.sub('shop-admin', 'rewards add', { product: String(product.value), role: vipRole, days: 30 });
    const feed = h.discord.addChannel(guildId, { name: 'purchases' });
    await h.bot.services.setup.changeSettings(guildId, { purchaseFeedChannelId: feed });

    const friend = new Member(h);
    await friend.run('cart');
    const buyer = new Member(h);
    await addToCart(buyer, VIP_30);
    await buyer.run('cart');
    await buyer.press(en.gift.button);
    const { username: _username, ...dispatch } = buyer.options;
    const select = componentsOf(buyer.message!).find((component) => component.type === ComponentType.UserSelect)!.custom_id!;
    const dm = h.discord.waitForDm(buyer.user.id);
    buyer.modal = (await (await h.discord.selectUsers(buyer.user, buyer.message!, select, [friend.user], dispatch)).settled()).modal;
    await buyer.submit({ nick: 'Role_Friend' });
    await dm;
    await h.bot.services.payments.tick();
    h.store.pay(h.store.issuedLinks.at(-1)!.url);
    for (let round = 0; round < 3; round += 1) {
      h.clock.advance(30_000);
      await h.bot.services.payments.tick();
    }
    expect(h.discord.memberRoles(guildId, friend.user.id)).toContain(vipRole);
    // Before: the buyer got the role of a gift they paid for someone else.
    expect(h.discord.memberRoles(guildId, buyer.user.id)).not.toContain(vipRole);
    // The purchase feed says it was a gift, naming neither the giver nor anyone but the nick.
    await h.bot.services.feed.settled();
    const [post] = h.discord.messagesIn(feed);
    expect(textOf(post!)).toContain(`**Role\\_Friend** bought **VIP — 30 dni** · ${en.feed.gift}`);
    expect(textOf(post!)).not.toContain(buyer.user.id);
  });
});
