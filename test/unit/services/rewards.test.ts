import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/logger.js';
import {
  earnedRoles,
  MAX_REWARDS_PER_GUILD,
  nextGrant,
  RoleRewards,
  type MemberRoles,
  type PowerfulPermission,
  type RewardItem,
  type RoleAnswer,
  type RoleProblem,
  type RoleReason,
} from '../../../src/services/rewards.js';
import type { PaymentLink } from '../../../src/storage/payment-link-record.js';
import { RoleRewardRepository, type Reward } from '../../../src/storage/role-rewards.js';
import { RoleWorkEnds } from '../../../src/storage/role-work-ends.js';

const GUILD = '100000000000000001';
const BUYER = '200000000000000002';
const ADMIN = '300000000000000003';
const VIP_ROLE = '400000000000000004';
const GOLD_ROLE = '400000000000000005';
const DAY = 86_400_000;

const VIP: RewardItem = { productId: 'prod-vip', serverName: 'Survival', productName: 'VIP' };
const VIP_30: RewardItem = { ...VIP, variantId: 'var-vip-30', variantName: '30 dni' };

/** Discord's side as the service sees it: members' roles in memory, and problems on demand. */
class RolesInMemory implements MemberRoles {
  readonly held = new Map<string, Set<string>>([[BUYER, new Set()]]);
  readonly calls: { action: 'add' | 'remove'; userId: string; roleId: string; reason: RoleReason }[] = [];
  problem: RoleProblem | undefined;
  readonly powerful = new Map<string, PowerfulPermission[]>();

  async powers(_guildId: string, roleId: string): Promise<RoleAnswer<PowerfulPermission[]>> {
    return { ok: true, value: this.powerful.get(roleId) ?? [] };
  }
  async removable(): Promise<RoleAnswer<void>> {
    return this.problem ? { ok: false, problem: this.problem } : { ok: true, value: undefined };
  }
  async holds(_guildId: string, userId: string, roleId: string): Promise<RoleAnswer<boolean>> {
    const roles = this.held.get(userId);
    if (!roles) return { ok: false, problem: 'member-left' };
    return { ok: true, value: roles.has(roleId) };
  }
  /** Discord gives the role but its answer never arrives (a time-out after the change). */
  lostAnswer = false;
  /** Nobody but the bot changes roles here (the audit log's side is tested in test/flows/hand-given-roles.test.ts). */
  async givenByOthersSince(): Promise<RoleAnswer<boolean>> {
    return { ok: true, value: false };
  }

  async add(_guildId: string, userId: string, roleId: string, reason: RoleReason): Promise<RoleAnswer<void>> {
    this.calls.push({ action: 'add', userId, roleId, reason });
    if (this.lostAnswer) {
      this.held.get(userId)?.add(roleId);
      return { ok: false, problem: 'unreachable' };
    }
    if (this.problem) return { ok: false, problem: this.problem };
    this.held.get(userId)?.add(roleId);
    return { ok: true, value: undefined };
  }
  async remove(_guildId: string, userId: string, roleId: string, reason: RoleReason): Promise<RoleAnswer<void>> {
    this.calls.push({ action: 'remove', userId, roleId, reason });
    if (this.problem) return { ok: false, problem: this.problem };
    const roles = this.held.get(userId);
    if (!roles) return { ok: false, problem: 'member-left' };
    roles.delete(roleId);
    return { ok: true, value: undefined };
  }
}

function setup() {
  const clock = new ManualClock();
  const keyv = new Keyv();
  const logger = createLogger('silent');
  const roles = new RolesInMemory();
  const notices: { kind: 'grant' | 'removal' | 'powerful' | 'nick'; roleId: string; problem?: RoleProblem }[] = [];
  const counts = { granted: 0, removed: 0, failed: [] as string[] };
  const repository = new RoleRewardRepository(keyv, logger);
  const rewards = new RoleRewards({
    repository,
    ends: new RoleWorkEnds(keyv, logger),
    roles,
    clock,
    logger,
    notices: {
      grantFailed: async ({ roleId, problem }) => void notices.push({ kind: 'grant', roleId, problem }),
      removalFailed: async ({ roleId, problem }) => void notices.push({ kind: 'removal', roleId, problem }),
      tooPowerful: async ({ roleId }) => void notices.push({ kind: 'powerful', roleId }),
      nickShared: async ({ roleId }) => void notices.push({ kind: 'nick', roleId }),
    },
    counters: {
      granted: () => void counts.granted++,
      removed: () => void counts.removed++,
      failed: (action, problem) => void counts.failed.push(`${action}:${problem}`),
    },
  });
  let linkCount = 0;
  const link = (items: { variantId?: string; productId?: string; quantity?: number }[] = [{}], userId = BUYER): PaymentLink => {
    linkCount += 1;
    return {
      id: `LINK${linkCount}`,
      guildId: GUILD,
      userId,
      nick: 'Steve',
      url: `https://pay.example/${linkCount}`,
      license: 'lic',
      createdAt: clock.now(),
      items: items.map((item) => ({
        variantId: item.variantId ?? 'var-vip-30',
        productId: item.productId ?? 'prod-vip',
        quantity: item.quantity ?? 1,
        serverName: 'Survival',
        productName: 'VIP',
        variantName: '30 dni',
      })),
    };
  };
  const pay = (paid: PaymentLink, status: 'paid' | 'failed' | 'expired' = 'paid') =>
    rewards.onPayment({ link: paid, status, transactionId: 'T1', at: clock.now() });
  return { clock, keyv, roles, notices, counts, repository, rewards, link, pay };
}

