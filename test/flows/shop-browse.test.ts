import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProduct, landmarks, singleServerShop } from '../fakes/spaceis/fixtures.js';
import { Member } from '../support/buyer.js';
import { startHarness, type Harness } from '../support/harness.js';
import { buttonLabels, button, option, optionLabels, textOf, theSelect } from '../support/ui.js';

describe('browsing the shop', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('walks server → category → product → variant in ephemeral select menus', async () => {
    const member = new Member(h);
    const start = await member.run('shop');
    expect(start.ephemeral).toBe(true);
    expect(optionLabels(start.message!)).toEqual(['Survival', 'SkyBlock']);

    await member.choose('Survival');
    expect(optionLabels(member.message!)).toEqual(['Rangi', 'Klucze', 'Monety', 'Usługi']);
    expect(textOf(member.message!)).toContain('Shop › Survival');

    await member.choose('Rangi');
    expect(optionLabels(member.message!)).toEqual(['VIP', 'SVIP', 'Ranga Łowca']);

    await member.choose('VIP');
    const variants = theSelect(member.message!).options!;
    expect(variants.map((variant) => [variant.label, variant.description])).toEqual([
      ['7 dni (SMS)', 'Unavailable: no payment method'],
      ['30 dni', 'from PLN 14.99'],
      ['Na zawsze', 'from PLN 49.99'],
    ]);

    await member.choose('30 dni');
    expect(textOf(member.message!)).toContain('VIP — 30 dni');
    expect(buttonLabels(member.message!)).toEqual(['Add to cart', 'Back']);
  });

  it('answers menus from the cache without asking the store again', async () => {
    const first = new Member(h);
    await first.run('shop');
    await first.choose('SkyBlock');
    await first.choose('Przedmioty');
    await first.choose('Zestaw Początkującego');
    const before = h.store.requests.length;

    const second = new Member(h);
    const start = await second.run('shop');
    expect(start.callbackType).toBe(4); // an immediate reply, no defer
    await second.choose('SkyBlock');
    await second.choose('Przedmioty');
    const variants = await second.choose('Zestaw Początkującego');
    expect(variants.callbackType).toBe(7);
    expect(h.store.requests.length).toBe(before);
  });

  it('speaks Polish to a Polish client, with prices written the Polish way', async () => {
    const member = new Member(h, { locale: 'pl' });
    const start = await member.run('shop');
    expect(theSelect(start.message!).placeholder).toBe('Wybierz serwer');
    await member.choose('Survival');
    await member.choose('Klucze');
    await member.choose(landmarks.stringAmounts);
    expect(option(member.message!, '5 kluczy').description).toBe('od 19,99 zł');
    await member.choose('5 kluczy');
    expect(buttonLabels(member.message!)).toEqual(['Dodaj do koszyka', 'Wróć']);
  });

  it('pages a list longer than 25 options with Previous and Next', async () => {
    const member = new Member(h);
    await member.run('shop', { server: 'survival' });
    await member.choose('Monety');
    await member.choose(landmarks.rangeProduct);
    const page1 = member.message!;
    expect(optionLabels(page1)).toHaveLength(25);
    expect(optionLabels(page1)[0]).toBe('10 monet');
    expect(textOf(page1)).toContain('Page 1 of 3');
    expect(button(page1, 'Previous').disabled).toBe(true);

    await member.press('Next');
    expect(optionLabels(member.message!)[0]).toBe('260 monet');
    await member.press('Next');
    const page3 = member.message!;
    expect(optionLabels(page3)).toHaveLength(10);
    expect(optionLabels(page3).at(-1)).toBe('600 monet');
    expect(button(page3, 'Next').disabled).toBe(true);

    // A variant deep in the range is bought like any other, and Back returns to its page.
    await member.press('Previous');
    expect(optionLabels(member.message!)[0]).toBe('260 monet');
    await member.choose('370 monet');
    expect(textOf(member.message!)).toContain('Pakiet monet — 370 monet');
    await member.press('Back');
    expect(textOf(member.message!)).toContain('Page 2 of 3');
  });

  it('shows a variant without a non-SMS price as unavailable and will not sell it', async () => {
    const member = new Member(h);
    await member.run('shop', { server: 'Survival' });
    await member.choose('Rangi');
    await member.choose(landmarks.noPrice.product);
    expect(option(member.message!, landmarks.noPrice.variant).description).toBe('Unavailable: no payment method');
    await member.choose(landmarks.noPrice.variant);
    expect(member.message!.content).toContain("can't be bought right now");
    expect(buttonLabels(member.message!)).not.toContain('Add to cart');
  });

  it('goes straight to a server given as an option, and autocompletes server names', async () => {
    const member = new Member(h);
    const direct = await member.run('shop', { server: 'skyblock' });
    expect(optionLabels(direct.message!)).toEqual(['Rangi', 'Przedmioty']);

    const handle = await h.discord.autocomplete(member.user, 'shop', { name: 'server', value: 'sky' });
    const outcome = await handle.settled();
    expect(outcome.choices).toEqual([{ name: 'SkyBlock', value: findProduct(h.store.shop, 'VIP Wyspy').server.id }]);

    const unknown = await member.run('shop', { server: 'Creative' });
    expect(unknown.message!.content).toContain('There is no server called “Creative”');
    expect(optionLabels(unknown.message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it('Back climbs one level at a time', async () => {
    const member = new Member(h);
    await member.run('shop');
    await member.choose('Survival');
    await member.choose('Rangi');
    await member.choose('VIP');
    await member.press('Back');
    expect(optionLabels(member.message!)).toEqual(['VIP', 'SVIP', 'Ranga Łowca']);
    await member.press('Back');
    expect(optionLabels(member.message!)).toEqual(['Rangi', 'Klucze', 'Monety', 'Usługi']);
    await member.press('Back');
    expect(optionLabels(member.message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it("refuses, ephemerally, a member who presses another member's menu", async () => {
    const owner = new Member(h);
    const stranger = new Member(h);
    await owner.run('shop');
    const refused = await stranger.choose('Survival', owner.message);
    expect(refused.callbackType).toBe(4);
    expect(refused.ephemeral).toBe(true);
    expect(refused.message!.content).toBe('This menu belongs to someone else. Use /shop or /cart to open your own.');
    expect(owner.message!.edits).toBe(0);
  });

  it('tells the member when an item left the shop, and shows the current offer', async () => {
    const member = new Member(h);
    await member.run('shop');
    await member.choose('Survival');
    await member.choose('Usługi');
    const menu = member.message!;
    // The product disappears from the panel; the cache expires.
    const usługi = h.store.shop.servers[0]!.categories.find((category) => category.name === 'Usługi')!;
    const removed = usługi.products.splice(0, 1);
    h.clock.advance(10 * 60_000);
    await member.choose('Unban', menu);
    expect(member.message!.content).toContain('That item is no longer in the shop');
    usługi.products.push(...removed);
  });
});

describe('a shop with a single server', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ shop: singleServerShop() });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('skips the server step and has no Back to a server list', async () => {
    const member = new Member(h);
    const start = await member.run('shop');
    expect(optionLabels(start.message!)).toEqual(['Rangi', 'Klucze', 'Monety', 'Usługi']);
    expect(buttonLabels(start.message!)).toEqual([]);
  });
});

describe('an empty shop', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ shop: { servers: [] } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('says there is nothing on offer yet', async () => {
    const outcome = await new Member(h).run('shop');
    expect(outcome.message!.content).toBe('This shop has no servers on offer yet.');
  });
});
