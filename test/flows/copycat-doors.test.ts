import { PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { DEFAULT_BOT_PERMISSIONS, DEFAULT_MEMBER_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import { findVariant } from '../fakes/spaceis/fixtures.js';
import { Member, VIP_30, VIP_FOREVER } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps, type Issued } from '../support/links.js';
import { buttonLabels, textOf } from '../support/ui.js';

/**
 * The copycat's last doors: the rules that send a purchase on thin evidence to staff (a late
 * purchase, a website buyer's nick, a member with links for many nicks) tried again as an attacker
 * would, where the bot never saw the victim's earlier purchases, and where staff must look to see a
 * role held back. Each is tried beside an honest member.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ADMIN = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageRoles | PermissionFlagsBits.ManageMessages;

describe('the copycat’s last doors', () => {
  const h = useHarness();
  const s = linkSteps(h);
  let guildId: string;
  let vipRole: string;
  let admin: Member;

  beforeAll(async () => {
    guildId = h.discord.defaultGuildId;
    h.discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageRoles);
    vipRole = h.discord.addRole(guildId, 'VIP', { position: 1 });
    admin = new Member(h, { permissions: ADMIN, username: 'admin' });
    const handle = await h.discord.autocomplete(admin.user, 'shop-admin', { name: 'product', value: 'vip' }, { subcommandGroup: 'rewards', subcommand: 'add', permissions: ADMIN });
    const vip = String((await handle.settled()).choices!.find((choice) => choice.name === 'VIP · Rangi · Survival')!.value);
    expect(textOf((await admin.sub('shop-admin', 'rewards add', { product: vip, role: vipRole, days: 30 })).message!)).toContain('Saved:');
  });

  const vip30 = () => findVariant(h.store.shop, 'VIP', '30 dni', { server: 'Survival' }).variant.id;
  const paymentOf = async (issued: Issued) => (await s.record(issued))!.payment;
  const hasRole = (member: Member) => (h.discord.memberRoles(guildId, member.user.id) ?? []).includes(vipRole);
  const website = (nick: string) => h.store.purchaseOnWebsite({ nick, items: [{ variantId: vip30(), quantity: 1 }] });
  /** The review of a purchase, as /links user shows it to staff (no log channel needed). */
  async function reviewShown(member: Member): Promise<string> {
    const mod = s.moderator();
    await s.links(mod, 'user', { member: member.user.id });
    return textOf(mod.message!);
  }
  /** The link paid, as the watcher reports it (the role path, without the store). */
  async function paid(issued: Issued): Promise<void> {
    const link = (await h.bot.services.storage.paymentLinks.get(guildId, issued.id))!;
    await h.bot.services.paymentEvents.emit({ link, status: 'paid', transactionId: `T-${issued.id}`, at: h.clock.now() });
  }

  describe('a website buyer’s earlier purchase, listed when the copycat’s link is the only open one', () => {
    it('is noted though the copycat’s link has the nick: the player’s next website purchase goes to staff', async () => {
      // Nothing open: the bot reads no purchases while the player buys on the website.
      website('Hidden_Regular');
      h.clock.advance(HOUR);
      // The copycat opens a link with the player's nick: the first poll lists the player's purchase made before it.
      const copycat = new Member(h);
      const copied = await s.checkout(copycat, 'Hidden_Regular', VIP_30);
      await s.poll();
      // The player buys again on the website, minutes later.
      h.clock.advance(3 * MINUTE);
      website('Hidden_Regular');
      await s.poll(2);
      expect(await paymentOf(copied)).toBeUndefined();
      expect(hasRole(copycat)).toBe(false);
      expect(await reviewShown(copycat)).toContain(en.review.waiting);

      // An honest member whose nick never bought outside the bot: settles by itself.
      const honest = new Member(h);
      const own = await s.checkout(honest, 'Fresh_Honest', VIP_30);
      await s.poll();
      h.clock.advance(2 * MINUTE);
      h.store.pay(own.url);
      await s.poll(2);
      expect(await paymentOf(own)).toMatchObject({ status: 'paid' });
    });
  });

  describe('a fresh link for the same nick every 1 h 50 min', () => {
    it('is late all the same: measured from the member’s first unpaid link for the nick and items', async () => {
      const copycat = new Member(h);
      await s.checkout(copycat, 'Patient_Target', VIP_30);
      await s.poll();
      h.clock.advance(110 * MINUTE);
      const fresh = await s.checkout(copycat, 'Patient_Target', VIP_30);
      await s.poll();
      h.clock.advance(40 * MINUTE);
      website('Patient_Target');
      await s.poll(2);
      expect(await paymentOf(fresh)).toBeUndefined();
      expect(hasRole(copycat)).toBe(false);
      expect(await reviewShown(copycat)).toContain(en.review.waiting);

      // An honest member who abandoned one link and paid the next within minutes: settles by itself.
      const honest = new Member(h);
      await s.checkout(honest, 'Retry_Honest', VIP_30);
      h.clock.advance(10 * MINUTE);
      const second = await s.checkout(honest, 'Retry_Honest', VIP_30);
      await s.poll();
      h.clock.advance(2 * MINUTE);
      h.store.pay(second.url);
      await s.poll(2);
      expect(await paymentOf(second)).toMatchObject({ status: 'paid' });
    });

    it('counts two or more other unpaid links for one nick in 24 hours as a copycat sign', async () => {
      const copycat = new Member(h);
      // Links for the nick with other items, so that "late" (same items) cannot see them.
      await s.checkout(copycat, 'Net_Target', VIP_FOREVER);
      h.clock.advance(20 * MINUTE);
      await s.checkout(copycat, 'Net_Target', VIP_FOREVER);
      h.clock.advance(20 * MINUTE);
      const last = await s.checkout(copycat, 'Net_Target', VIP_30);
      await s.poll();
      h.clock.advance(5 * MINUTE);
      website('Net_Target');
      await s.poll(2);
      expect(await paymentOf(last)).toBeUndefined();
      expect(await reviewShown(copycat)).toContain(en.review.waiting);
      // The log post says why (review-view.ts): the links let go for the nick.
      expect((await h.bot.services.reviews.waitingFor(guildId, copycat.user.id)).map((review) => review.reason)).toEqual(['repeated']);
    });
  });

  describe('a nick’s use', () => {
    it('is recorded only from a payment that was not thin evidence: a copycat’s win never holds back the player’s role', async () => {
      // The copycat casts a net (links for many nicks): the player's website purchase minutes later
      // pays their link, but their role is held back for staff.
      const copycat = new Member(h);
      for (const nick of ['Net_A', 'Net_B', 'Net_C']) await s.checkout(copycat, nick, VIP_30);
      const copied = await s.checkout(copycat, 'Never_Seen', VIP_30);
      await paid(copied);
      expect(hasRole(copycat)).toBe(false);

      // A late purchase a moderator confirmed: staff's word, not evidence of whose nick it is.
      const other = new Member(h);
      const late = await s.checkout(other, 'Also_Never_Seen', VIP_30);
      const lateLink = (await h.bot.services.storage.paymentLinks.get(guildId, late.id))!;
      await h.bot.services.paymentEvents.emit({ link: lateLink, status: 'paid', transactionId: `T-${late.id}`, at: h.clock.now(), confirmedBy: admin.user.id });

      // The real players join and buy through the bot with their own nicks: their roles are given.
      for (const nick of ['Never_Seen', 'Also_Never_Seen']) {
        const player = new Member(h);
        await paid(await s.checkout(player, nick, VIP_30));
        expect(hasRole(player)).toBe(true);
      }
    });
  });

  describe('a moderator’s own link in a staff review', () => {
    it('cannot be confirmed by that moderator: they are told so and nothing changes; another moderator can', async () => {
      const mod = s.moderator();
      const own = await s.checkout(mod, 'Mod_Own_Nick', VIP_30);
      await s.poll();
      h.clock.advance(3 * HOUR);
      h.store.pay(own.url);
      await s.poll(2);
      await s.links(mod, 'user', { member: mod.user.id });
      expect(buttonLabels(mod.message!)).toContain(en.review.confirmButton(own.id));
      const answer = await mod.press(en.review.confirmButton(own.id));
      expect(textOf(answer.message!)).toContain(en.review.ownLink(own.id));
      expect(await paymentOf(own)).toBeUndefined();

      const other = s.moderator();
      await s.links(other, 'user', { member: mod.user.id });
      await other.press(en.review.confirmButton(own.id));
      expect(await paymentOf(own)).toMatchObject({ status: 'paid', confirmedBy: other.user.id });
    });
  });

  describe('a role held back for staff', () => {
    it('is listed with its Give role button in /shop-admin status and /links user, with no log channel; the paid DM says staff will confirm it', async () => {
      const first = new Member(h);
      await paid(await s.checkout(first, 'Shared_Main', VIP_30));
      const second = new Member(h);
      const held = await s.checkout(second, 'shared_main', VIP_30);
      await paid(held);
      expect(hasRole(second)).toBe(false);
      expect(textOf(s.dmNow(held)!)).toContain(en.payments.dmRoleHeld);
      // The first buyer's DM promises nothing of the kind.

      const status = await admin.sub('shop-admin', 'status');
      expect(textOf(status.message!)).toContain(en.rewards.statusHeldLine(`<@&${vipRole}>`, `<@${second.user.id}>`, held.id));
      expect(buttonLabels(status.message!)).toContain(en.rewards.giveRoleFor(held.id));

      const mod = new Member(h, { permissions: ADMIN });
      await s.links(mod, 'user', { member: second.user.id });
      expect(textOf(mod.message!)).toContain(en.rewards.statusHeldLine(`<@&${vipRole}>`, `<@${second.user.id}>`, held.id));
      await mod.press(en.rewards.giveRoleFor(held.id));
      expect(hasRole(second)).toBe(true);
      // Given: no longer listed.
      expect(textOf((await admin.sub('shop-admin', 'status')).message!)).not.toContain(en.rewards.statusHeldLine(`<@&${vipRole}>`, `<@${second.user.id}>`, held.id));
    });

    it('has its log post offered again when Discord did not take it, like a payment step', async () => {
      const log = h.discord.addChannel(guildId, { name: 'shop-log' });
      await h.bot.services.storage.guildSettings.set(guildId, { logChannelId: log });
      const heldPosts = () => h.discord.messagesIn(log).filter((post) => textOf(post).startsWith(`## ${en.log.roleHeldBackTitle}\n`));
      const first = new Member(h);
      const one = await s.checkout(first, 'Retry_Shared', VIP_30);
      await s.poll();
      h.clock.advance(MINUTE);
      h.store.pay(one.url);
      await s.poll(2);
      expect(hasRole(first)).toBe(true);
      const second = new Member(h);
      const two = await s.checkout(second, 'retry_shared', VIP_30);
      await s.poll();
      h.clock.advance(MINUTE);
      h.store.pay(two.url);
      h.discord.failRoute('POST', new RegExp(`^/channels/${log}/messages$`), { status: 500, body: { message: 'Internal Server Error', code: 0 } }, 8);
      await s.poll(2);
      expect(await paymentOf(two)).toMatchObject({ status: 'paid' });
      expect(hasRole(second)).toBe(false);
      await s.poll(6, 2 * MINUTE);
      const [post, ...more] = heldPosts().filter((one) => textOf(one).includes(two.id));
      expect(more).toEqual([]);
      expect(buttonLabels(post!)).toEqual([en.rewards.giveRole]);
    });
  });

  it('has every new text in Polish', () => {
    expect(pl.review.introRepeated('X')).not.toBe(en.review.introRepeated('X'));
    expect(pl.review.ownLink('X')).not.toBe(en.review.ownLink('X'));
    expect(pl.payments.dmRoleHeld).not.toBe(en.payments.dmRoleHeld);
    expect(pl.rewards.statusHeldLine('a', 'b', 'c')).not.toBe(en.rewards.statusHeldLine('a', 'b', 'c'));
  });
});
