import { PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BOT_PERMISSIONS, DEFAULT_MEMBER_PERMISSIONS, type FakeMessage } from '../fakes/discord/fake-discord.js';
import { Member, SKY_VIP, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import type { PaymentLink } from '../../src/storage/payment-links.js';

// Adding a role for buyers takes Manage Roles of your own (Discord's rule for giving a role by hand).
const ADMIN = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageRoles;
const DAY = 86_400_000;

/** The line above a screen's heading: what just changed (ℹ️) or went wrong (⚠️). */
function noticeOf(message: FakeMessage): string {
  return textOf(message).split('\n')[0]!;
}

describe('/shop-admin rewards: roles for buyers', () => {
  const h = useHarness();
  const steps = linkSteps(h);
  let guildId: string;
  let admin: Member;
  let vipRole: string;
  let goldRole: string;
  let staffRole: string;
  let logChannel: string;

  beforeAll(async () => {
    guildId = h.discord.defaultGuildId;
    admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    // The bot is invited with Manage Roles; VIP and Gold sit below its own role, Staff above it (new roles go to the top).
    h.discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageRoles);
    vipRole = h.discord.addRole(guildId, 'VIP', { position: 1 });
    goldRole = h.discord.addRole(guildId, 'Gold', { position: 1 });
    staffRole = h.discord.addRole(guildId, 'Staff');
    logChannel = h.discord.addChannel(guildId, { name: 'shop-log' });
    await admin.sub('shop-admin', 'settings', { 'log-channel': logChannel });
  });

  async function suggest(member: Member, subcommand: 'add' | 'remove', focused: { name: string; value: string }, options: Record<string, string> = {}) {
    const { username: _username, ...dispatch } = member.options;
    const handle = await h.discord.autocomplete(member.user, 'shop-admin', focused, { ...dispatch, subcommandGroup: 'rewards', subcommand, options });
    return (await handle.settled()).choices ?? [];
  }

  async function valueOf(member: Member, subcommand: 'add' | 'remove', focused: { name: string; value: string }, label: string, options: Record<string, string> = {}) {
    const choice = (await suggest(member, subcommand, focused, options)).find((candidate) => candidate.name === label);
    if (!choice) throw new Error(`no suggestion "${label}"`);
    return String(choice.value);
  }

  async function storedRewards() {
    return h.bot.services.rewards.list(guildId);
  }

  /** The payment watcher's announcement, as it will send it once the store says the link is paid. */
  async function paid(id: string): Promise<PaymentLink> {
    const link = (await h.bot.services.storage.paymentLinks.get(guildId, id))!;
    await h.bot.services.paymentEvents.emit({ link, status: 'paid', transactionId: 'T1', at: h.clock.now() });
    return link;
  }

  const changesFor = (userId: string) => h.discord.roleChanges.filter((change) => change.userId === userId);
  const logPosts = () => h.discord.messagesIn(logChannel).map(textOf);
  const failurePosts = () => logPosts().filter((post) => post.startsWith(`## ${en.log.roleGrantFailedTitle}\n`));
  const counter = async (name: 'rolesGranted' | 'rolesRemoved') => (await h.bot.services.metrics[name].get()).values[0]?.value ?? 0;

  it('adds a role for a variant and one for a product, suggested from the offer, and lists them', async () => {
    const products = await suggest(admin, 'add', { name: 'product', value: 'vip' });
    expect(products.map((choice) => choice.name)).toEqual(expect.arrayContaining(['VIP · Rangi · Survival', 'VIP Wyspy · Rangi · SkyBlock']));
    const vip = await valueOf(admin, 'add', { name: 'product', value: 'vip' }, 'VIP · Rangi · Survival');
    const variants = await suggest(admin, 'add', { name: 'variant', value: '' }, { product: vip });
    expect(variants.map((choice) => choice.name)).toEqual(['7 dni (SMS)', '30 dni', 'Na zawsze']);
    expect((await suggest(admin, 'add', { name: 'variant', value: 'zaw' }, { product: vip })).map((choice) => choice.name)).toEqual(['Na zawsze']);
    const thirty = String(variants[1]!.value);

    const added = await admin.sub('shop-admin', 'rewards add', { product: vip, variant: thirty, role: vipRole, days: 30 });
    expect(added.ephemeral).toBe(true);
    expect(noticeOf(added.message!)).toBe(`ℹ️ Saved: buyers of **VIP** — 30 dni (Survival) get <@&${vipRole}> for 30 days.`);
    expect(textOf(added.message!)).toContain(`• **VIP** — 30 dni (Survival) → <@&${vipRole}>, for 30 days`);
    expect(textOf(added.message!)).toContain(en.rewards.footer);

    const sky = await valueOf(admin, 'add', { name: 'product', value: 'wyspy' }, 'VIP Wyspy · Rangi · SkyBlock');
    const forGood = await admin.sub('shop-admin', 'rewards add', { product: sky, role: goldRole });
    expect(noticeOf(forGood.message!)).toBe(`ℹ️ Saved: buyers of **VIP Wyspy**, any variant (SkyBlock) get <@&${goldRole}> for good.`);

    const listed = await admin.sub('shop-admin', 'rewards list');
    expect(textOf(listed.message!).split('\n').filter((line) => line.startsWith('•'))).toEqual([
      `• **VIP** — 30 dni (Survival) → <@&${vipRole}>, for 30 days`,
      `• **VIP Wyspy**, any variant (SkyBlock) → <@&${goldRole}>, for good`,
    ]);
    // Every change is in the log channel, as the settings' are.
    expect(logPosts().some((post) => post.includes(`**Roles for buyers**: none → **VIP** — 30 dni (Survival) → <@&${vipRole}>, for 30 days`))).toBe(true);

    // The same item and role again changes its days instead of adding a second reward.
    const changed = await admin.sub('shop-admin', 'rewards add', { product: vip, variant: thirty, role: vipRole, days: 7 });
    expect(noticeOf(changed.message!)).toBe(`ℹ️ Changed: buyers of **VIP** — 30 dni (Survival) now get <@&${vipRole}> for 7 days (before: for 30 days).`);
    await admin.sub('shop-admin', 'rewards add', { product: vip, variant: thirty, role: vipRole, days: 30 });
    expect(await storedRewards()).toHaveLength(2);
  });

  it('refuses @everyone, a managed role, a role above the bot, and any role without Manage Roles, saving nothing', async () => {
    const vip = await valueOf(admin, 'add', { name: 'product', value: 'vip' }, 'VIP · Rangi · Survival');
    const before = await storedRewards();
    const tryRole = async (role: string) => (await admin.sub('shop-admin', 'rewards add', { product: vip, role })).message!.text;

    expect(await tryRole(guildId)).toBe(`<@&${guildId}> can't be given to buyers. @everyone is every member's role: it can't be a reward. Pick another role. Nothing was saved.`);
    const botRole = h.discord.botRoleId(guildId);
    expect(await tryRole(botRole)).toBe(
      `<@&${botRole}> can't be given to buyers. <@&${botRole}> is managed by Discord for a bot or an integration: nobody can give it by hand. Pick another role. Nothing was saved.`,
    );
    expect(await tryRole(staffRole)).toBe(
      `<@&${staffRole}> can't be given to buyers. <@&${staffRole}> is not below the bot's highest role: in Server Settings → Roles, drag the bot's role above <@&${staffRole}>. Nothing was saved.`,
    );
    h.discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS);
    try {
      expect(await tryRole(vipRole)).toBe(
        `<@&${vipRole}> can't be given to buyers. The bot needs the Manage Roles permission: give it to the bot's role in Server Settings → Roles. Nothing was saved.`,
      );
      const polish = new Member(h, { permissions: ADMIN, locale: 'pl' });
      expect((await polish.sub('shop-admin', 'rewards add', { product: vip, role: vipRole })).message!.text).toBe(
        `Nie można nadawać kupującym roli <@&${vipRole}>. Bot potrzebuje uprawnienia „Zarządzanie rolami” — nadaj je roli bota w Ustawieniach serwera → Role. Nic nie zapisano.`,
      );
    } finally {
      h.discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageRoles);
    }
    expect(await storedRewards()).toEqual(before);
    expect((await admin.sub('shop-admin', 'rewards add', { product: 'No such thing', role: vipRole })).message!.text).toBe(en.rewards.noProduct);
  });

  it('works in Polish: add, list and remove', async () => {
    const polish = new Member(h, { permissions: ADMIN, locale: 'pl' });
    const vip = await valueOf(polish, 'add', { name: 'product', value: 'vip' }, 'VIP · Rangi · Survival');
    const forever = await valueOf(polish, 'add', { name: 'variant', value: 'zawsze' }, 'Na zawsze', { product: vip });
    const added = await polish.sub('shop-admin', 'rewards add', { product: vip, variant: forever, role: goldRole });
    expect(noticeOf(added.message!)).toBe(`ℹ️ Zapisano: kto kupi **VIP** — Na zawsze (Survival), dostanie rolę <@&${goldRole}> na stałe.`);
    const listed = await polish.sub('shop-admin', 'rewards list');
    expect(textOf(listed.message!)).toContain(pl.rewards.title);
    expect(textOf(listed.message!)).toContain(`• **VIP** — 30 dni (Survival) → <@&${vipRole}>, na 30 dni`);

    const choices = await suggest(polish, 'remove', { name: 'reward', value: 'zawsze' });
    expect(choices.map((choice) => choice.name)).toEqual(['VIP — Na zawsze → @Gold, na stałe']);
    const removed = await polish.sub('shop-admin', 'rewards remove', { reward: String(choices[0]!.value) });
    expect(noticeOf(removed.message!)).toBe(
      `ℹ️ Usunięto: kto kupi **VIP** — Na zawsze (Survival), nie dostanie już roli <@&${goldRole}>. Kto ją ma, ten ją zachowuje; rola czasowa i tak wygaśnie w terminie.`,
    );
    expect(await storedRewards()).toHaveLength(2);
    expect(noticeOf((await polish.sub('shop-admin', 'rewards remove', { reward: String(choices[0]!.value) })).message!)).toBe(`⚠️ ${pl.rewards.unknown}`);

    // The command itself is localized.
    const definition = (h.discord.registeredCommands() as { name: string }[]).find((command) => command.name === 'shop-admin') as unknown as { options: { name: string; name_localizations?: { pl?: string }; options?: { name: string; name_localizations?: { pl?: string } }[] }[] };
    const group = definition.options.find((option) => option.name === 'rewards')!;
    expect(group.name_localizations?.pl).toBe('nagrody');
    expect(group.options!.map((option) => option.name_localizations?.pl)).toEqual(['dodaj', 'lista', 'usuń']);
  });

  it('gives each role a paid link earns once, with the link in the audit log', async () => {
    const buyer = new Member(h);
    const issued = await steps.checkout(buyer, 'Steve', VIP_30, 2);
    const granted = await counter('rolesGranted');
    const link = await paid(issued.id);
    await paid(issued.id);
    await h.bot.services.paymentEvents.emit({ link, status: 'paid', transactionId: 'T1', at: h.clock.now() });
    expect(changesFor(buyer.user.id).map(({ method, roleId, reason, status }) => ({ method, roleId, reason, status }))).toEqual([
      { method: 'PUT', roleId: vipRole, reason: `Shop: paid link ${issued.id}, for 60 days`, status: 204 },
    ]);
    expect(h.discord.memberRoles(guildId, buyer.user.id)).toContain(vipRole);
    expect(await counter('rolesGranted')).toBe(granted + 1);

    // A link that failed or expired at the store earns nothing; nor does an item no reward names.
    const other = new Member(h);
    const unpaid = await steps.checkout(other, 'Alex', VIP_30);
    const record = (await h.bot.services.storage.paymentLinks.get(guildId, unpaid.id))!;
    await h.bot.services.paymentEvents.emit({ link: record, status: 'failed', transactionId: 'T2', at: h.clock.now() });
    await h.bot.services.paymentEvents.emit({ link: record, status: 'expired', transactionId: 'T2', at: h.clock.now() });
    const sky = await steps.checkout(other, 'Alex', SKY_VIP);
    await paid(sky.id);
    expect(changesFor(other.user.id).map((change) => change.roleId)).toEqual([goldRole]);
  });

  it('gives the role once when the store reports the link paid, with a restart between the payment and the poll', async () => {
    const buyer = new Member(h);
    const issued = await steps.checkout(buyer, 'Paid_Buyer', VIP_30);
    await h.bot.services.payments.tick(); // the watcher's first look at the server: nothing bought yet
    h.store.pay(issued.url);
    await h.restart();
    for (let round = 0; round < 3; round += 1) {
      h.clock.advance(30_000);
      await h.bot.services.payments.tick();
    }
    expect(changesFor(buyer.user.id).map(({ method, roleId, reason }) => ({ method, roleId, reason }))).toEqual([
      { method: 'PUT', roleId: vipRole, reason: `Shop: paid link ${issued.id}, for 30 days` },
    ]);
    expect(h.discord.memberRoles(guildId, buyer.user.id)).toContain(vipRole);
  });

  it('takes a timed role back when its time is up, after a restart too, and a rebuy extends it', async () => {
    const buyer = new Member(h);
    const first = await steps.checkout(buyer, 'Timed', VIP_30);
    await paid(first.id);
    const until = first.createdAt + 60_000 + 30 * DAY;
    expect(h.discord.memberRoles(guildId, buyer.user.id)).toContain(vipRole);

    h.clock.advance(20 * DAY);
    const again = await steps.checkout(buyer, 'Timed', VIP_30);
    await paid(again.id);
    // Already held: no second PUT; the time runs on from the first purchase's end.
    expect(changesFor(buyer.user.id).filter((change) => change.method === 'PUT')).toHaveLength(1);

    await h.restart();
    h.clock.advance(until + 29 * DAY - h.clock.now());
    await h.bot.services.rewards.removeDue();
    expect(h.discord.memberRoles(guildId, buyer.user.id)).toContain(vipRole);

    const removed = await counter('rolesRemoved');
    h.clock.advance(2 * DAY);
    expect(await h.bot.services.rewards.removeDue()).toMatchObject({ removed: expect.any(Number) });
    expect(h.discord.memberRoles(guildId, buyer.user.id)).not.toContain(vipRole);
    expect(changesFor(buyer.user.id).filter((change) => change.method === 'DELETE')).toEqual([
      expect.objectContaining({ roleId: vipRole, reason: `Shop: the time bought with link ${again.id} is up`, status: 204 }),
    ]);
    expect(await counter('rolesRemoved')).toBeGreaterThan(removed);
    await h.bot.services.rewards.removeDue();
    expect(changesFor(buyer.user.id).filter((change) => change.method === 'DELETE')).toHaveLength(1);
  });

  it('tells the log channel once when a role cannot be given, and does not try that payment again', async () => {
    const leaver = new Member(h);
    const issued = await steps.checkout(leaver, 'Leaver', VIP_30);
    h.discord.removeMember(guildId, leaver.user.id);
    await paid(issued.id);
    await paid(issued.id);
    expect(failurePosts()).toEqual([
      `## ${en.log.roleGrantFailedTitle}\nThe bot couldn't give <@&${vipRole}> to <@${leaver.user.id}> for paid link ${issued.id}. The member is no longer on the server. It won't try again for this payment: once that is fixed, give the role by hand.`,
    ]);
    expect(changesFor(leaver.user.id)).toEqual([]);

    // The role dragged above the bot's: Discord refuses, and the admins are told what to fix.
    h.discord.moveRole(guildId, vipRole, 20);
    const buyer = new Member(h);
    const refused = await steps.checkout(buyer, 'Refused', VIP_30);
    await paid(refused.id);
    await paid(refused.id);
    expect(changesFor(buyer.user.id).map((change) => change.status)).toEqual([403]);
    expect(failurePosts()).toHaveLength(2);
    expect(failurePosts()[1]).toContain(
      `for paid link ${refused.id}. <@&${vipRole}> is not below the bot's highest role: in Server Settings → Roles, drag the bot's role above <@&${vipRole}>.`,
    );
    expect(h.logs.filter((line) => line.includes('could not give a buyer their role'))).toHaveLength(2);
    expect((await h.bot.services.metrics.roleFailures.get()).values.map(({ labels, value }) => [labels.problem, value])).toEqual(
      expect.arrayContaining([
        ['member-left', 1],
        ['role-above-bot', 1],
      ]),
    );

    // /shop-admin status names the reward whose role the bot can no longer give.
    const status = await admin.sub('shop-admin', 'status');
    expect(textOf(status.message!)).toContain(
      `**${en.rewards.title}**\n⚠ **VIP** — 30 dni (Survival) → <@&${vipRole}>: <@&${vipRole}> is not below the bot's highest role`,
    );
    h.discord.moveRole(guildId, vipRole, 1);
    const fixed = await admin.sub('shop-admin', 'status');
    expect(textOf(fixed.message!)).toContain(`**${en.rewards.title}**\n${en.rewards.statusOk(2)}`);
  });
});
