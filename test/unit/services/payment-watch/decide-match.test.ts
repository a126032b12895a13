import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_MS, couldPay, decideMatch, type OwnedLink, type SeenTransaction } from '../../../../src/services/payment-watch/matcher.js';

/**
 * Issue 28: a purchase settles a link by itself only when every link it could have paid is one
 * member's; links of two or more members make it a question for staff.
 */

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const MINUTE = 60_000;
const VIP = 'variant-vip-30';

function link(linkId: string, userId: string, overrides: Partial<OwnedLink> = {}): OwnedLink {
  return { guildId: 'g1', linkId, userId, nick: 'Steve_123', createdAt: T0, items: [{ variantId: VIP, quantity: 1 }], ...overrides };
}
const purchase: SeenTransaction = { id: 'tx-1', nick: 'STEVE_123', items: [{ variantId: VIP, quantity: 1 }], madeAt: T0 + 10 * MINUTE };

describe('who a purchase paid', () => {
  it('is the one member whose link could match', () => {
    expect(decideMatch(purchase, [link('A', 'u1'), link('B', 'u2', { nick: 'Alex' })])).toEqual({ kind: 'sole', link: link('A', 'u1') });
  });

  it('is the newest of one member’s links, whatever guild they are in', () => {
    const older = link('A', 'u1');
    const newer = link('B', 'u1', { guildId: 'g2', createdAt: T0 + MINUTE });
    expect(decideMatch(purchase, [newer, older])).toEqual({ kind: 'sole', link: newer });
  });

  it('is nobody’s for sure when two members’ links could match: each member’s newest is a candidate, oldest first', () => {
    const first = link('A', 'u1', { createdAt: T0 + 2 * MINUTE });
    const firstOlder = link('C', 'u1');
    const second = link('B', 'u2', { guildId: 'g2', createdAt: T0 + MINUTE });
    expect(decideMatch(purchase, [first, firstOlder, second])).toEqual({ kind: 'ambiguous', candidates: [second, first], reason: 'members' });
  });

  it('leaves out links that could not have been paid: another nick, other items, issued after the purchase', () => {
    const links = [
      link('A', 'u1'),
      link('B', 'u2', { nick: 'Other' }),
      link('C', 'u3', { items: [{ variantId: VIP, quantity: 2 }] }),
      link('D', 'u4', { createdAt: purchase.madeAt + CLOCK_SKEW_MS + 1 }),
    ];
    expect(decideMatch(purchase, links)).toEqual({ kind: 'sole', link: links[0] });
    expect(decideMatch(purchase, links.slice(1))).toEqual({ kind: 'none' });
    expect(decideMatch(purchase, [])).toEqual({ kind: 'none' });
  });

  describe('for any set of links', () => {
    const arbitraryLinks = fc.array(
      fc.record({
        linkId: fc.stringMatching(/^[A-Z0-9]{8}$/),
        userId: fc.constantFrom('u1', 'u2', 'u3'),
        guildId: fc.constantFrom('g1', 'g2'),
        nick: fc.constantFrom('Steve_123', 'steve_123', 'Alex'),
        createdAt: fc.integer({ min: T0 - 10 * MINUTE, max: T0 + 20 * MINUTE }),
        items: fc.constantFrom([{ variantId: VIP, quantity: 1 }], [{ variantId: VIP, quantity: 2 }]),
      }),
      { maxLength: 12 },
    );

    it('settles by itself exactly when one member could have paid, and then the newest such link of that member', () => {
      fc.assert(
        fc.property(arbitraryLinks, (links) => {
          const possible = links.filter((candidate) => couldPay(purchase, candidate));
          const members = new Set(possible.map((candidate) => candidate.userId));
          const decision = decideMatch(purchase, links);
          if (members.size === 0) return decision.kind === 'none';
          if (members.size > 1) return decision.kind === 'ambiguous';
          if (decision.kind !== 'sole') return false;
          return possible.every((candidate) => candidate.createdAt <= decision.link.createdAt) && possible.includes(decision.link);
        }),
      );
    });

    it('names one candidate per member, each a link that could have paid, and never settles one of them', () => {
      fc.assert(
        fc.property(arbitraryLinks, (links) => {
          const decision = decideMatch(purchase, links);
          if (decision.kind !== 'ambiguous') return true;
          const owners = decision.candidates.map((candidate) => candidate.userId);
          const possibleOwners = new Set(links.filter((candidate) => couldPay(purchase, candidate)).map((candidate) => candidate.userId));
          return (
            new Set(owners).size === owners.length &&
            owners.length === possibleOwners.size &&
            decision.candidates.every((candidate) => couldPay(purchase, candidate))
          );
        }),
      );
    });

    it('does not depend on the order the links are read in', () => {
      fc.assert(
        fc.property(arbitraryLinks, (links) => {
          const forward = decideMatch(purchase, links);
          const backward = decideMatch(purchase, [...links].reverse());
          expect(backward).toEqual(forward);
        }),
      );
    });
  });
});
