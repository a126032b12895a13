import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/logger.js';
import { BUYER_LINK_DAYS, PaymentLinks } from '../../../src/services/payment-links.js';
import { PaymentLinkRepository, type NewPaymentLink } from '../../../src/storage/payment-links.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LIFETIME_HOURS = 24;

/** The service over the real repository on an in-memory store; links are created at the clock's time. */
function setup() {
  const clock = new ManualClock();
  const repository = new PaymentLinkRepository(new Keyv(), createLogger('silent'));
  const links = new PaymentLinks(repository, clock);
  let count = 0;
  const create = (change: Partial<NewPaymentLink> = {}) => {
    count += 1;
    return repository.create({
      guildId: 'g1',
      userId: 'buyer',
      nick: 'Steve_123',
      items: [{ variantId: 'vip-30', quantity: 1, serverName: 'Survival', productName: 'VIP', variantName: '30 dni' }],
      url: `https://shop.example/pay/${count}`,
      license: 'l',
      createdAt: clock.now(),
      ...change,
    });
  };
  return { clock, repository, links, create };
}

describe('PaymentLinks', () => {
  describe('resend: the member’s own pending link only', () => {
    it('gives the member’s own link while it is pending', async () => {
      const { links, create } = setup();
      const link = await create();
      expect((await links.pendingMemberLink('g1', 'buyer', link.id, LIFETIME_HOURS))?.id).toBe(link.id);
    });

    it('refuses a link past the guild’s lifetime', async () => {
      const { clock, links, create } = setup();
      const link = await create();
      clock.advance(LIFETIME_HOURS * HOUR);
      expect(await links.pendingMemberLink('g1', 'buyer', link.id, LIFETIME_HOURS)).toBeUndefined();
      // Still the member's: Buy again may use it.
      expect((await links.memberLink('g1', 'buyer', link.id))?.id).toBe(link.id);
    });

    it('refuses another member’s link, and a withdrawn one', async () => {
      const { links, create } = setup();
      const link = await create();
      expect(await links.pendingMemberLink('g1', 'someone-else', link.id, LIFETIME_HOURS)).toBeUndefined();
      expect(await links.memberLink('g1', 'someone-else', link.id)).toBeUndefined();
      await links.revoke('g1', link.id, { moderatorId: 'mod', memberId: undefined });
      expect(await links.pendingMemberLink('g1', 'buyer', link.id, LIFETIME_HOURS)).toBeUndefined();
    });
  });

  describe('revoke', () => {
    it('reads the typed reference whatever its case and spacing', async () => {
      const { clock, links, create } = setup();
      const link = await create();
      clock.advance(HOUR);
      const outcome = await links.revoke('g1', `  ${link.id.toLowerCase()} `, { moderatorId: 'mod', memberId: undefined });
      expect(outcome).toMatchObject({ kind: 'revoked', id: link.id, link: { revoked: { by: 'mod', at: clock.now() } } });
    });

    it('refuses a link that is not the named member’s, and leaves it as it was', async () => {
      const { repository, links, create } = setup();
      const link = await create({ userId: 'buyer' });
      expect(await links.revoke('g1', link.id, { moderatorId: 'mod', memberId: 'other-member' })).toEqual({ kind: 'not-members-link', id: link.id });
      expect((await repository.get('g1', link.id))?.revoked).toBeUndefined();
    });

    it('keeps the first withdrawal and says who made it and when', async () => {
      const { clock, links, create } = setup();
      const link = await create();
      const first = clock.now();
      await links.revoke('g1', link.id, { moderatorId: 'first-mod', memberId: 'buyer' });
      clock.advance(HOUR);
      expect(await links.revoke('g1', link.id, { moderatorId: 'second-mod', memberId: undefined })).toEqual({
        kind: 'already-revoked',
        id: link.id,
        by: 'first-mod',
        at: first,
      });
    });

    it('quotes an unknown reference back as typed', async () => {
      const { links } = setup();
      expect(await links.revoke('g1', ' nope ', { moderatorId: 'mod', memberId: undefined })).toEqual({ kind: 'unknown', reference: ' nope ' });
    });

    it('finds no link of another guild', async () => {
      const { links, create } = setup();
      const link = await create({ guildId: 'g2' });
      expect((await links.revoke('g1', link.id, { moderatorId: 'mod', memberId: undefined })).kind).toBe('unknown');
    });
  });

  it('suggests pending links matching what was typed in the reference, nick or items, whatever the case', async () => {
    const { clock, links, create } = setup();
    const expired = await create({ nick: 'Alex' });
    clock.advance(LIFETIME_HOURS * HOUR);
    const alex = await create({ nick: 'Alex' });
    const kit = await create({ nick: 'Bob', items: [{ variantId: 'k', quantity: 1, serverName: 'S', productName: 'Starter Kit', variantName: 'x1' }] });
    const other = await create({ userId: 'other', nick: 'Alexandra' });
    const query = { memberId: undefined, lifetimeHours: LIFETIME_HOURS, now: clock.now() };
    const ids = async (typed: string, memberId?: string) => (await links.revokeSuggestions('g1', { ...query, typed, memberId })).map((link) => link.id);

    expect(await ids('ALEX')).toEqual([other.id, alex.id]);
    expect(await ids('alex', 'buyer')).toEqual([alex.id]);
    expect(await ids(' starter ')).toEqual([kit.id]);
    expect(await ids(kit.id.toLowerCase())).toEqual([kit.id]);
    expect(await ids('')).not.toContain(expired.id);
  });

  it('lists a member’s links of the last BUYER_LINK_DAYS days, newest first', async () => {
    const { clock, links, create } = setup();
    await create();
    clock.advance(DAY);
    const recent = await create();
    await create({ userId: 'other' });
    clock.advance(BUYER_LINK_DAYS * DAY - 1);
    expect((await links.recentForMember('g1', 'buyer', clock.now())).map((link) => link.id)).toEqual([recent.id]);
  });

  it('shows the last page of a member’s links when the one asked for is past the end', async () => {
    const { links, create } = setup();
    const created = [];
    for (let index = 0; index < 5; index += 1) created.push(await create());
    const page = await links.memberPage('g1', 'buyer', 7, 2);
    expect(page).toMatchObject({ page: 2, pages: 3, total: 5 });
    expect(page.links.map((link) => link.id)).toEqual([created[0]?.id]);
    expect(await links.memberPage('g1', 'nobody', 3, 2)).toEqual({ links: [], page: 0, pages: 1, total: 0 });
  });

  it('finds a link by its exact URL only', async () => {
    const { links, create } = setup();
    const link = await create({ url: 'https://shop.example/pay/exact' });
    expect((await links.issuedWithUrl('g1', 'https://shop.example/pay/exact'))?.id).toBe(link.id);
    expect(await links.issuedWithUrl('g1', 'https://shop.example/pay/exact/')).toBeUndefined();
  });
});
