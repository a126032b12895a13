import { Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToCart, Member, VIP_30 } from '../support/buyer.js';
import { BOT_TOKEN, LICENSE_KEY, startHarness, type Harness } from '../support/harness.js';
import { freePort, halfSentRequest } from '../support/sockets.js';

/** One value of a Prometheus text exposition (0 when the series is not there yet). */
function value(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, label]) => `${key}="${label}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (wanted.every((pair) => line.includes(pair))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('the operator’s view (HEALTH_PORT)', () => {
  let h: Harness;
  let port: number;
  const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`);
  const metrics = async () => (await get('/metrics')).text();

  beforeAll(async () => {
    port = await freePort();
    h = await startHarness({ healthPort: port });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is live, ready once the gateway session is up, and answers nothing else', async () => {
    expect((await get('/healthz/live')).status).toBe(200);
    const ready = await get('/healthz/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, gateway: 'ready', storage: 'ok' });
    for (const path of ['/', '/healthz', '/metrics/x', '/healthz/ready/..', '/.env']) expect((await get(path)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/healthz/live`, { method: 'POST' })).status).toBe(404);
  });

  it('is not ready while the gateway reconnects (op 7), and ready again once resumed', async () => {
    const held = h.discord.holdGateway('resume');
    const resumed = h.discord.nextResume();
    h.discord.requestReconnect();
    await held.reached;
    const during = await get('/healthz/ready');
    expect(during.status).toBe(503);
    expect(await during.json()).toEqual({ ready: false, gateway: 'reconnecting', storage: 'ok' });
    held.release();
    await resumed;
    await new Member(h).run('cart'); // the session serves interactions again
    expect((await get('/healthz/ready')).status).toBe(200);
  });

  it('is not ready while storage fails, and ready again when it works', async () => {
    h.clock.advance(1_000); // past the last check's second
    h.storage.failWrites = true;
    const failing = await get('/healthz/ready');
    expect(failing.status).toBe(503);
    expect(await failing.json()).toEqual({ ready: false, gateway: 'ready', storage: 'failing' });
    h.storage.recover();
    h.clock.advance(1_000);
    expect((await get('/healthz/ready')).status).toBe(200);
  });

  it('says ready to every one of many overlapping probes while storage works (two scrapers, a flood)', async () => {
    h.clock.advance(1_000);
    const answers = await Promise.all(Array.from({ length: 300 }, () => get('/healthz/ready').then(async (answer) => ({ status: answer.status, body: await answer.json() }))));
    const failing = answers.filter((answer) => answer.status !== 200);
    expect(failing, JSON.stringify(failing.slice(0, 3))).toEqual([]);
    expect(answers.every((answer) => (answer.body as { storage: string }).storage === 'ok')).toBe(true);
  });

  it('writes to storage at most once a second, however many probes ask, and asks again after a second', async () => {
    h.clock.advance(1_000);
    const writesBefore = h.storage.writes;
    await Promise.all(Array.from({ length: 50 }, () => get('/healthz/ready')));
    for (let i = 0; i < 20; i += 1) expect((await get('/healthz/ready')).status).toBe(200);
    h.clock.advance(999);
    expect((await get('/healthz/ready')).status).toBe(200);
    expect(h.storage.writes - writesBefore).toBeLessThanOrEqual(1);

    h.clock.advance(1);
    h.storage.failWrites = true; // a fresh check sees it at once
    expect((await get('/healthz/ready')).status).toBe(503);
    h.storage.recover();
    h.clock.advance(1_000);
    expect((await get('/healthz/ready')).status).toBe(200);
  });

  it('closes on stop while a client holds a half-sent request, and listens again after the restart', async () => {
    const stalled = await halfSentRequest(port, '/healthz/ready');
    // A whole request on another connection: by its answer the listener has read the half one.
    expect((await get('/healthz/live')).status).toBe(200);
    const closed = new Promise<void>((resolve) => stalled.once('close', () => resolve()));
    await h.restart(); // on the old code: never resolves (the listener waits for that client)
    await closed;
    expect((await get('/healthz/live')).status).toBe(200);
  });

  it('is not ready before the first READY', async () => {
    const held = h.discord.holdGateway('identify');
    const restarted = h.restart();
    await held.reached;
    const before = await get('/healthz/ready');
    expect(before.status).toBe(503);
    expect(await before.json()).toMatchObject({ ready: false, gateway: 'connecting' });
    held.release();
    await restarted;
    expect((await get('/healthz/ready')).status).toBe(200);
  });

  it('counts exactly what a journey does, with labels that carry no key, token, member or URL', async () => {
    const before = await metrics();
    const member = new Member(h);
    await addToCart(member, VIP_30, 1); // /shop, server, category, product, variant, Add to cart
    const dm = h.discord.waitForDm(member.user.id);
    await member.run('checkout', { nick: 'Counted_1' });
    await dm;
    h.clock.advance(60_000);
    await addToCart(member, VIP_30, 1);
    h.store.failNext('paymentUrl', { status: 500, body: { success: false, type: 'error', message: 'boom' } });
    await member.run('checkout', { nick: 'Counted_1' });
    const after = await metrics();

    const delta = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
    expect(delta('shopbot_interactions_total', { kind: 'command', name: '/shop', outcome: 'answered' })).toBe(2);
    expect(delta('shopbot_interactions_total', { kind: 'component', name: 'shop.addToCart', outcome: 'answered' })).toBe(2);
    expect(delta('shopbot_interactions_total', { kind: 'command', name: '/checkout', outcome: 'answered' })).toBe(2);
    expect(delta('shopbot_payment_links_issued_total')).toBe(1);
    expect(delta('shopbot_payment_links_delivered_total', { where: 'dm' })).toBe(1);
    expect(delta('shopbot_store_requests_total', { route: 'paymentUrl', status: '200' })).toBe(1);
    expect(delta('shopbot_store_requests_total', { route: 'paymentUrl', status: '500' })).toBe(1);
    expect(delta('shopbot_interaction_first_response_seconds_count', { kind: 'command' })).toBe(4);
    expect(value(after, 'shopbot_gate_in_flight')).toBe(0);

    const labels = after.split('\n').filter((line) => line.includes('{')).map((line) => line.slice(line.indexOf('{'), line.lastIndexOf('}') + 1));
    for (const label of labels) {
      for (const secret of [LICENSE_KEY, BOT_TOKEN, member.user.id, h.discord.defaultGuildId, 'http', ...h.store.paymentUrls]) expect(label).not.toContain(secret);
    }
  });
});

describe('without HEALTH_PORT', () => {
  it("samples none of the process's own figures (GC, event-loop lag): nobody could scrape them; with it, /metrics has them", async () => {
    const h = await startHarness();
    try {
      expect(await h.bot.services.metrics.registry.metrics()).not.toContain('nodejs_eventloop_lag_seconds');
    } finally {
      await h.close();
    }
    const port = await freePort();
    const withPort = await startHarness({ healthPort: port });
    try {
      expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toContain('nodejs_eventloop_lag_seconds');
    } finally {
      await withPort.close();
    }
  });

  it('opens no listener of its own: only the local Discord and store listen (on ports the system picks)', async () => {
    // Every listen() while a harness starts: the local servers ask for port 0, the health listener for its own.
    const asked: unknown[] = [];
    const listen = Server.prototype.listen;
    Server.prototype.listen = function (this: Server, ...args: unknown[]) {
      asked.push(args[0]);
      return (listen as (...inner: unknown[]) => Server).apply(this, args);
    } as typeof listen;
    try {
      const h = await startHarness();
      await h.close();
      expect(asked.filter((port) => port !== 0)).toEqual([]);
      const port = await freePort();
      asked.length = 0;
      const withPort = await startHarness({ healthPort: port });
      await withPort.close();
      expect(asked.filter((asking) => asking !== 0)).toEqual([port]);
    } finally {
      Server.prototype.listen = listen;
    }
  });
});
