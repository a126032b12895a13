import { PermissionFlagsBits } from 'discord.js';
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
 * A timed role for buyers ends by itself; a role staff gave by hand is the member's and stays
 * (issue 36, point 6). The bot tells the two apart from the guild's audit log (View Audit Log).
 */
describe('timed roles and roles staff gave by hand', () => {
  const h = useHarness();
  const steps = linkSteps(h);
  let guildId: string;
  let admin: Member;
  let staff: Member;
  let vipRole: string;

  beforeAll(async () => {
    guildId = h.discord.defaultGuildId;
    admin = new Member(h, { permissions: ADMIN, username: 'owner' });
    staff = new Member(h, { permissions: ADMIN, username: 'staff' });
    h.discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageRoles | PermissionFlagsBits.ViewAuditLog);
    vipRole = h.discord.addRole(guildId, 'VIP', { position: 1 });
    const { username: _username, ...dispatch } = admin.options;
    const suggest = async (focused: { name: string; value: string }, options: Record<string, string> = {}) =>
      (await (await h.discord.autocomplete(admin.user, 'shop-admin', focused, { ...dispatch, subcommandGroup: 'rewards', subcommand: 'add', options })).settled()).choices ?? [];
    const product = String((await suggest({ name: 'product', value: 'vip' })).find((choice) => choice.name === 'VIP · Rangi · Survival')!.value);
    const variant = String((await suggest({ name: 'variant', value: '30' }, { product })).find((choice) => choice.name === '30 dni')!.value);
    await admin.sub('shop-admin', 'rewards add', { product, variant, role: vipRole, days: 30 });
  });

  async function paid(id: string): Promise<void> {
    const link = (await h.bot.services.storage.paymentLinks.get(guildId, id))!;
    await h.bot.services.paymentEvents.emit({ link, status: 'paid', transactionId: `T-${id}`, at: h.clock.now() });
  }
  const changesFor = (userId: string) => h.discord.roleChanges.filter((change) => change.userId === userId).map(({ method, status }) => `${method} ${status}`);
  const holds = (member: Member) => h.discord.memberRoles(guildId, member.user.id)?.includes(vipRole) ?? false;
  /** The grant's time is up, and the removal pass runs. */
  async function timeIsUp(): Promise<void> {
    h.clock.advance(31 * DAY);
    await h.bot.services.rewards.removeDue();
  }

  it('ends a timed role the bot gave, as before (the audit log shows only the bot gave it)', async () => {
    const buyer = new Member(h);
    const issued = await steps.checkout(buyer, 'Plain_Buyer', VIP_30);
    await paid(issued.id);
    expect(holds(buyer)).toBe(true);
    await timeIsUp();
    expect(holds(buyer)).toBe(false);
    expect(changesFor(buyer.user.id)).toEqual(['PUT 204', 'DELETE 204']);
  });

  it('leaves alone a role staff gave by hand before the purchase: never timed, never taken', async () => {
    const buyer = new Member(h);
    await buyer.run('cart'); // joined the server
    h.discord.giveRoleByHand(guildId, staff.user.id, buyer.user.id, vipRole);
    const issued = await steps.checkout(buyer, 'Had_It', VIP_30);
    await paid(issued.id);
    await timeIsUp();
    expect(holds(buyer)).toBe(true);
    expect(changesFor(buyer.user.id)).toEqual([]);
  });

  it('keeps a role staff gave back by hand during the grant (the member left and came back): the time bought ends, the role stays', async () => {
    const buyer = new Member(h);
    const issued = await steps.checkout(buyer, 'Came_Back', VIP_30);
    await paid(issued.id);
    h.clock.advance(5 * DAY);
    // The member leaves (their roles go with them) and comes back; staff give the role back by hand.
    h.discord.removeMember(guildId, buyer.user.id);
    await buyer.run('cart');
    expect(holds(buyer)).toBe(false);
    h.clock.advance(DAY);
    h.discord.giveRoleByHand(guildId, staff.user.id, buyer.user.id, vipRole);

    await timeIsUp();
    expect(holds(buyer)).toBe(true);
    expect(changesFor(buyer.user.id)).toEqual(['PUT 204']);
    expect(h.logs.some((line) => line.includes('staff gave the role by hand during the timed grant: left as it is'))).toBe(true);
    // The grant is over: a later pass asks nothing more.
    const requests = h.discord.requests.length;
    await h.bot.services.rewards.removeDue();
    expect(h.discord.requests.length).toBe(requests);
  });

  it('reads the guild’s audit log once for all the roles ending in one pass, and still keeps the one staff gave back by hand', async () => {
    const buyers = Array.from({ length: 6 }, () => new Member(h));
    for (const [index, buyer] of buyers.entries()) await paid((await steps.checkout(buyer, `Pass_${index}`, VIP_30)).id);
    const [cameBack] = buyers;
    h.discord.removeMember(guildId, cameBack!.user.id);
    await cameBack!.run('cart');
    h.discord.giveRoleByHand(guildId, staff.user.id, cameBack!.user.id, vipRole);
    const from = h.discord.requests.length;

    await timeIsUp();
    const auditReads = h.discord.requests.slice(from).filter((request) => request.method === 'GET' && request.path.endsWith('/audit-logs'));
    // Before: one read (or up to three pages) for each of the 6 roles.
    expect(auditReads).toHaveLength(1);
    expect(holds(cameBack!)).toBe(true);
    for (const buyer of buyers.slice(1)) expect(holds(buyer)).toBe(false);
  });

  it('without View Audit Log: takes the role back as before, and /shop-admin status says why staff-given roles are not told apart', async () => {
    h.discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageRoles);
    try {
      const buyer = new Member(h);
      const issued = await steps.checkout(buyer, 'No_Audit', VIP_30);
      await paid(issued.id);
      h.discord.removeMember(guildId, buyer.user.id);
      await buyer.run('cart');
      h.discord.giveRoleByHand(guildId, staff.user.id, buyer.user.id, vipRole);
      await timeIsUp();
      expect(holds(buyer)).toBe(false);
      expect(changesFor(buyer.user.id)).toEqual(['PUT 204', 'DELETE 204']);

      const status = textOf((await admin.sub('shop-admin', 'status')).message!);
      expect(status).toContain(en.rewards.statusNoAuditLog);
    } finally {
      h.discord.setBotPermissions(guildId, DEFAULT_BOT_PERMISSIONS | PermissionFlagsBits.ManageRoles | PermissionFlagsBits.ViewAuditLog);
    }
    expect(textOf((await admin.sub('shop-admin', 'status')).message!)).not.toContain(en.rewards.statusNoAuditLog);
  });
});
