import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { startProcessPair, type ProcessPair } from '../support/process-pair.js';
import type { FakeSpaceIs, Hold } from '../fakes/spaceis/fake-spaceis.js';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { en } from '../../src/i18n/en.js';

/**
 * Two bot processes on one Redis, selling from the same license (the default SPACEIS_API_KEY) of
 * one store: the license's gate is one gate. Each process has a local Discord of its own (its own
 * guild and members), as two shards of one bot would.
 */
const error = (message: string) => ({ success: false, type: 'error', message });

/** What a process's gate metrics say (as an operator scraping /metrics sees them), summed over licenses. */
async function gateLoad(port: number): Promise<{ inFlight: number; queued: number }> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const sum = (name: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`))
      .reduce((total, line) => total + Number(line.split(' ').pop()), 0);
  return { inFlight: sum('shopbot_gate_in_flight'), queued: sum('shopbot_gate_queue_depth') };
}

describe('the store gate across bot processes (Redis)', () => {
  let pair: ProcessPair;
  let store: FakeSpaceIs;
  let discords: FakeDiscord[];
  let metricsPorts: number[];
  beforeEach(async () => {
    pair = await startProcessPair('gate-processes', { metrics: true });
    ({ store, discords, metricsPorts } = pair);
  });

  afterEach(() => pair.end());

  it("makes the other process wait out a 429's Retry-At without calling the store", async () => {
    const [inA, inB] = [new Member({ discord: discords[0]! }), new Member({ discord: discords[1]! })];
    await addToCart(inA, VIP_30);
    await addToCart(inB, VIP_30);
    store.failNext('paymentUrl', { status: 429, headers: { 'Retry-At': '30' }, body: error('Too Many Attempts.') });

    expect((await inA.run('checkout', { nick: 'First' })).message!.text).toBe('The shop is busy right now. Please try again in 30 s; your cart is kept.');
    const sent = store.requestsTo('paymentUrl').length;
    const waited = (await inB.run('checkout', { nick: 'Second' })).message!.text;
    expect(waited).toMatch(/^The shop is busy right now\. Please try again in (29|30) s; your cart is kept\.$/);
    expect(store.requestsTo('paymentUrl').length).toBe(sent);
  });

  it('keeps at most four store requests in flight for the license across both processes', async () => {
    const members = Array.from({ length: 12 }, (_, index) => new Member({ discord: discords[index % 2]! }));
    for (const member of members) await addToCart(member, VIP_30);
    store.resetInFlightMark();

    const holds: Hold[] = members.map(() => store.hold('paymentUrl'));
    const checkouts = await Promise.all(members.map((member, index) => discords[index % 2]!.slash(member.user, 'checkout', { options: { nick: `Crowd${index}` } })));
    // Every checkout has reached the license's gate: in flight at the store, or waiting its turn.
    const everyoneAtTheGate = async () => {
      const loads = await Promise.all(metricsPorts.map(gateLoad));
      const inFlight = loads.reduce((total, load) => total + load.inFlight, 0);
      const queued = loads.reduce((total, load) => total + load.queued, 0);
      return inFlight + queued === 12 && store.inFlight === inFlight;
    };
    await expect.poll(everyoneAtTheGate, { timeout: 15_000 }).toBe(true);
    expect(store.inFlight).toBe(4);
    // A slow store: each answer lets exactly one more request in, from whichever process waits.
    for (let next = 4; next < holds.length; next += 1) {
      holds[next - 4]!.release();
      await holds[next]!.reached;
    }
    for (const hold of holds) hold.release();
    const replies = await Promise.all(checkouts.map(async (checkout) => (await checkout.settled()).message!.text));

    expect(store.maxInFlight).toBe(4);
    expect(store.requestsTo('paymentUrl').length).toBe(12);
    for (const reply of replies) expect(reply).toContain('is in your DMs');
  });

  it('opens the breaker in the other process after five store failures in one', async () => {
    const [inA, inB] = [new Member({ discord: discords[0]! }), new Member({ discord: discords[1]! })];
    await addToCart(inA, VIP_30);
    await addToCart(inB, VIP_30);
    store.failNext('paymentUrl', { status: 500, body: error('Server Error') }, 5);
    for (let n = 0; n < 5; n += 1) {
      expect((await inA.run('checkout', { nick: 'Failing' })).message!.text).toBe(`${en.storeErrors.failed}\n(“Server Error”)`);
    }

    const sent = store.requestsTo('paymentUrl').length;
    expect((await inB.run('checkout', { nick: 'Other' })).message!.text).toBe(en.storeErrors.temporarilyUnavailable);
    expect(store.requestsTo('paymentUrl').length).toBe(sent);
  });
});
