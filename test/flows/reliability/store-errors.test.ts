import { InteractionResponseType } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { API_MESSAGES } from '../../../src/spaceis/errors.js';
import { addToCart, Member, openVariant, VIP_30 } from '../../support/buyer.js';
import { BOT_TOKEN, LICENSE_KEY, useHarness } from '../../support/harness.js';
import { optionLabels, textOf } from '../../support/ui.js';
import { en } from '../../../src/i18n/en.js';


/** Every message the contract documents, with the hint the buyer gets beside it. */
const DOCUMENTED: [message: string, status: number, hint: string][] = [
  [API_MESSAGES.cartDisabled, 403, "The shop hasn't enabled cart payments."],
  [API_MESSAGES.invalidVariant, 422, 'An item in your cart is no longer on offer.'],
  [API_MESSAGES.oneServerOnly, 422, 'This shop accepts items from one server per order.'],
  [API_MESSAGES.invalidGateway, 422, "A payment method isn't set up in the shop."],
  [API_MESSAGES.smsNotForCarts, 422, 'SMS payments cannot be used for a cart.'],
  [API_MESSAGES.purchaseLimit, 429, 'This nick has reached the daily purchase limit'],
];

describe('when the store says no', () => {
  const h = useHarness({ logLevel: 'trace' });

  async function cartText(member: Member): Promise<string> {
    return textOf((await member.run('cart')).message!);
  }

  it.each(DOCUMENTED)('shows “%s” verbatim with a hint, keeps the cart and issues nothing', async (message, status, hint) => {
    const member = new Member(h);
    await addToCart(member, VIP_30, 2);
    h.store.failNext('paymentUrl', { status, body: { success: false, type: 'error', message } });
    const before = h.store.requestsTo('paymentUrl').length;

    const reply = await member.run('checkout', { nick: 'Refused' });

    expect(reply.message!.text).toContain(`The shop refused this request: “${message}”.`);
    expect(reply.message!.text).toContain(hint);
    expect(reply.message!.text).not.toMatch(/paid|DMs/);
    expect(h.store.requestsTo('paymentUrl').length).toBe(before + 1); // never repeated
    expect(await cartText(member)).toContain('1. 2 × VIP — 30 dni');
    // Its DM channel may be open (the bot opens it ahead of checkout), but nothing was sent there.
    const dmChannel = h.discord.dmChannelOf(member.user.id);
    expect(dmChannel ? h.discord.messagesIn(dmChannel) : []).toEqual([]);
    const { total } = await h.bot.services.storage.paymentLinks.listForMember(h.discord.defaultGuildId, member.user.id, 0, 10);
    expect(total).toBe(0);
  });

  it('quotes the field errors of an `errors` member', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    h.store.failNext('paymentUrl', {
      status: 422,
      body: { message: 'The given data was invalid.', errors: { 'items.0.quantity': ['The quantity may not be greater than 50.'] } },
    });
    const reply = await member.run('checkout', { nick: 'Fields' });
    expect(reply.message!.text).toContain('“The given data was invalid.”');
    expect(reply.message!.text).toContain('items.0.quantity: “The quantity may not be greater than 50.”');
  });

  it.each([
    [401, 'unauthorized'],
    [402, 'license is not active'],
  ])('reports a %i as a shop configuration problem', async (status, message) => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    h.store.failNext('paymentUrl', { status, body: { success: false, type: 'error', message } });
    const reply = await member.run('checkout', { nick: 'Config' });
    expect(reply.message!.text).toBe(
      en.storeErrors.notConfigured,
    );
    expect(await cartText(member)).toContain('1 × VIP — 30 dni');
  });

  it('does not repeat the payment-link request after a 500 or a throttling 429', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    const before = h.store.requestsTo('paymentUrl').length;

    h.store.failNext('paymentUrl', { status: 500, body: { success: false, type: 'error', message: 'Server Error' } });
    const failed = await member.run('checkout', { nick: 'Retry' });
    expect(failed.message!.text).toBe('The shop has a problem right now. Your cart is kept; please try again in a moment.\n(“Server Error”)');

    h.store.failNext('paymentUrl', { status: 429, headers: { 'Retry-At': '30' }, body: { success: false, type: 'error', message: 'Too Many Attempts.' } });
    const throttled = await member.run('checkout', { nick: 'Retry' });
    expect(throttled.message!.text).toBe('The shop is busy right now. Please try again in 30 s; your cart is kept.');

    expect(h.store.requestsTo('paymentUrl').length).toBe(before + 2);
    expect(await cartText(member)).toContain('1 × VIP — 30 dni');

    // Retry-At pauses the whole license (its rate limit is shared): even the offer waits it out.
    h.clock.advance(10_000);
    const paused = await member.run('checkout', { nick: 'Retry' });
    expect(paused.message!.text).toBe('The shop is busy right now. Please try again in 20 s; your cart is kept.');
    expect(h.store.requestsTo('paymentUrl').length).toBe(before + 2);
    h.clock.advance(20_000);
  });

  it('tells the member a short wait after a 429 whose Retry-At is an epoch timestamp, and pauses the license that long', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    const before = h.store.requestsTo('paymentUrl').length;
    // 1 800 000 000 "seconds" is a timestamp where seconds belong: a broken header, not a 57-year wait.
    h.store.failNext('paymentUrl', { status: 429, headers: { 'Retry-At': '1800000000' }, body: { success: false, type: 'error', message: 'Too Many Attempts.' } });
    const throttled = await member.run('checkout', { nick: 'Absurd' });
    expect(throttled.message!.text).toBe(en.storeErrors.throttled(30));

    h.clock.advance(10_000);
    const paused = await member.run('checkout', { nick: 'Absurd' });
    expect(paused.message!.text).toBe(en.storeErrors.throttled(20));
    expect(h.store.requestsTo('paymentUrl').length).toBe(before + 1);

    // Thirty seconds on, the license takes requests again: not five minutes later.
    h.clock.advance(20_000);
    await member.run('checkout', { nick: 'Absurd' });
    expect(h.store.requestsTo('paymentUrl').length).toBe(before + 2);
    expect(await cartText(member)).not.toContain('30 dni — VIP');
  });

  it('retries the offer after a 5xx and serves the menu', async () => {
    (await h.bot.services.stores.forGuild(h.discord.defaultGuildId))!.offers.dropAll();
    h.store.failNext('servers', { raw: '<html>Bad Gateway</html>', status: 502 });
    const sleepsBefore = h.sleeps.length;
    const start = await new Member(h).run('shop');
    expect(optionLabels(start.message!)).toEqual(['Survival', 'SkyBlock']);
    expect(h.sleeps.length).toBe(sleepsBefore + 1);
  });

  it('says the shop is not answering when the offer cannot be read', async () => {
    (await h.bot.services.stores.forGuild(h.discord.defaultGuildId))!.offers.dropAll();
    h.store.failNext('servers', { kind: 'destroy' }, 3);
    const start = await new Member(h).run('shop');
    expect(start.callbackType).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    expect(start.message!.text).toBe(en.storeErrors.unavailable);
  });

  it('drops the cached variants on `invalid variant`, so the next view is fresh', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    // The variant was renamed in the panel while the old one is still cached.
    const vip = h.store.shop.servers[0]!.categories[0]!.products[0]!;
    const variant = vip.variants.find((candidate) => candidate.name === '30 dni')!;
    variant.name = '30 dni (nowość)';
    h.store.failNext('paymentUrl', { status: 422, body: { success: false, type: 'error', message: 'invalid variant' } });
    await member.run('checkout', { nick: 'Stale' });

    await openVariant(member, { ...VIP_30, variant: '30 dni (nowość)' });
    expect(textOf(member.message!)).toContain('VIP — 30 dni (nowość)');
    variant.name = '30 dni';
    (await h.bot.services.stores.forGuild(h.discord.defaultGuildId))!.offers.dropAll();
  });

  it('never writes the bot token or the license key to a log line or a Discord message', async () => {
    const member = new Member(h);
    await addToCart(member, VIP_30);
    await member.run('checkout', { nick: 'NoSecrets' });
    h.store.failNext('paymentUrl', { status: 401, body: { success: false, type: 'error', message: `bad key ${LICENSE_KEY}` } });
    await addToCart(member, VIP_30);
    await member.run('checkout', { nick: 'NoSecrets' });

    expect(h.logs.length).toBeGreaterThan(20);
    for (const line of h.logs) {
      expect(line).not.toContain(BOT_TOKEN);
      expect(line).not.toContain(LICENSE_KEY);
    }
    for (const request of h.discord.requests) {
      const body = JSON.stringify(request.body ?? '');
      expect(body).not.toContain(LICENSE_KEY);
      expect(body).not.toContain(BOT_TOKEN);
    }
  });
});
