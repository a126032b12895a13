import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../fakes/discord/fake-discord.js';
import { FakeSpaceIs, type Hold } from '../fakes/spaceis/fake-spaceis.js';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { startBotProcess, type BotProcess } from '../support/bot-process.js';
import { LICENSE_KEY } from '../support/harness.js';
import { testStorage } from '../support/redis.js';
import { en } from '../../src/i18n/en.js';

/**
 * Two bot processes on one Redis, selling from the same license (the default SPACEIS_API_KEY) of
 * one store: the license's gate is one gate. Each process has a local Discord of its own (its own
 * guild and members), as two shards of one bot would.
 */
const error = (message: string) => ({ success: false, type: 'error', message });

/** A port free right now, for a process's health and metrics listener. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

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
  let storage: ReturnType<typeof testStorage>;
  let store: FakeSpaceIs;
  let discords: FakeDiscord[];
  let bots: BotProcess[];
  let dir: string;
  let metricsPorts: number[];

  beforeEach(async () => {
    storage = testStorage('gate-processes');
    store = await FakeSpaceIs.start({ apiKey: LICENSE_KEY });
    dir = mkdtempSync(join(tmpdir(), 'shopbot-gate-'));
    // The second local Discord's snowflakes start 10 minutes later: its guild and members can never
    // share an id with the first one's, as they could not on the real Discord.
    discords = [await FakeDiscord.start(), await FakeDiscord.start({ clock: () => Date.now() + 10 * 60_000 })];
    bots = [];
    metricsPorts = [];
    for (const discord of discords) {
      const port = await freePort();
      metricsPorts.push(port);
      bots.push(await startBotProcess({ discord, store, cwd: dir, env: { STORAGE_URL: storage.url, HEALTH_PORT: String(port) } }));
    }
  });

  afterEach(async () => {
    await Promise.all(bots.map((bot) => bot.end()));
    await Promise.all(discords.map((discord) => discord.close()));
    await store.close();
    await storage.cleanUp();
    rmSync(dir, { recursive: true, force: true });
  });

  it("makes the other process wait out a 429's Retry-At without calling the store", async () => {
    const [inA, inB] = [new Member({ discord: discords[0]! }), new Member({ discord: discords[1]! })];
    await addToCart(inA, VIP_30);
    await addToCart(inB, VIP_30);
    store.failNext('paymentUrl', { status: 429, headers: { 'Retry-At': '30' }, body: error('Too Many Attempts.') });

    expect((await inA.run('checkout', { nick: 'First' })).message!.content).toBe('The shop is busy right now. Please try again in 30 s; your cart is kept.');
    const sent = store.requestsTo('paymentUrl').length;
    const waited = (await inB.run('checkout', { nick: 'Second' })).message!.content;
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
    const replies = await Promise.all(checkouts.map(async (checkout) => (await checkout.settled()).message!.content));

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
      expect((await inA.run('checkout', { nick: 'Failing' })).message!.content).toBe(`${en.storeErrors.unavailable}\n(“Server Error”)`);
    }

    const sent = store.requestsTo('paymentUrl').length;
    expect((await inB.run('checkout', { nick: 'Other' })).message!.content).toBe(en.storeErrors.temporarilyUnavailable);
    expect(store.requestsTo('paymentUrl').length).toBe(sent);
  });
});
