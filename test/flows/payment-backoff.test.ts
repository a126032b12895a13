import { describe, expect, it } from 'vitest';
import { Member, VIP_30 } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';

/**
 * Issue 36, point 3 (the payment wing's part): a license whose round fails backs off, doubling with
 * jitter up to 10 minutes, and says so once; it recovers by itself when storage does.
 *
 * Before: a failed round was tried again at every 5 s tick, with a warning each time (120 tries
 * and 120 warnings in 10 minutes of a broken record).
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

const messages = (logs: string[]) => logs.map((line) => JSON.parse(line) as { msg?: string; level?: number });

describe('a license whose round keeps failing', () => {
  const h = useHarness();
  const s = linkSteps(h);

  it('is tried again less and less often (at most every 10 minutes), with one warning, and recovers by itself', async () => {
    const buyer = new Member(h);
    const issued = await s.checkout(buyer, 'Broken_Round', VIP_30);
    await s.poll();
    const license = (await s.record(issued))!.license;
    const stateKey = (key: string) => key.includes(`pay-state:${license}`);
    h.storage.failReads = stateKey;
    const logsBefore = h.logs.length;
    const tries = () => h.storage.readKeys.filter(stateKey).length;
    const before = tries();
    // An hour of ticks.
    for (let elapsed = 0; elapsed < 60 * MINUTE; elapsed += 5 * SECOND) {
      h.clock.advance(5 * SECOND);
      await s.tick();
    }
    const attempts = tries() - before;
    // 5 s, 10 s, 20 s … up to 10 min (with jitter): about a dozen tries in an hour, not 720.
    expect(attempts).toBeGreaterThanOrEqual(5);
    expect(attempts).toBeLessThanOrEqual(16);
    const warnings = messages(h.logs.slice(logsBefore)).filter((line) => (line.level ?? 0) >= 40 && line.msg?.includes('payment watch: round failed'));
    expect(warnings).toHaveLength(1);

    // Storage works again: the license's next try succeeds (within 10 minutes) and a payment settles.
    h.storage.recover();
    h.store.pay(issued.url);
    for (let elapsed = 0; elapsed < 11 * MINUTE; elapsed += 5 * SECOND) {
      h.clock.advance(5 * SECOND);
      await s.tick();
    }
    expect((await s.record(issued))!.payment).toMatchObject({ status: 'paid' });
    expect(messages(h.logs.slice(logsBefore)).filter((line) => line.msg?.includes('payment watch: a license’s rounds work again'))).toHaveLength(1);
  });
});
