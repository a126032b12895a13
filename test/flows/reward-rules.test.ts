import { PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BOT_PERMISSIONS, DEFAULT_MEMBER_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { buttonLabels, textOf } from '../support/ui.js';
import type { PaymentLink } from '../../src/storage/payment-links.js';

const MANAGE_GUILD = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild;
const ADMIN = MANAGE_GUILD | PermissionFlagsBits.ManageRoles;
const DAY = 86_400_000;

/**
 * Issue 28, point 2 and the role parts of points 1, 5 and 7: a reward hands out power, so the bot
 * checks it as Discord checks a person, and gives a role only to the member whose nick it is.
 */
describe('roles for buyers: who may add them, which roles, and to whom they are given', () => {
  const h = useHarness();
  const steps = linkSteps(h);
  let guildId: string;
  let admin: Member;
  let vipRole: string;
  let logChannel: string;
  let vip: string;

  beforeAll(async () => {
    guildId = h.discord.defaultGuildId;
    admin = new Member(h, { permissions: ADMIN, username: 'admin' });
    h.discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageRoles);
    vipRole = h.discord.addRole(guildId, 'VIP', { position: 1 });
    logChannel = h.discord.addChannel(guildId, { name: 'shop-log' });
    await admin.sub('shop-admin', 'settings', { 'log-channel': logChannel });
    const handle = await h.discord.autocomplete(admin.user, 'shop-admin', { name: 'product', value: 'vip' }, { subcommandGroup: 'rewards', subcommand: 'add', permissions: ADMIN });
    vip = String((await handle.settled()).choices!.find((choice) => choice.name === 'VIP · Rangi · Survival')!.value);
  });

  const stored = () => h.bot.services.rewards.list(guildId);
  const add = async (member: Member, role: string, days?: number) =>
    textOf((await member.sub('shop-admin', 'rewards add', { product: vip, role, ...(days ? { days } : {}) })).message!);
  const puts = (userId: string) => h.discord.roleChanges.filter((change) => change.userId === userId && change.method === 'PUT');
  const logPosts = () => h.discord.messagesIn(logChannel);
  const postsTitled = (title: string) => logPosts().filter((post) => textOf(post).startsWith(`## ${title}\n`));

  async function paid(id: string): Promise<PaymentLink> {
    const link = (await h.bot.services.storage.paymentLinks.get(guildId, id))!;
    await h.bot.services.paymentEvents.emit({ link, status: 'paid', transactionId: `T-${id}`, at: h.clock.now() });
    return link;
  }

  async function clearRewards(): Promise<void> {
    await h.bot.services.storage.rewards.updateRewards(guildId, () => []);
  }

  /** A member whose highest role sits just above @everyone: every other role is above theirs. */
  async function lowMember(permissions: bigint, user?: Member['user']): Promise<Member> {
    const member = new Member(h, { permissions });
    const acting = user ? Object.assign(member, { user }) : member;
    await acting.sub('shop-admin', 'rewards list');
    for (const role of h.discord.memberRoles(guildId, acting.user.id) ?? []) h.discord.moveRole(guildId, role, 1);
    return acting;
  }

  it('refuses a member without Manage Roles, saving nothing', async () => {
    await clearRewards();
    const manager = new Member(h, { permissions: MANAGE_GUILD });
    expect(await add(manager, vipRole)).toBe(
      'Only members with the Manage Roles permission (or Administrator, or the server owner) can choose roles for buyers: the bot gives them on your behalf. Nothing was saved.',
    );
    const polish = new Member(h, { permissions: MANAGE_GUILD, locale: 'pl' });
    expect(await add(polish, vipRole)).toBe(
      'Role dla kupujących może wybierać tylko ktoś z uprawnieniem „Zarządzanie rolami” (albo „Administrator” lub właściciel serwera Discord), bo bot nadaje je w Twoim imieniu. Nic nie zapisano.',
    );
    expect(await stored()).toEqual([]);
  });

  it('refuses a role that is not below the caller’s highest role; the owner may add it', async () => {
    await clearRewards();
    const low = await lowMember(ADMIN | PermissionFlagsBits.ManageNicknames);
    expect(await add(low, vipRole)).toBe(
      `<@&${vipRole}> can't be given to buyers. <@&${vipRole}> is not below your highest role: Discord wouldn't let you give it by hand, so the bot won't give it for you. Nothing was saved.`,
    );
    expect(await stored()).toEqual([]);

    // The server owner, with the same low place in the role list and no Manage Roles of their own: allowed, as in Discord.
    const owner = await lowMember(MANAGE_GUILD | PermissionFlagsBits.ManageNicknames, h.discord.ownerUser);
    expect(await add(owner, vipRole)).toContain(`Saved: buyers of **VIP**, any variant (Survival) get <@&${vipRole}> for good.`);
    expect((await stored()).map((reward) => reward.roleId)).toEqual([vipRole]);
  });

  it('refuses a role carrying Administrator or another power over the server, saying which', async () => {
    await clearRewards();
    const boss = h.discord.addRole(guildId, 'Boss', { position: 1, permissions: PermissionFlagsBits.Administrator });
    const bouncer = h.discord.addRole(guildId, 'Bouncer', { position: 1, permissions: PermissionFlagsBits.KickMembers | PermissionFlagsBits.MentionEveryone });
    expect(await add(admin, boss)).toBe(
      `<@&${boss}> can't be given to buyers. <@&${boss}> has Administrator: the bot never gives buyers a role with power over the server. Take that off the role, or pick another role. Nothing was saved.`,
    );
    expect(await add(admin, bouncer)).toBe(
      `<@&${bouncer}> can't be given to buyers. <@&${bouncer}> has Kick Members, Mention @everyone, @here and All Roles: the bot never gives buyers a role with power over the server. Take that off the role, or pick another role. Nothing was saved.`,
    );
    // Each name quoted, so the comma inside one („@everyone, @here”) does not read as a second permission.
    const polish = new Member(h, { permissions: ADMIN, locale: 'pl' });
    expect(await add(polish, bouncer)).toBe(
      `Nie można nadawać kupującym roli <@&${bouncer}>. <@&${bouncer}> ma uprawnienia: „Wyrzucanie członków” i „Wzmiankowanie @everyone, @here i wszystkich ról”. Bot nigdy nie daje kupującym roli z władzą nad serwerem Discord — zdejmij je z roli albo wybierz inną rolę. Nic nie zapisano.`,
    );
    expect(await stored()).toEqual([]);
  });

  it('refuses a role with a moderation power (voice, nicknames, threads, events, expressions, audit log, pins), or one a channel overwrite gives it', async () => {
    await clearRewards();
    const moderation: [bigint, string][] = [
      [PermissionFlagsBits.MuteMembers, 'Mute Members'],
      [PermissionFlagsBits.DeafenMembers, 'Deafen Members'],
      [PermissionFlagsBits.MoveMembers, 'Move Members'],
      [PermissionFlagsBits.ManageNicknames, 'Manage Nicknames'],
      [PermissionFlagsBits.ManageThreads, 'Manage Threads and Posts'],
      [PermissionFlagsBits.ManageEvents, 'Manage Events'],
      [PermissionFlagsBits.ManageGuildExpressions, 'Manage Expressions'],
      [PermissionFlagsBits.ViewAuditLog, 'View Audit Log'],
      [PermissionFlagsBits.PinMessages, 'Pin Messages'],
    ];
    for (const [permission, name] of moderation) {
      const role = h.discord.addRole(guildId, `Mod ${name}`, { position: 1, permissions: permission });
      expect(await add(admin, role)).toBe(
        `<@&${role}> can't be given to buyers. <@&${role}> has ${name}: the bot never gives buyers a role with power over the server. Take that off the role, or pick another role. Nothing was saved.`,
      );
    }
    // No power of its own, but Manage Messages in one channel: moderation all the same.
    const helper = h.discord.addRole(guildId, 'Channel helper', { position: 1 });
    h.discord.allowRoleIn(h.discord.addChannel(guildId, { name: 'support' }), helper, PermissionFlagsBits.ManageMessages);
    expect(await add(admin, helper)).toContain(`<@&${helper}> has Manage Messages: the bot never gives buyers a role with power over the server.`);
    expect(await stored()).toEqual([]);
  });

  it('does not give a role a channel overwrite made powerful after it was added', async () => {
    await clearRewards();
    const role = h.discord.addRole(guildId, 'Quiet helper', { position: 1 });
    expect(await add(admin, role, 30)).toContain('Saved:');
    h.discord.allowRoleIn(h.discord.defaultChannelId, role, PermissionFlagsBits.MuteMembers);
    const buyer = new Member(h);
    await paid((await steps.checkout(buyer, 'OverwriteBuyer', VIP_30)).id);
    expect(puts(buyer.user.id)).toEqual([]);
    expect(postsTitled('Role for buyers not given: it has power over the server').map(textOf).at(-1)).toContain(`<@&${role}> to <@${buyer.user.id}>`);
  });

  it('does not give a role edited into power after it was added: one log post for two buyers', async () => {
    await clearRewards();
    const role = h.discord.addRole(guildId, 'Helper', { position: 1 });
    expect(await add(admin, role, 30)).toContain('Saved:');
    h.discord.setRolePermissions(guildId, role, PermissionFlagsBits.ManageMessages);
    const [first, second] = [new Member(h), new Member(h)];
    const one = await steps.checkout(first, 'PowerOne', VIP_30);
    const two = await steps.checkout(second, 'PowerTwo', VIP_30);
    await paid(one.id);
    await paid(two.id);
    await paid(two.id);
    expect([...puts(first.user.id), ...puts(second.user.id)]).toEqual([]);
    const posts = postsTitled('Role for buyers not given: it has power over the server').filter((post) => textOf(post).includes(`<@&${role}>`));
    expect(posts.map(textOf)).toEqual([
      `## Role for buyers not given: it has power over the server\nThe bot didn't give <@&${role}> to <@${first.user.id}> for paid link ${one.id}: the role now has Manage Messages, and the bot never gives buyers a role with power over the server. Until that is taken off the role (or the reward removed), no buyer gets it, and this isn't posted again for each one: check the paid links in /links and give the role by hand where it is right.`,
    ]);

    // Taken off again: the next buyer gets it.
    h.discord.setRolePermissions(guildId, role, 0n);
    const third = new Member(h);
    await paid((await steps.checkout(third, 'PowerThree', VIP_30)).id);
    expect(puts(third.user.id).map((change) => change.roleId)).toEqual([role]);
  });

  it('lists a reward saved by an earlier version that breaks the rules in /shop-admin status, and never gives its role', async () => {
    await clearRewards();
    const boss = h.discord.addRole(guildId, 'Old Boss', { position: 1, permissions: PermissionFlagsBits.BanMembers });
    await h.bot.services.storage.rewards.updateRewards(guildId, () => [
      { id: 'old1', productId: 'prod-vip', serverName: 'Survival', productName: 'VIP', roleId: boss, days: null, addedBy: '1', addedAt: 0 },
    ]);
    const status = textOf((await admin.sub('shop-admin', 'status')).message!);
    expect(status).toContain(
      `⚠ **VIP**, any variant (Survival) → <@&${boss}>: <@&${boss}> has Ban Members: the bot never gives buyers a role with power over the server. Take that off the role, or pick another role.`,
    );
    const buyer = new Member(h);
    await paid((await steps.checkout(buyer, 'OldRule', VIP_30)).id);
    expect(puts(buyer.user.id)).toEqual([]);
  });

  it("gives the role only when the link's nick is the member's own; otherwise a Give role button for Manage Roles", async () => {
    await clearRewards();
    expect(await add(admin, vipRole, 30)).toContain('Saved:');
    const [owner, other] = [new Member(h), new Member(h)];
    const issued = await steps.checkout(owner, 'SharedNick', VIP_30);
    // Another member paid with the same nick (compared without case); a free checkout alone would not count (issue 36).
    await paid((await steps.checkout(other, 'sharednick', VIP_30)).id);
    await paid(issued.id);
    await paid(issued.id);
    expect(puts(owner.user.id)).toEqual([]);
    const held = postsTitled("Role for buyers held back: the nick isn't only this member's");
    expect(held).toHaveLength(1);
    const post = held[0]!;
    expect(textOf(post)).toContain(
      `<@${owner.user.id}> paid link ${issued.id} with the nick **SharedNick**, but another member of this server checked out with that nick in the last 90 days. The store tells which nick paid, not who typed it, so the bot didn't give <@&${vipRole}>.`,
    );
    expect(buttonLabels(post)).toEqual(['Give role']);

    // Manage Server alone is not enough to press it.
    const manager = new Member(h, { permissions: MANAGE_GUILD });
    const refused = await manager.press('Give role', post);
    expect(refused.ephemeral).toBe(true);
    expect(textOf(refused.message!)).toBe('Only members with the Manage Roles permission (or Administrator, or the server owner) can give this role.');
    expect(puts(owner.user.id)).toEqual([]);
    // Manage Roles, but the role is above the presser's highest role: not theirs to give by hand.
    const low = await lowMember(ADMIN | PermissionFlagsBits.ManageNicknames);
    expect(textOf((await low.press('Give role', post)).message!)).toBe(
      `<@&${vipRole}> is not below your highest role: you couldn't give it by hand, so the bot won't give it for you.`,
    );
    expect(puts(owner.user.id)).toEqual([]);

    const given = await admin.press('Give role', post);
    expect(textOf(given.message!)).toBe(`Done: <@${owner.user.id}> has <@&${vipRole}> now, for paid link ${issued.id}.`);
    expect(h.discord.memberRoles(guildId, owner.user.id)).toContain(vipRole);
    const again = await admin.press('Give role', post);
    expect(textOf(again.message!)).toBe(`<@${owner.user.id}> already got <@&${vipRole}> for paid link ${issued.id}: nothing changed.`);
    await paid(issued.id);
    expect(puts(owner.user.id)).toHaveLength(1);

    // A nick the other member used more than 90 days ago is the buyer's own again.
    const lone = new Member(h);
    const earlier = new Member(h);
    await paid((await steps.checkout(earlier, 'LoneNick', VIP_30)).id);
    h.clock.advance(91 * DAY);
    await paid((await steps.checkout(lone, 'lonenick', VIP_30)).id);
    expect(puts(lone.user.id).map((change) => change.roleId)).toEqual([vipRole]);
  });

  it('retries a grant Discord did not answer, and gives it once', async () => {
    await clearRewards();
    expect(await add(admin, vipRole, 30)).toContain('Saved:');
    const buyer = new Member(h);
    const issued = await steps.checkout(buyer, 'Unanswered', VIP_30);
    const link = (await h.bot.services.storage.paymentLinks.get(guildId, issued.id))!;
    const event = { link, status: 'paid' as const, transactionId: 'T-unanswered', at: h.clock.now() };
    // Discord answers 500 to the PUT and to each of discord.js's own retries.
    h.discord.failRoute('PUT', /^\/guilds\/\d+\/members\/\d+\/roles\/\d+$/, { status: 500, body: { message: 'Internal Server Error', code: 0 } }, 4);
    expect(await h.bot.services.rewards.onPayment(event)).toBe('retry');
    expect(h.discord.memberRoles(guildId, buyer.user.id)).not.toContain(vipRole);
    expect(postsTitled("A buyer's role could not be given")).toEqual([]);

    h.clock.advance(60_000);
    expect(await h.bot.services.rewards.onPayment(event)).toBe('done');
    expect(h.discord.memberRoles(guildId, buyer.user.id)).toContain(vipRole);
    expect(await h.bot.services.rewards.onPayment(event)).toBe('done');
    await h.bot.services.paymentEvents.emit(event);
    expect(puts(buyer.user.id).filter((change) => change.status === 204)).toHaveLength(1);

    // Still a timed role: taken back when its 30 days are up.
    h.clock.advance(31 * DAY);
    await h.bot.services.rewards.removeDue();
    expect(h.discord.memberRoles(guildId, buyer.user.id)).not.toContain(vipRole);
  });

  const removalPosts = (userId: string) => postsTitled('An ended role could not be removed').filter((post) => textOf(post).includes(`<@${userId}>`));

  it('a timed role whose removal Discord refused is told once and never asked again, even once fixed', async () => {
    await clearRewards();
    const role = h.discord.addRole(guildId, 'Timed A', { position: 1 });
    expect(await add(admin, role, 30)).toContain('Saved:');
    const buyer = new Member(h);
    await paid((await steps.checkout(buyer, 'RemoveLater', VIP_30)).id);
    expect(h.discord.memberRoles(guildId, buyer.user.id)).toContain(role);

    // The role dragged above the bot's: removing it is refused.
    h.discord.moveRole(guildId, role, 30);
    h.clock.advance(31 * DAY);
    await h.bot.services.rewards.removeDue();
    await h.bot.services.rewards.removeDue();
    expect(removalPosts(buyer.user.id)).toHaveLength(1);
    expect(h.discord.memberRoles(guildId, buyer.user.id)).toContain(role);

    // Every refusal counts against the bot with Discord: fixed or not, the DELETE is not sent again.
    h.discord.moveRole(guildId, role, 1);
    await h.bot.services.rewards.removeDue();
    expect(h.discord.roleChanges.filter((change) => change.userId === buyer.user.id && change.method === 'DELETE').map((change) => change.status)).toEqual([403]);
    expect(h.discord.memberRoles(guildId, buyer.user.id)).toContain(role);
    expect(removalPosts(buyer.user.id)).toHaveLength(1);
    expect(textOf(removalPosts(buyer.user.id)[0]!)).toContain("The bot won't try again (each refusal counts against the bot with Discord): once that is fixed, remove the role by hand.");
  });

  it('a rebuy of a timed role whose removal failed stays timed', async () => {
    await clearRewards();
    const role = h.discord.addRole(guildId, 'Timed B', { position: 1 });
    expect(await add(admin, role, 30)).toContain('Saved:');
    const buyer = new Member(h);
    await paid((await steps.checkout(buyer, 'RebuyTimed', VIP_30)).id);
    h.discord.moveRole(guildId, role, 30);
    h.clock.advance(31 * DAY);
    await h.bot.services.rewards.removeDue();
    expect(removalPosts(buyer.user.id)).toHaveLength(1);

    // Bought again while the role is still theirs: it runs 30 days from now, never for good.
    await paid((await steps.checkout(buyer, 'RebuyTimed', VIP_30)).id);
    h.discord.moveRole(guildId, role, 1);
    await h.bot.services.rewards.removeDue();
    expect(h.discord.memberRoles(guildId, buyer.user.id)).toContain(role);
    h.clock.advance(31 * DAY);
    await h.bot.services.rewards.removeDue();
    expect(h.discord.memberRoles(guildId, buyer.user.id)).not.toContain(role);
  });
});
