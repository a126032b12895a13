import { Events, PermissionFlagsBits } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BOT_PERMISSIONS, DEFAULT_MEMBER_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';

const ADMIN = DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageRoles;
const DAY = 86_400_000;

/**
 * Issue 36, point 3: every retry has an end. Each 4xx Discord answers counts towards its ban of the
 * bot's IP (10 000 invalid requests in 10 minutes), so a removal Discord refused, and any role work
 * in a guild the bot left, is never sent again.
 */
describe('timed roles: what Discord refused, or a guild the bot left, is never asked again', () => {
  const h = useHarness();
  const steps = linkSteps(h);
  let guildId: string;
  let admin: Member;
  let logChannel: string;

  beforeAll(async () => {
    guildId = h.discord.defaultGuildId;
    admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    h.discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageRoles);
    logChannel = h.discord.addChannel(guildId, { name: 'shop-log' });
    await admin.sub('shop-admin', 'settings', { 'log-channel': logChannel });
  });

  const requestsAbout = (guild: string) => h.discord.requests.filter((request) => request.path.startsWith(`/guilds/${guild}/`));
  const removalPosts = () => h.discord.messagesIn(logChannel).filter((post) => textOf(post).startsWith(`## ${en.log.roleRemovalFailedTitle}\n`));

  /** Timed grants as the bot keeps them, ending over 50 days from `from` (100 a day). */
  async function seedGrants(guild: string, count: number, from: number): Promise<void> {
    const { rewards } = h.bot.services.storage;
    for (let i = 0; i < count; i++) {
      const expiresAt = from + (i % 50) * DAY;
      await rewards.saveGrant(guild, String(500_000_000_000_000_000n + BigInt(i)), '600000000000000001', { expiresAt, grantedAt: from - DAY, linkId: `L${i}` });
    }
  }

  it('5 000 timed grants in a guild the bot was removed from: the removal passes send Discord nothing', { timeout: 120_000 }, async () => {
    const other = h.discord.addGuild({ name: 'Left behind' });
    await seedGrants(other.id, 5_000, h.clock.now() + DAY);
    const left = new Promise<void>((resolve) => h.bot.client.once(Events.GuildDelete, () => resolve()));
    h.discord.removeBot(other.id);
    await left;
    // The note is written by the bot's own GuildDelete listener: give its write a few turns of the event loop.
    for (let turn = 0; turn < 1_000 && !(await h.bot.services.storage.roleWorkEnds.botLeft(other.id)); turn++) await new Promise(setImmediate);
    const before = requestsAbout(other.id).length;
    h.clock.advance(60 * DAY);
    expect(await h.bot.services.rewards.removeDue()).toEqual({ removed: 0, failed: 0 });
    await h.bot.services.rewards.removeDue();
    expect(requestsAbout(other.id).length - before).toBe(0);
    expect(await h.bot.services.storage.rewards.dueDays(h.clock.now())).toEqual([]);
  });

  it('a guild the bot left while it was offline (no GUILD_DELETE): one request, Discord says Unknown Guild, the rest dropped untold', async () => {
    // A guild the fake does not know: every request about it is 404 / 10004.
    const gone = '700000000000000001';
    await seedGrants(gone, 200, h.clock.now() + DAY);
    h.clock.advance(60 * DAY);
    await h.bot.services.rewards.removeDue();
    await h.bot.services.rewards.removeDue();
    // The one request is the audit log's read (was a role given by hand meanwhile?), before any DELETE.
    expect(requestsAbout(gone).map((request) => [request.method, request.status])).toEqual([['GET', 404]]);
    expect(await h.bot.services.storage.rewards.dueDays(h.clock.now())).toEqual([]);
  });

  it('300 timed roles of one role Discord refuses to take, ending over an hour: one refused request in all, every grant noted refused', { timeout: 120_000 }, async () => {
    const refusing = h.discord.addGuild({ name: 'Role dragged up' }).id;
    h.discord.setBotPermissions(refusing, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageRoles);
    const role = h.discord.addRole(refusing, 'Timed above', { position: 30 });
    const users = Array.from({ length: 300 }, (_, i) => String(510_000_000_000_000_000n + BigInt(i)));
    h.discord.addMembers(refusing, users, [role]);
    const start = h.clock.now();
    const { rewards } = h.bot.services.storage;
    for (const [i, userId] of users.entries()) await rewards.saveGrant(refusing, userId, role, { expiresAt: start + 60_000 + i * 12_000, grantedAt: start - DAY, linkId: `R${i}` });
    for (let pass = 0; pass < 13; pass++) {
      h.clock.advance(5 * 60_000);
      await h.bot.services.rewards.removeDue();
    }
    // Before: one DELETE answered 403 per grant (300; about 50 in every 10 minutes, each an invalid request).
    const deletes = h.discord.roleChanges.filter((change) => change.guildId === refusing && change.method === 'DELETE');
    expect(deletes.map((change) => change.status)).toEqual([403]);
    for (const userId of users) expect((await rewards.grant(refusing, userId, role))?.removalFailed?.problem).toBe('role-above-bot');
    expect(users.every((userId) => h.discord.memberRoles(refusing, userId)?.includes(role))).toBe(true);
    expect(await h.bot.services.storage.rewards.dueDays(h.clock.now())).toEqual([]);

    // Fixed by the admins: the next ending role is taken (checked with reads first, then one DELETE).
    h.discord.moveRole(refusing, role, 0);
    const late = String(520_000_000_000_000_000n);
    h.discord.addMembers(refusing, [late], [role]);
    await rewards.saveGrant(refusing, late, role, { expiresAt: h.clock.now() + 60_000, grantedAt: start, linkId: 'R-late' });
    h.clock.advance(5 * 60_000);
    await h.bot.services.rewards.removeDue();
    expect(h.discord.memberRoles(refusing, late)).not.toContain(role);
  });

  it('a refused removal is sent once, posted once in the log channel and shown once in /shop-admin status', async () => {
    const role = h.discord.addRole(guildId, 'Timed', { position: 1 });
    expect(textOf((await admin.sub('shop-admin', 'rewards add', { product: await vipRef(), role, days: 30 })).message!)).toContain('Saved:');
    const buyer = new Member(h);
    const issued = await steps.checkout(buyer, 'Refusal', VIP_30);
    const link = (await h.bot.services.storage.paymentLinks.get(guildId, issued.id))!;
    await h.bot.services.paymentEvents.emit({ link, status: 'paid', transactionId: 'T-refusal', at: h.clock.now() });
    expect(h.discord.memberRoles(guildId, buyer.user.id)).toContain(role);

    // The role dragged above the bot's: Discord refuses the removal (403 50013).
    h.discord.moveRole(guildId, role, 30);
    h.clock.advance(31 * DAY);
    for (let pass = 0; pass < 5; pass++) await h.bot.services.rewards.removeDue();
    const deletes = () => h.discord.roleChanges.filter((change) => change.userId === buyer.user.id && change.method === 'DELETE');
    expect(deletes().map((change) => change.status)).toEqual([403]);
    expect(removalPosts().map(textOf)).toEqual([
      `## ${en.log.roleRemovalFailedTitle}\nThe time <@${buyer.user.id}> bought for <@&${role}> is up, but the bot couldn't remove the role. <@&${role}> is not below the bot's highest role: in Server Settings → Roles, drag the bot's role above <@&${role}>. The bot won't try again (each refusal counts against the bot with Discord): once that is fixed, remove the role by hand.`,
    ]);

    const status = textOf((await admin.sub('shop-admin', 'status')).message!);
    expect(status).toContain(
      `**${en.rewards.statusRefusedTitle}**\n• <@${buyer.user.id}>: <@&${role}>. <@&${role}> is not below the bot's highest role: in Server Settings → Roles, drag the bot's role above <@&${role}>.\nThe bot won't try these again`,
    );
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).not.toContain(en.rewards.statusRefusedTitle);

    // Fixed: still never sent again (the admins were told to remove it by hand).
    h.discord.moveRole(guildId, role, 1);
    await h.bot.services.rewards.removeDue();
    expect(deletes()).toHaveLength(1);
  });

  async function vipRef(): Promise<string> {
    const handle = await h.discord.autocomplete(admin.user, 'shop-admin', { name: 'product', value: 'vip' }, { subcommandGroup: 'rewards', subcommand: 'add', permissions: ADMIN });
    return String((await handle.settled()).choices!.find((choice) => choice.name === 'VIP · Rangi · Survival')!.value);
  }
});
