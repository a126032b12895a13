import { ComponentType, PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { DEFAULT_BOT_PERMISSIONS, DEFAULT_MEMBER_PERMISSIONS, type FakeMessage } from '../fakes/discord/fake-discord.js';
import type { FixturePrice } from '../fakes/spaceis/fake-spaceis.js';
import { findVariant } from '../fakes/spaceis/fixtures.js';
import { addToCart, Member, VIP_30, VIP_FOREVER } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps, type Issued } from '../support/links.js';
import { guildsWithOwnLicenses } from '../support/own-licenses.js';
import { buttonLabels, componentsOf, textOf } from '../support/ui.js';

/**
 * Issue 36, point 5, "a copycat gets nothing": nicks are public and the store gives no transaction
 * id with a payment link, so a member who checks out with someone else's nick could be told "paid"
 * (and given the role) when that player buys on the shop's website. Each rule is tried as the
 * attacker would and as an honest member would, side by side.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ADMIN = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageRoles;

describe('a copycat gets nothing', () => {
  const h = useHarness();
  const s = linkSteps(h);
  let guildId: string;
  let log: string;
  let vipRole: string;

  beforeAll(async () => {
    guildId = h.discord.defaultGuildId;
    log = h.discord.addChannel(guildId, { name: 'shop-log' });
    await h.bot.services.storage.guildSettings.set(guildId, { logChannelId: log });
    h.discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageRoles);
    vipRole = h.discord.addRole(guildId, 'VIP', { position: 1 });
    const admin = new Member(h, { permissions: ADMIN, username: 'admin' });
    const handle = await h.discord.autocomplete(admin.user, 'shop-admin', { name: 'product', value: 'vip' }, { subcommandGroup: 'rewards', subcommand: 'add', permissions: ADMIN });
    const vip = String((await handle.settled()).choices!.find((choice) => choice.name === 'VIP · Rangi · Survival')!.value);
    expect(textOf((await admin.sub('shop-admin', 'rewards add', { product: vip, role: vipRole, days: 30 })).message!)).toContain('Saved:');
  });

  const license = async () => (await h.bot.services.stores.forGuild(guildId))!.license;
  const vip30 = () => findVariant(h.store.shop, 'VIP', '30 dni', { server: 'Survival' }).variant.id;
  const reviewPosts = () => h.discord.messagesIn(log).filter((post) => textOf(post).includes(en.review.title));
  const reviewFor = (issued: Issued) => reviewPosts().filter((post) => textOf(post).includes(issued.id));
  const paymentOf = async (issued: Issued) => (await s.record(issued))!.payment;
  const heldPosts = (title: string, userId: string) => h.discord.messagesIn(log).filter((post) => textOf(post).startsWith(`## ${title}\n`) && textOf(post).includes(`<@${userId}>`));
  const hasRole = (member: Member) => (h.discord.memberRoles(guildId, member.user.id) ?? []).includes(vipRole);
  /** The link paid, as the watcher reports it (the role path, without the store). */
  async function paid(issued: Issued): Promise<void> {
    const link = (await h.bot.services.storage.paymentLinks.get(guildId, issued.id))!;
    await h.bot.services.paymentEvents.emit({ link, status: 'paid', transactionId: `T-${issued.id}`, at: h.clock.now() });
  }

  describe('a purchase made more than 2 hours after its link was issued', () => {
    it('goes to staff; a purchase minutes after checkout settles by itself', async () => {
      // The attacker: a link with a player's public nick, left open until the player buys on the website.
      const copycat = new Member(h);
      const copied = await s.checkout(copycat, 'Late_Target', VIP_30);
      await s.poll();
      h.clock.advance(3 * HOUR);
      await s.poll();
      h.store.purchaseOnWebsite({ nick: 'Late_Target', items: [{ variantId: vip30(), quantity: 1 }] });
      await s.poll(2);
      expect(await paymentOf(copied)).toBeUndefined();
      expect(buttonLabels(s.dmNow(copied)!)).toEqual([en.checkout.pay]);
      expect(hasRole(copycat)).toBe(false);
      const [post, ...more] = reviewFor(copied);
      expect(more).toEqual([]);
      expect(textOf(post!)).toContain(en.review.introLate('Late\\_Target'));
      expect(buttonLabels(post!)).toEqual([en.review.confirmButton(copied.id)]);

      // The honest member pays within minutes: paid, told, given the role, no staff.
      const honest = new Member(h);
      const own = await s.checkout(honest, 'Prompt_Payer', VIP_30);
      h.clock.advance(5 * MINUTE);
      h.store.pay(own.url);
      await s.poll(2);
      expect(await paymentOf(own)).toMatchObject({ status: 'paid' });
      expect(hasRole(honest)).toBe(true);
      expect(reviewFor(own)).toEqual([]);

      // A moderator who knows the late payment was the member's own confirms it.
      const mod = s.moderator();
      await mod.press(en.review.confirmButton(copied.id), post);
      expect(await paymentOf(copied)).toMatchObject({ status: 'paid', confirmedBy: mod.user.id });
    });
  });

  /** A member checks out and pays a couple of minutes later, as members do; the watcher runs meanwhile. */
  async function checkoutAndPay(member: Member, nick: string): Promise<Issued> {
    const issued = await s.checkout(member, nick, VIP_30);
    await s.poll();
    h.clock.advance(2 * MINUTE);
    h.store.pay(issued.url);
    await s.poll(2);
    return issued;
  }

  describe('a nick seen buying on the shop’s website in the last 90 days', () => {
    it('settles no link by itself; a nick the shop saw only through the bot does', async () => {
      // The shop is watched (an open link), and a player buys on the website: the nick is a website buyer's.
      const bystander = new Member(h);
      await s.checkout(bystander, 'Someone_Else', VIP_30);
      h.store.purchaseOnWebsite({ nick: 'Web_Regular', items: [{ variantId: vip30(), quantity: 1 }] });
      await s.poll(2);
      h.clock.advance(3 * 86_400_000);

      // The attacker checks out with that nick and the player's usual item; the player buys on the website again, within minutes.
      const copycat = new Member(h);
      const copied = await s.checkout(copycat, 'web_regular', VIP_30);
      await s.poll();
      h.clock.advance(5 * MINUTE);
      h.store.purchaseOnWebsite({ nick: 'Web_Regular', items: [{ variantId: vip30(), quantity: 1 }] });
      await s.poll(2);
      expect(await paymentOf(copied)).toBeUndefined();
      expect(hasRole(copycat)).toBe(false);
      const [post, ...more] = reviewFor(copied);
      expect(more).toEqual([]);
      expect(textOf(post!)).toContain(en.review.introWebsite('Web\\_Regular'));

      // The honest member, whose nick the shop never saw outside the bot, pays their link: it settles by itself.
      const honest = new Member(h);
      const own = await checkoutAndPay(honest, 'Bot_Only_Buyer');
      expect(await paymentOf(own)).toMatchObject({ status: 'paid' });
      expect(reviewFor(own)).toEqual([]);
      // Their own earlier payment through the bot does not make the nick a website buyer's.
      expect(await paymentOf(await checkoutAndPay(honest, 'Bot_Only_Buyer'))).toMatchObject({ status: 'paid' });

      // Cheap: polls with no purchase new since the one before write no website buyer's record.
      const webWrites = () => h.storage.writtenKeys.filter((key) => key.includes('web-buyer:')).length;
      await s.poll(3);
      const written = webWrites();
      await s.poll(4);
      expect(webWrites()).toBe(written);
    });
  });

  describe('a member asking for links for many other nicks', () => {
    it('gets no automatic role after three unpaid links for other nicks in 24 hours; a member retrying their own nick does', async () => {
      const attacker = new Member(h);
      for (const nick of ['Victim_A', 'Victim_B', 'Victim_C']) await s.checkout(attacker, nick, VIP_30);
      const fourth = await s.checkout(attacker, 'Victim_D', VIP_30);
      await paid(fourth);
      expect(hasRole(attacker)).toBe(false);
      const [post, ...more] = heldPosts(en.log.roleHeldManyNicksTitle, attacker.user.id);
      expect(more).toEqual([]);
      expect(textOf(post!)).toContain(en.log.roleHeldManyNicks(`<@&${vipRole}>`, `<@${attacker.user.id}>`, fourth.id, 3));
      expect(buttonLabels(post!)).toEqual([en.rewards.giveRole]);

      // An honest member: three abandoned links for their own nick and two gifts for friends, then a paid one.
      const honest = new Member(h);
      for (const nick of ['Own_Main', 'Own_Main', 'own_main', 'Friend_One', 'Friend_Two']) await s.checkout(honest, nick, VIP_30);
      await paid(await s.checkout(honest, 'Own_Main', VIP_30));
      expect(hasRole(honest)).toBe(true);
      expect(heldPosts(en.log.roleHeldManyNicksTitle, honest.user.id)).toEqual([]);

      // A day later the attacker's old links no longer count.
      h.clock.advance(25 * HOUR);
      await paid(await s.checkout(attacker, 'Victim_F', VIP_30));
      expect(hasRole(attacker)).toBe(true);
    });
  });

  describe('a nick’s use', () => {
    it('counts only when its link was paid: a free checkout with someone’s nick holds back nothing', async () => {
      // The attacker checks out with a player's nick and never pays: that alone no longer holds back the player's role.
      const squatter = new Member(h);
      await s.checkout(squatter, 'Free_Claim', VIP_30);
      const player = new Member(h);
      await paid(await s.checkout(player, 'free_claim', VIP_30));
      expect(hasRole(player)).toBe(true);
      expect(heldPosts(en.log.roleHeldBackTitle, player.user.id)).toEqual([]);

      // A nick another member paid with lately is not only this member's: held back for staff, as before.
      const first = new Member(h);
      await paid(await s.checkout(first, 'Paid_Twice', VIP_30));
      expect(hasRole(first)).toBe(true);
      const second = new Member(h);
      await paid(await s.checkout(second, 'paid_twice', VIP_30));
      expect(hasRole(second)).toBe(false);
      expect(heldPosts(en.log.roleHeldBackTitle, second.user.id)).toHaveLength(1);
    });
  });

  describe('a gift to a member', () => {
    function userSelectOf(message: FakeMessage): string {
      return componentsOf(message).find((component) => component.type === ComponentType.UserSelect)!.custom_id!;
    }

    it('never shows the giver the member’s remembered nick: the giver types it', async () => {
      const friend = new Member(h);
      await friend.run('cart');
      await h.bot.services.storage.nicks.set(await license(), friend.user.id, 'Secret_Main');
      const giver = new Member(h);
      await addToCart(giver, VIP_30);
      await giver.run('cart');
      await giver.press(en.gift.button);
      // The choice says the giver types the nick: it promises no remembered one.
      expect(textOf(giver.message!)).toContain('you type their Minecraft nick');
      const { username: _username, ...dispatch } = giver.options;
      const issued = h.store.issuedLinks.length;
      const outcome = await (await h.discord.selectUsers(giver.user, giver.message!, userSelectOf(giver.message!), [friend.user], dispatch)).settled();
      expect(outcome.modal?.title).toBe(en.gift.nickTitle);
      expect(JSON.stringify(outcome.modal)).not.toContain('Secret_Main');
      expect(h.store.issuedLinks.length).toBe(issued);
      expect(JSON.stringify(h.discord.messagesIn(h.discord.dmChannelOf(giver.user.id) ?? 'none'))).not.toContain('Secret_Main');
      giver.modal = outcome.modal;
      const dm = h.discord.waitForDm(giver.user.id);
      await giver.submit({ nick: 'Typed_Friend' });
      expect(h.store.issuedLinks.at(-1)!.nick).toBe('Typed_Friend');
      expect(textOf(await dm)).toContain(en.gift.label('Typed\\_Friend', `<@${friend.user.id}>`));
      h.clock.advance(MINUTE);
    });
  });

  describe('“Continue with the new prices”', () => {
    const setPrice = (variant: string, add: number) => {
      const { variant: fixture } = findVariant(h.store.shop, 'VIP', variant, { server: 'Survival' });
      const original = (fixture as { original?: FixturePrice[] }).original ?? fixture.prices;
      Object.assign(fixture, { original });
      fixture.prices = original.map((price): FixturePrice => ({ ...price, amount: Number(price.amount) + add }));
      h.clock.advance(MINUTE + 1);
    };
    const restore = (variant: string) => setPrice(variant, 0);

    it('asks again when the price rose further or a line was added after the question; the same offer goes on to the link', async () => {
      const buyer = new Member(h);
      await h.bot.services.storage.nicks.set(await license(), buyer.user.id, 'Price_Watch');
      await addToCart(buyer, VIP_30);
      try {
        setPrice('30 dni', 2);
        await buyer.run('cart');
        await buyer.press(en.cart.checkout);
        expect(textOf(buyer.message!)).toContain(en.cart.priceChanged('PLN 14.99', 'PLN 16.99'));
        const question = buyer.message!;

        // A further rise while the question is open: pressing Continue shows the new price, issues nothing.
        setPrice('30 dni', 82);
        const issued = h.store.issuedLinks.length;
        await buyer.press(en.checkout.continueNewPrices, question);
        expect(textOf(buyer.message!)).toContain(en.checkout.pricesUpTitle);
        expect(textOf(buyer.message!)).toContain(en.cart.priceChanged('PLN 14.99', 'PLN 96.99'));
        expect(h.store.issuedLinks.length).toBe(issued);
        const second = buyer.message!;

        // A line added after the question: asked again too.
        await addToCart(buyer, VIP_FOREVER);
        await buyer.press(en.checkout.continueNewPrices, second);
        expect(textOf(buyer.message!)).toContain(en.checkout.pricesUpTitle);
        expect(textOf(buyer.message!)).toContain(en.cart.priceChanged('PLN 14.99', 'PLN 96.99'));
        expect(h.store.issuedLinks.length).toBe(issued);

        // The honest path: nothing changed since this question, Continue gives the link.
        const dm = h.discord.waitForDm(buyer.user.id);
        await buyer.press(en.checkout.continueNewPrices);
        expect(textOf(buyer.message!)).toContain(en.checkout.sentTitle);
        await dm;
        expect(h.store.issuedLinks.length).toBe(issued + 1);
      } finally {
        restore('30 dni');
        h.clock.advance(10 * MINUTE);
      }
    });
  });

  describe('a remembered nick', () => {
    it('belongs to one shop: another shop asks for the nick, the same shop goes straight on', async () => {
      const buyer = new Member(h);
      await s.checkout(buyer, 'Shop_One_Nick', VIP_30);
      const [other] = await guildsWithOwnLicenses(h, 1, 'copycat');
      const elsewhere = Object.assign(new Member(h, { guildId: other!.guildId, channelId: other!.channelId }), { user: buyer.user });
      await addToCart(elsewhere, VIP_30);
      await elsewhere.run('cart');
      expect(textOf(elsewhere.message!)).not.toContain('Shop\\_One\\_Nick');
      await elsewhere.press(en.cart.checkout);
      expect(elsewhere.modal?.title).toBe(en.nick.modalTitle);
      expect(JSON.stringify(elsewhere.modal)).not.toContain('Shop_One_Nick');

      // Back in the first shop: the nick is remembered there.
      await addToCart(buyer, VIP_30);
      await buyer.run('cart');
      const dm = h.discord.waitForDm(buyer.user.id);
      await buyer.press(en.cart.checkout);
      await dm;
      expect(h.store.issuedLinks.at(-1)!.nick).toBe('Shop_One_Nick');
    });
  });

  it('has every new text in Polish', () => {
    expect(pl.review.introLate('X')).not.toBe(en.review.introLate('X'));
    expect(pl.review.introWebsite('X')).not.toBe(en.review.introWebsite('X'));
    expect(pl.log.roleHeldManyNicksTitle).not.toBe(en.log.roleHeldManyNicksTitle);
  });
});
