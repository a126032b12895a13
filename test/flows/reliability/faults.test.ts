import { InteractionResponseType } from 'discord-api-types/v10';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Fault, FakeRoute } from '../../fakes/spaceis/fake-spaceis.js';
import { addToCart, Member, VIP_30 } from '../../support/buyer.js';
import { useHarness } from '../../support/harness.js';
import { optionLabels, textOf } from '../../support/ui.js';
import { en } from '../../../src/i18n/en.js';

const NOT_ANSWERING = en.storeErrors.unavailable;
/** The store answered with an error of its own (5xx): a problem, not silence. */
const FAILED = en.storeErrors.failed;
const CONFIG = en.storeErrors.notConfigured;
const UNREADABLE = en.storeErrors.badResponse;
const error = (message: string) => ({ success: false, type: 'error', message });

/** Every store fault of the reliability issue: what the member reads when it hits the offer, and when it hits checkout. */
const FAULTS: { name: string; fault: Fault; browse: string; checkout: string; attempts?: number }[] = [
  { name: 'HTTP 500', attempts: 3, fault: { status: 500, body: error('Server Error') }, browse: `${FAILED}\n(“Server Error”)`, checkout: `${FAILED}\n(“Server Error”)` },
  { name: 'HTTP 502', attempts: 3, fault: { raw: '<html>502 Bad Gateway</html>', status: 502 }, browse: FAILED, checkout: FAILED },
  { name: 'HTTP 503', attempts: 3, fault: { raw: 'Service Unavailable', status: 503 }, browse: FAILED, checkout: FAILED },
  {
    name: 'a time-out',
    attempts: 3,
    fault: { kind: 'hang' },
    browse: NOT_ANSWERING,
    checkout: en.storeErrors.timeoutCheckout,
  },
  { name: 'a dropped connection', attempts: 3, fault: { kind: 'destroy' }, browse: NOT_ANSWERING, checkout: NOT_ANSWERING },
  { name: 'a body that is not JSON', fault: { raw: 'Hello, this is not JSON', status: 200 }, browse: UNREADABLE, checkout: UNREADABLE },
  { name: 'JSON of the wrong shape', fault: { status: 200, body: { success: true, type: 'response', data: { surprise: true } } }, browse: UNREADABLE, checkout: UNREADABLE },
  {
    name: '429 with Retry-At',
    fault: { status: 429, headers: { 'Retry-At': '45' }, body: error('Too Many Attempts.') },
    browse: 'The shop is busy right now. Please try again in 45 s; your cart is kept.',
    checkout: 'The shop is busy right now. Please try again in 45 s; your cart is kept.',
  },
  {
    name: '429 purchase limit',
    fault: { status: 429, body: error('daily purchase limit reached for this nick') },
    browse: 'The shop refused this request: “daily purchase limit reached for this nick”.',
    checkout: 'The shop refused this request: “daily purchase limit reached for this nick”.',
  },
  { name: 'HTTP 401', fault: { status: 401, body: error('unauthorized') }, browse: CONFIG, checkout: CONFIG },
  { name: 'HTTP 402', fault: { status: 402, body: error('license is not active') }, browse: CONFIG, checkout: CONFIG },
];

describe('when the store misbehaves', () => {
  // A short store time-out keeps the time-out cases quick; everything else runs on the manual clock.
  const h = useHarness({ storeTimeoutMs: 60 });
  beforeEach(async () => {
    // Each case starts with a cold cache and a closed circuit breaker.
    h.clock.advance(10 * 60_000);
    await new Member(h).run('shop');
  });

  /** A GET is tried three times when the failure may pass (5xx, time-out, dropped connection); once otherwise. */
  function failAll(route: FakeRoute, fault: Fault, attempts = 1): void {
    h.store.failNext(route, fault, attempts);
  }

  function storeFailureLines(): string[] {
    return h.logs.filter((line) => line.includes('"store request failed"') || line.includes('"payment link refused"'));
  }

  it.each(FAULTS)('$name on the offer: a clear answer in time, one log line, the cart kept', async ({ fault, browse, attempts }) => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 2);
    h.clock.advance(10 * 60_000); // the cached offer expires
    failAll('servers', fault, attempts);
    const requests = h.store.requestsTo('servers').length;
    const logged = storeFailureLines().length;

    const reply = await member.run('shop');

    expect(reply.callbackType).toBe(InteractionResponseType.DeferredChannelMessageWithSource); // deferred before the store was asked
    expect(reply.message!.text.slice(0, browse.length)).toBe(browse);
    expect(storeFailureLines().length).toBe(logged + 1);
    const line = JSON.parse(storeFailureLines().at(-1)!) as { store: { path: string } };
    expect(line.store.path).toBe('/v4/servers');
    expect(h.store.requestsTo('servers').length).toBe(requests + (attempts ?? 1));
    expect(textOf((await member.run('cart')).message!)).toContain('1. 2 × VIP — 30 dni');
  });

  it.each(FAULTS)('$name on paymentUrl: never repeated, a clear answer, the cart kept', async ({ fault, checkout }) => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 2);
    h.store.failNext('paymentUrl', fault);
    const before = h.store.requestsTo('paymentUrl').length;

    const reply = await member.run('checkout', { nick: 'Faulty' });

    expect(reply.message!.text.slice(0, checkout.length)).toBe(checkout);
    expect(reply.message!.text).not.toMatch(/\bpaid\b|DMs/);
    expect(h.store.requestsTo('paymentUrl').length).toBe(before + 1);
    expect(textOf((await member.run('cart')).message!)).toContain('1. 2 × VIP — 30 dni');
    // The bot is still up and serving.
    expect(optionLabels((await new Member(h).run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it('stops calling a failing store for a while, then tries again', async () => {
    const member = new Member(h);
    h.clock.advance(10 * 60_000);
    h.store.failNext('servers', { raw: 'down', status: 503 }, 5);
    const requests = h.store.requestsTo('servers').length;
    expect((await member.run('shop')).message!.text).toBe(FAILED); // three attempts
    const opened = await member.run('shop'); // two more failures open the breaker; the third is not sent
    const pause =
      en.storeErrors.temporarilyUnavailable;
    expect(opened.message!.text).toBe(pause);
    expect((await member.run('shop')).message!.text).toBe(pause);
    expect(h.store.requestsTo('servers').length).toBe(requests + 5);

    h.clock.advance(30_000);
    expect(optionLabels((await member.run('shop')).message!)).toEqual(['Survival', 'SkyBlock']);
  });
});