describe('RoleRewards', () => {
  describe('add, list, remove', () => {
    it('adds a reward for a product or a variant, replaces the same item and role, and removes it', async () => {
      const { rewards } = setup();
      const first = await rewards.add(GUILD, { item: VIP, roleId: VIP_ROLE, days: null, by: ADMIN });
      expect(first).toMatchObject({ kind: 'added', replaced: undefined, reward: { productId: 'prod-vip', roleId: VIP_ROLE, days: null, addedBy: ADMIN } });
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      const again = await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 60, by: ADMIN });
      expect(again.kind === 'added' && again.replaced?.days).toBe(30);
      const listed = await rewards.list(GUILD);
      expect(listed.map((reward) => [reward.variantId ?? null, reward.days])).toEqual([
        [null, null],
        ['var-vip-30', 60],
      ]);
      const removed = await rewards.remove(GUILD, listed[0]!.id);
      expect(removed?.removed.productId).toBe('prod-vip');
      expect(removed?.rewards).toHaveLength(1);
      expect(await rewards.remove(GUILD, listed[0]!.id)).toBeUndefined();
    });

    it(`keeps at most ${MAX_REWARDS_PER_GUILD} rewards a guild, and keeps days within 1–3650`, async () => {
      const { rewards } = setup();
      for (let n = 0; n < MAX_REWARDS_PER_GUILD; n++) {
        expect((await rewards.add(GUILD, { item: VIP, roleId: `5000000000000000${String(n).padStart(2, '0')}`, days: 99_999, by: ADMIN })).kind).toBe('added');
      }
      expect(await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 1, by: ADMIN })).toEqual({ kind: 'full' });
      expect((await rewards.list(GUILD)).every((reward) => reward.days === 3650)).toBe(true);
      // Changing one already there is still allowed.
      expect((await rewards.add(GUILD, { item: VIP, roleId: '500000000000000000', days: 7, by: ADMIN })).kind).toBe('added');
    });
  });

  describe('which roles a paid link earns', () => {
    const reward = (change: Partial<Reward>): Reward => ({
      id: 'r',
      productId: 'prod-vip',
      serverName: 'Survival',
      productName: 'VIP',
      roleId: VIP_ROLE,
      days: 30,
      addedBy: ADMIN,
      addedAt: 0,
      ...change,
    });
    const item = (variantId: string, quantity = 1, productId: string | null = 'prod-vip') => ({
      variantId,
      quantity,
      serverName: 'S',
      productName: 'P',
      variantName: 'V',
      ...(productId ? { productId } : {}),
    });

    it('matches a product by any of its variants and a variant by itself, counting quantities', () => {
      expect(earnedRoles([reward({})], [item('var-vip-30', 2)])).toEqual([{ roleId: VIP_ROLE, days: 60 }]);
      expect(earnedRoles([reward({ variantId: 'var-vip-90' })], [item('var-vip-30')])).toEqual([]);
      expect(earnedRoles([reward({ variantId: 'var-vip-30', days: 7 })], [item('var-vip-30', 1, null)])).toEqual([{ roleId: VIP_ROLE, days: 7 }]);
      // Older records without the product id match variant rewards only.
      expect(earnedRoles([reward({})], [item('var-vip-30', 1, null)])).toEqual([]);
    });

    it('gives a role earned twice once: for good if any reward says so, else for the longest', () => {
      const items = [item('var-vip-30')];
      expect(earnedRoles([reward({ days: 30 }), reward({ variantId: 'var-vip-30', days: 90 })], items)).toEqual([{ roleId: VIP_ROLE, days: 90 }]);
      expect(earnedRoles([reward({ days: 30 }), reward({ variantId: 'var-vip-30', days: null })], items)).toEqual([{ roleId: VIP_ROLE, days: null }]);
      expect(earnedRoles([reward({ days: 30 }), reward({ roleId: GOLD_ROLE, days: null })], items)).toEqual([
        { roleId: VIP_ROLE, days: 30 },
        { roleId: GOLD_ROLE, days: null },
      ]);
    });

    it('extends a running grant from its end, an ended one from now, and never shortens one for good', () => {
      const now = 1_000 * DAY;
      expect(nextGrant(undefined, 30, now, 'L')).toEqual({ expiresAt: now + 30 * DAY, grantedAt: now, timedSince: now, linkId: 'L' });
      // A running grant keeps when it began (a role given by hand after that is the member's: expiry.ts).
      expect(nextGrant({ expiresAt: now + 5 * DAY, grantedAt: 7, timedSince: 3, linkId: 'K' }, 30, now, 'L').timedSince).toBe(3);
      expect(nextGrant({ expiresAt: now + 5 * DAY, grantedAt: 7, linkId: 'K' }, 30, now, 'L').timedSince).toBe(7);
      expect(nextGrant({ expiresAt: now - DAY, grantedAt: 7, timedSince: 3, linkId: 'K' }, 30, now, 'L').timedSince).toBe(now);
      expect(nextGrant({ expiresAt: now + 5 * DAY, grantedAt: 0, linkId: 'K' }, 30, now, 'L').expiresAt).toBe(now + 35 * DAY);
      expect(nextGrant({ expiresAt: now - DAY, grantedAt: 0, linkId: 'K' }, 30, now, 'L').expiresAt).toBe(now + 30 * DAY);
      expect(nextGrant({ expiresAt: null, grantedAt: 0, linkId: 'K' }, 30, now, 'L').expiresAt).toBeNull();
      expect(nextGrant({ expiresAt: now + DAY, grantedAt: 0, linkId: 'K' }, null, now, 'L').expiresAt).toBeNull();
    });
  });

  describe('a paid link', () => {
    it('gives each earned role once per link, with the link in the reason, and only when paid', async () => {
      const { rewards, roles, pay, link, counts } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      await rewards.add(GUILD, { item: VIP, roleId: GOLD_ROLE, days: null, by: ADMIN });
      const paid = link();
      await pay(paid, 'failed');
      await pay(paid, 'expired');
      expect(roles.calls).toEqual([]);
      await Promise.all([pay(paid), pay(paid)]);
      await pay(paid);
      expect(roles.calls).toEqual([
        { action: 'add', userId: BUYER, roleId: VIP_ROLE, reason: { kind: 'bought', linkId: paid.id, days: 30 } },
        { action: 'add', userId: BUYER, roleId: GOLD_ROLE, reason: { kind: 'bought', linkId: paid.id, days: null } },
      ]);
      expect(counts.granted).toBe(2);
    });

    it('takes a timed role back when due, once, and keeps one for good', async () => {
      const { rewards, roles, pay, link, clock, repository, counts } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      await rewards.add(GUILD, { item: VIP, roleId: GOLD_ROLE, days: null, by: ADMIN });
      const paid = link();
      await pay(paid);
      clock.advance(30 * DAY - 1);
      expect(await rewards.removeDue()).toEqual({ removed: 0, failed: 0 });
      clock.advance(1);
      expect(await Promise.all([rewards.removeDue(), rewards.removeDue()])).toEqual(
        expect.arrayContaining([{ removed: 1, failed: 0 }, { removed: 0, failed: 0 }]),
      );
      expect(roles.calls.filter((call) => call.action === 'remove')).toEqual([
        { action: 'remove', userId: BUYER, roleId: VIP_ROLE, reason: { kind: 'ended', linkId: paid.id } },
      ]);
      expect([...roles.held.get(BUYER)!]).toEqual([GOLD_ROLE]);
      expect(await repository.grant(GUILD, BUYER, VIP_ROLE)).toBeUndefined();
      expect(await repository.dueDays(clock.now() + 3650 * DAY)).toEqual([]);
      expect(counts.removed).toBe(1);
    });

    it('extends a timed role bought again before it ends, without asking Discord again', async () => {
      const { rewards, roles, pay, link, clock, repository } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      const start = clock.now();
      await pay(link());
      clock.advance(20 * DAY);
      await pay(link([{ quantity: 2 }]));
      expect((await repository.grant(GUILD, BUYER, VIP_ROLE))?.expiresAt).toBe(start + 90 * DAY);
      expect(roles.calls.map((call) => call.action)).toEqual(['add']);
      clock.advance(10 * DAY);
      await rewards.removeDue();
      expect(roles.held.get(BUYER)?.has(VIP_ROLE)).toBe(true);
      clock.advance(60 * DAY);
      expect(await rewards.removeDue()).toEqual({ removed: 1, failed: 0 });
      expect(roles.held.get(BUYER)?.has(VIP_ROLE)).toBe(false);
    });

    it('never times or takes back a role the member had from elsewhere', async () => {
      const { rewards, roles, pay, link, clock, repository } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      roles.held.get(BUYER)!.add(VIP_ROLE);
      const paid = link();
      await pay(paid);
      expect(roles.calls).toEqual([]);
      expect(await repository.grant(GUILD, BUYER, VIP_ROLE)).toBeUndefined();
      expect(await repository.marker(GUILD, paid.id, VIP_ROLE)).toMatchObject({ outcome: 'held' });
      clock.advance(31 * DAY);
      await rewards.removeDue();
      expect(roles.held.get(BUYER)?.has(VIP_ROLE)).toBe(true);
    });

    it('reports a failed grant once, keeps no grant for it, and does not try that link again', async () => {
      const { rewards, roles, pay, link, notices, repository, counts } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      roles.problem = 'role-above-bot';
      const paid = link();
      await pay(paid);
      await pay(paid);
      expect(notices).toEqual([{ kind: 'grant', roleId: VIP_ROLE, problem: 'role-above-bot' }]);
      expect(roles.calls).toHaveLength(1);
      expect(await repository.grant(GUILD, BUYER, VIP_ROLE)).toBeUndefined();
      expect(await repository.marker(GUILD, paid.id, VIP_ROLE)).toMatchObject({ outcome: 'failed' });
      expect(counts.failed).toEqual(['grant:role-above-bot']);

      // Fixed: the next payment gives the role.
      roles.problem = undefined;
      await pay(link());
      expect(roles.held.get(BUYER)?.has(VIP_ROLE)).toBe(true);
    });

    it('reports a member who left before the role was given', async () => {
      const { rewards, roles, pay, link, notices } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      await pay(link([{}], '999999999999999999'));
      expect(notices).toEqual([{ kind: 'grant', roleId: VIP_ROLE, problem: 'member-left' }]);
      expect(roles.calls).toEqual([]);
    });

    it('a grant Discord did not answer is given on the next offer, once, timed from the first attempt', async () => {
      const { rewards, roles, link, clock, repository, notices, counts } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      const start = clock.now();
      const paid = link();
      const event = { link: paid, status: 'paid' as const, transactionId: 'T1', at: start };
      roles.problem = 'unreachable';
      expect(await rewards.onPayment(event)).toBe('retry');
      expect(await repository.marker(GUILD, paid.id, VIP_ROLE)).toBeUndefined();
      roles.problem = undefined;
      clock.advance(DAY);
      expect(await rewards.onPayment(event)).toBe('done');
      expect(await rewards.onPayment(event)).toBe('done');
      expect((await repository.grant(GUILD, BUYER, VIP_ROLE))?.expiresAt).toBe(start + 30 * DAY);
      expect(roles.calls.map((call) => call.action)).toEqual(['add', 'add']);
      expect(notices).toEqual([]);
      expect(counts.granted).toBe(1);
    });

    it('a grant Discord did not answer, then another payment for the role, then the retry: the days are counted once each', async () => {
      const { rewards, roles, link, clock, repository, counts } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      const start = clock.now();
      const first = { link: link(), status: 'paid' as const, transactionId: 'T1', at: start };
      roles.problem = 'unreachable';
      expect(await rewards.onPayment(first)).toBe('retry');
      roles.problem = undefined;
      clock.advance(DAY);
      expect(await rewards.onPayment({ link: link(), status: 'paid', transactionId: 'T2', at: clock.now() })).toBe('done');
      expect((await repository.grant(GUILD, BUYER, VIP_ROLE))?.expiresAt).toBe(start + 60 * DAY);
      expect(await rewards.onPayment(first)).toBe('done');
      expect(await rewards.onPayment(first)).toBe('done');
      expect(await repository.grant(GUILD, BUYER, VIP_ROLE)).toMatchObject({ expiresAt: start + 60 * DAY, unconfirmed: [] });
      expect(await repository.marker(GUILD, first.link.id, VIP_ROLE)).toMatchObject({ outcome: 'granted' });
      expect(counts.granted).toBe(2);
    });

    it('a role Discord gave without its answer arriving is not taken for one given by hand: it stays timed', async () => {
      const { rewards, roles, link, clock, repository } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      const event = { link: link(), status: 'paid' as const, transactionId: 'T1', at: clock.now() };
      roles.lostAnswer = true;
      expect(await rewards.onPayment(event)).toBe('retry');
      roles.lostAnswer = false;
      expect(await rewards.onPayment(event)).toBe('done');
      expect(await repository.marker(GUILD, event.link.id, VIP_ROLE)).toMatchObject({ outcome: 'granted' });
      clock.advance(31 * DAY);
      expect(await rewards.removeDue()).toEqual({ removed: 1, failed: 0 });
      expect(roles.held.get(BUYER)?.has(VIP_ROLE)).toBe(false);
    });

    it('a failed extension keeps the grant as it was', async () => {
      const { rewards, roles, pay, link, clock, repository } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      await pay(link());
      const before = await repository.grant(GUILD, BUYER, VIP_ROLE);
      // An admin took the role away by hand; giving it again fails.
      roles.held.get(BUYER)!.delete(VIP_ROLE);
      roles.problem = 'no-manage-roles';
      clock.advance(DAY);
      await pay(link());
      expect(await repository.grant(GUILD, BUYER, VIP_ROLE)).toEqual(before);
    });
  });

  describe('the removal pass', () => {
    it('a removal Discord refuses is final: sent once, told once, listed once for the status; one Discord did not answer is tried again untold', async () => {
      const { rewards, roles, pay, link, clock, notices, repository, counts } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      await pay(link());
      clock.advance(30 * DAY);
      roles.problem = 'unreachable';
      expect(await rewards.removeDue()).toEqual({ removed: 0, failed: 0 });
      expect(await repository.grant(GUILD, BUYER, VIP_ROLE)).toBeDefined();
      roles.problem = 'no-manage-roles';
      expect(await rewards.removeDue()).toEqual({ removed: 0, failed: 1 });
      expect(await rewards.removeDue()).toEqual({ removed: 0, failed: 0 });
      expect(notices).toEqual([{ kind: 'removal', roleId: VIP_ROLE, problem: 'no-manage-roles' }]);
      expect(counts.failed).toEqual(['remove:no-manage-roles']);
      expect(await repository.grant(GUILD, BUYER, VIP_ROLE)).toMatchObject({ removalFailed: { problem: 'no-manage-roles' } });
      // Fixed or not, never sent again: one unanswered DELETE and one refused, nothing after.
      roles.problem = undefined;
      expect(await rewards.removeDue()).toEqual({ removed: 0, failed: 0 });
      expect(roles.calls.filter((call) => call.action === 'remove')).toHaveLength(2);
      expect((await rewards.takeRefusedRemovals(GUILD)).map(({ userId, roleId, problem }) => ({ userId, roleId, problem }))).toEqual([
        { userId: BUYER, roleId: VIP_ROLE, problem: 'no-manage-roles' },
      ]);
      expect(await rewards.takeRefusedRemovals(GUILD)).toEqual([]);
    });

    it('in a guild the bot left, drops grants and removals without asking Discord or telling anyone', async () => {
      const { rewards, roles, pay, link, clock, notices, repository } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      await pay(link());
      const asked = roles.calls.length;
      await rewards.botLeft(GUILD);
      await pay(link());
      clock.advance(61 * DAY);
      expect(await rewards.removeDue()).toEqual({ removed: 0, failed: 0 });
      expect(roles.calls).toHaveLength(asked);
      expect(notices).toEqual([]);
      expect(await repository.grant(GUILD, BUYER, VIP_ROLE)).toBeUndefined();
      expect(await repository.dueDays(clock.now())).toEqual([]);
    });

    it('forgets a role whose member left, silently', async () => {
      const { rewards, roles, pay, link, clock, notices } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      await pay(link());
      roles.held.delete(BUYER);
      clock.advance(30 * DAY);
      expect(await rewards.removeDue()).toEqual({ removed: 0, failed: 0 });
      expect(notices).toEqual([]);
      expect(await rewards.removeDue()).toEqual({ removed: 0, failed: 0 });
      expect(roles.calls.filter((call) => call.action === 'remove')).toHaveLength(1);
    });

    it('a role bought for good after a timed one is never taken back', async () => {
      const { rewards, roles, pay, link, clock } = setup();
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: 30, by: ADMIN });
      await pay(link());
      await rewards.add(GUILD, { item: VIP_30, roleId: VIP_ROLE, days: null, by: ADMIN });
      await pay(link());
      clock.advance(31 * DAY);
      expect(await rewards.removeDue()).toEqual({ removed: 0, failed: 0 });
      expect(roles.held.get(BUYER)?.has(VIP_ROLE)).toBe(true);
    });
  });
});
