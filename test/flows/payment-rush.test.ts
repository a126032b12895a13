import { describe, expect, it } from 'vitest';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps, type Issued } from '../support/links.js';

/**
 * A sale on one server, without the store's webhook: SpaceIs lists only a server's 30 latest
 * purchases, so more than 30 between two polls would push a member's payment out of sight for good
 * (issue 38's bench found 32 of 100 links never confirmed). A busy page (half of it new since the
 * last poll) makes the server read every 5 s tick while the rush lasts.
 */
const SECOND = 1_000;
const TICK = 5 * SECOND;

describe('a rush of purchases on one server, polling only', () => {
  const h = useHarness();
  const s = linkSteps(h);

  it('confirms every link when 80 are paid in a minute (20, then 60 in the next 30 s), then polls every 30 s again', { timeout: 120_000 }, async () => {
    const links: Issued[] = [];
    for (let index = 0; index < 80; index++) links.push(await s.checkout(new Member(h), `Rush_${index}`, VIP_30));
    // One link stays open: the server is still watched after the rush.
    await s.checkout(new Member(h), 'Still_Open', VIP_30);
    await s.poll();
    const polls = () => h.store.requestsTo('latestBuyers').length;

    // 30 s in which 20 are paid (one every 1.5 s), then 30 s in which 60 are (two a second); the watcher ticks every 5 s.
    const paidAt = [...links.slice(0, 20).map((_, n) => n * 1.5 * SECOND), ...links.slice(20).map((_, n) => 30 * SECOND + n * 0.5 * SECOND)];
    let elapsed = 0;
    let nextTick = TICK;
    const moveTo = (at: number) => {
      h.clock.advance(at - elapsed);
      elapsed = at;
    };
    for (const [index, link] of links.entries()) {
      for (; nextTick <= paidAt[index]!; nextTick += TICK) {
        moveTo(nextTick);
        await s.tick();
      }
      moveTo(paidAt[index]!);
      h.store.pay(link.url);
    }
    await s.poll(2);

    const unpaid: string[] = [];
    for (const link of links) if ((await s.record(link))!.payment?.status !== 'paid') unpaid.push(link.id);
    expect(unpaid).toEqual([]);

    // Calm again: one poll every 30 s, as before the rush.
    const before = polls();
    for (let tick = 0; tick < 12; tick++) {
      h.clock.advance(TICK);
      await s.tick();
    }
    expect(polls() - before).toBe(2);
  });
});
