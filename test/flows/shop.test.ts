import { InteractionResponseType } from 'discord-api-types/v10';
import { ComponentType, PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { DEFAULT_MEMBER_PERMISSIONS } from '../fakes/discord/fake-discord.js';
import type { FakeMessage } from '../fakes/discord/fake-discord.js';
import { defaultShop, findProduct, landmarks, manyServersShop, singleServerShop } from '../fakes/spaceis/fixtures.js';
import { Member } from '../support/buyer.js';
import { LICENSE_KEY, startHarness, useHarness, type Harness } from '../support/harness.js';
import { button, buttonLabels, isDisplay, option, optionLabels, picturesOf, textOf, theSelect } from '../support/ui.js';

describe('browsing the shop', () => {
  const h = useHarness();

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
      ['7 dni (SMS)', en.shop.unavailable],
      ['30 dni', 'from PLN 14.99'],
      ['Na zawsze', 'from PLN 49.99'],
    ]);

    await member.choose('30 dni');
    expect(textOf(member.message!)).toContain('VIP — 30 dni');
    expect(buttonLabels(member.message!)).toEqual([en.quantity.addToCart, en.common.back]);
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
    expect(start.callbackType).toBe(InteractionResponseType.ChannelMessageWithSource); // an immediate reply, no defer
    await second.choose('SkyBlock');
    await second.choose('Przedmioty');
    const variants = await second.choose('Zestaw Początkującego');
    expect(variants.callbackType).toBe(InteractionResponseType.UpdateMessage);
    expect(h.store.requests.length).toBe(before);
  });

  it('speaks Polish to a Polish client, with prices written the Polish way', async () => {
    const member = new Member(h, { locale: 'pl' });
    const start = await member.run('shop');
    expect(theSelect(start.message!).placeholder).toBe(pl.shop.chooseServerPlaceholder);
    await member.choose('Survival');
    await member.choose('Klucze');
    await member.choose(landmarks.stringAmounts);
    expect(option(member.message!, '5 kluczy').description).toBe('od 19,99\u00a0zł');
    await member.choose('5 kluczy');
    expect(buttonLabels(member.message!)).toEqual([pl.quantity.addToCart, pl.common.back]);
  });

  it('pages a list longer than 25 options with Previous and Next', async () => {
    const member = new Member(h);
    await member.run('shop', { server: 'survival' });
    await member.choose('Monety');
    await member.choose(landmarks.rangeProduct);
    const page1 = member.message!;
    expect(optionLabels(page1)).toHaveLength(25);
    expect(optionLabels(page1)[0]).toBe('10 monet');
    expect(textOf(page1)).toContain(en.common.page(1, 3));
    expect(button(page1, en.common.previous).disabled).toBe(true);

    await member.press(en.common.next);
    expect(optionLabels(member.message!)[0]).toBe('260 monet');
    await member.press(en.common.next);
    const page3 = member.message!;
    expect(optionLabels(page3)).toHaveLength(10);
    expect(optionLabels(page3).at(-1)).toBe('600 monet');
    expect(button(page3, en.common.next).disabled).toBe(true);

    // A variant deep in the range is bought like any other, and Back returns to its page.
    await member.press(en.common.previous);
    expect(optionLabels(member.message!)[0]).toBe('260 monet');
    await member.choose('370 monet');
    expect(textOf(member.message!)).toContain('Pakiet monet — 370 monet');
    await member.press(en.common.back);
    expect(textOf(member.message!)).toContain(en.common.page(2, 3));
  });

  it('shows a variant without a non-SMS price as unavailable and will not sell it', async () => {
    const member = new Member(h);
    await member.run('shop', { server: 'Survival' });
    await member.choose('Rangi');
    await member.choose(landmarks.noPrice.product);
    expect(option(member.message!, landmarks.noPrice.variant).description).toBe(en.shop.unavailable);
    await member.choose(landmarks.noPrice.variant);
    expect(member.message!.text).toContain("can't be bought right now");
    expect(buttonLabels(member.message!)).not.toContain(en.quantity.addToCart);
  });

  it('goes straight to a server given as an option, and autocompletes server names', async () => {
    const member = new Member(h);
    const direct = await member.run('shop', { server: 'skyblock' });
    expect(optionLabels(direct.message!)).toEqual(['Rangi', 'Przedmioty']);

    const handle = await h.discord.autocomplete(member.user, 'shop', { name: 'server', value: 'sky' });
    const outcome = await handle.settled();
    expect(outcome.choices).toEqual([{ name: 'SkyBlock', value: findProduct(h.store.shop, 'VIP Wyspy').server.id }]);

    const unknown = await member.run('shop', { server: 'Creative' });
    expect(unknown.message!.text).toContain('There is no server called “Creative”');
    expect(optionLabels(unknown.message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it('Back climbs one level at a time', async () => {
    const member = new Member(h);
    await member.run('shop');
    await member.choose('Survival');
    await member.choose('Rangi');
    await member.choose('VIP');
    await member.press(en.common.back);
    expect(optionLabels(member.message!)).toEqual(['VIP', 'SVIP', 'Ranga Łowca']);
    await member.press(en.common.back);
    expect(optionLabels(member.message!)).toEqual(['Rangi', 'Klucze', 'Monety', 'Usługi']);
    await member.press(en.common.back);
    expect(optionLabels(member.message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it("refuses, ephemerally, a member who presses another member's menu", async () => {
    const owner = new Member(h);
    const stranger = new Member(h);
    await owner.run('shop');
    const refused = await stranger.choose('Survival', owner.message);
    expect(refused.callbackType).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(refused.ephemeral).toBe(true);
    expect(refused.message!.text).toBe(en.common.notYourMenu);
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
    expect(member.message!.text).toContain(en.shop.itemGone);
    usługi.products.push(...removed);
  });
});

/** The pictures shown large (a media gallery), as opposed to thumbnails beside text. */
function galleryPictures(message: FakeMessage): string[] {
  const found: string[] = [];
  const visit = (components: unknown[]): void => {
    for (const raw of components) {
      const component = raw as { type?: number; items?: { media: { url: string } }[]; components?: unknown[] };
      if (component.type === ComponentType.MediaGallery) found.push(...(component.items ?? []).map((item) => item.media.url));
      if (Array.isArray(component.components)) visit(component.components);
    }
  };
  visit(message.components);
  return found;
}

const VIP_PICTURE = 'https://cdn.example/products/vip.png';
const KEYS_PICTURE = 'https://cdn.example/categories/klucze.png';
const LONG_TAIL = 'THE-END-OF-A-VERY-LONG-DESCRIPTION';
const HOSTILE = '## Free [kup](https://evil.example/x) <@&999> @everyone';

/** The default shop with pictures good and bad, a very long description and a name full of markup. */
function picturesShop() {
  const shop = defaultShop();
  const survival = shop.servers[0]!;
  const [ranks, keys] = survival.categories;
  const [vip, svip, hunter] = ranks!.products;
  vip!.imageUrl = VIP_PICTURE;
  svip!.imageUrl = 'http://cdn.example/products/svip.png';
  hunter!.imageUrl = 'not a picture';
  keys!.imageUrl = KEYS_PICTURE;
  keys!.products[0]!.descriptions = { short: `${'Klucz otwiera skrzynię z nagrodami. '.repeat(40)}${LONG_TAIL}` };
  keys!.products[1]!.name = HOSTILE;
  return shop;
}

describe('the shop as display components, with pictures', () => {
  const h = useHarness({ shop: picturesShop() });

  it("lists products with the store's https picture beside them, and without one any other", async () => {
    const member = new Member(h);
    await member.run('shop', { server: 'survival' });
    await member.choose('Rangi');
    const list = member.message!;
    expect(isDisplay(list)).toBe(true);
    // Every product is listed by name; only VIP's picture (https) is shown, never SVIP's (http) or a malformed one.
    for (const name of ['VIP', 'SVIP', 'Ranga Łowca']) expect(textOf(list)).toContain(`### ${name}`);
    expect(picturesOf(list)).toEqual([VIP_PICTURE]);
    expect(textOf(list)).toContain('VIP — do kupienia w sklepie serwera.');
    expect(optionLabels(list)).toEqual(['VIP', 'SVIP', 'Ranga Łowca']);
  });

  it("shows a category's picture when the store sends one", async () => {
    const member = new Member(h);
    await member.run('shop', { server: 'survival' });
    expect(picturesOf(member.message!)).toEqual([KEYS_PICTURE]);
  });

  it('shows a product price "from" once its variants are known, without asking the store for the list', async () => {
    const member = new Member(h);
    await member.run('shop', { server: 'survival' });
    await member.choose('Rangi');
    await member.choose('VIP');
    await member.press(en.common.back);
    const text = textOf(member.message!);
    expect(text).toContain(en.shop.priceFrom('PLN 14.99'));
    // SVIP's variants were never read: no price guessed for it.
    expect(text.match(/from PLN/g)).toHaveLength(1);
  });

  it("shows the product's picture large on its variant screen, and none when it has none Discord can show", async () => {
    const member = new Member(h);
    await member.run('shop', { server: 'survival' });
    await member.choose('Rangi');
    await member.choose('VIP');
    expect(galleryPictures(member.message!)).toEqual([VIP_PICTURE]);
    expect(textOf(member.message!)).toContain('VIP — do kupienia w sklepie serwera.');
    await member.choose('30 dni');
    // The quantity screen: the picture beside the prices per payment method.
    expect(picturesOf(member.message!)).toEqual([VIP_PICTURE]);
    expect(textOf(member.message!)).toContain('Przelewy24: PLN 14.99');
    expect(textOf(member.message!)).toContain('PayPal: PLN 15.49');

    await member.press(en.common.back);
    await member.press(en.common.back);
    await member.choose('SVIP');
    expect(picturesOf(member.message!)).toEqual([]);
    expect(textOf(member.message!)).toContain('SVIP');
  });

  it('shortens a very long description, in the list and on the variant screen', async () => {
    const member = new Member(h);
    await member.run('shop', { server: 'survival' });
    const list = await member.choose('Klucze');
    expect(list.message).toBeDefined();
    expect(textOf(member.message!)).toContain('Klucz otwiera skrzynię z nagrodami.');
    expect(textOf(member.message!)).not.toContain(LONG_TAIL);
    const variants = await member.choose(landmarks.stringAmounts);
    expect(variants.message).toBeDefined();
    expect(textOf(member.message!)).toContain('Klucz otwiera skrzynię z nagrodami.');
    expect(textOf(member.message!)).not.toContain(LONG_TAIL);
  });

  it('shows a name full of markup as text: never a heading, a link or a mention', async () => {
    const member = new Member(h);
    await member.run('shop', { server: 'survival' });
    await member.choose('Klucze');
    const text = textOf(member.message!);
    expect(text).toContain('Free');
    expect(text).not.toMatch(/^#+ *Free/m);
    expect(text).not.toMatch(/(?<!\\)\[kup(?<!\\)\]\(/);
    expect(text).not.toMatch(/https?:\/\/evil/);
    expect(text).not.toMatch(/(?<!\\)<@&999>/);
    expect(text).not.toMatch(/(?<!\\)@everyone/);
  });
});

describe('a shop with more servers than one page shows', () => {
  const h = useHarness({ shop: manyServersShop(30) });

  it('lists 8 servers a page, each with its picture, and pages with Previous and Next', async () => {
    const member = new Member(h);
    const first = (await member.run('shop')).message!;
    expect(optionLabels(first)).toEqual(Array.from({ length: 8 }, (_, index) => `Server ${index + 1}`));
    expect(picturesOf(first)).toHaveLength(8);
    expect(textOf(first)).toContain(en.common.page(1, 4));
    expect(button(first, en.common.previous).disabled).toBe(true);
    await member.press(en.common.next);
    expect(textOf(member.message!)).toContain(en.common.page(2, 4));
    expect(textOf(member.message!)).toContain('### Server 9');
    expect(optionLabels(member.message!)[0]).toBe('Server 9');
    await member.press(en.common.next);
    await member.press(en.common.next);
    expect(optionLabels(member.message!)).toEqual(['Server 25', 'Server 26', 'Server 27', 'Server 28', 'Server 29', 'Server 30']);
    expect(button(member.message!, en.common.next).disabled).toBe(true);
    await member.choose('Server 27');
    expect(optionLabels(member.message!)).toEqual(['Rangi']);
  });
});

describe('a shop with a single server', () => {
  const h = useHarness({ shop: singleServerShop() });

  it('skips the server step and has no Back to a server list', async () => {
    const member = new Member(h);
    const start = await member.run('shop');
    expect(optionLabels(start.message!)).toEqual(['Rangi', 'Klucze', 'Monety', 'Usługi']);
    expect(buttonLabels(start.message!)).toEqual([]);
  });
});

describe('an empty shop', () => {
  const h = useHarness({ shop: { servers: [] } });

  it('says there is nothing on offer yet', async () => {
    const outcome = await new Member(h).run('shop');
    expect(outcome.message!.text).toBe(en.shop.noServers);
  });
});

type Choice = { name: string; value: string | number };

describe('/shop item: finding anything by typing', () => {
  let h: Harness | undefined;
  // A fresh bot (and a cold offer cache) for each test: what is cached decides what autocomplete can offer.
  beforeEach(async () => {
    await h?.close();
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });
  const harness = (): Harness => h!;

  async function suggest(member: Member, typed: string, options: Record<string, string> = {}): Promise<Choice[]> {
    const { username: _username, ...dispatch } = member.options;
    const handle = await harness().discord.autocomplete(member.user, 'shop', { name: 'item', value: typed }, { ...dispatch, options });
    return (await handle.settled()).choices ?? [];
  }
  const names = (choices: Choice[]) => choices.map((choice) => choice.name);
  const valueOf = (choices: Choice[], name: string) => String(choices.find((choice) => choice.name === name)!.value);
  /** Resolves once the license's background read of every product's variants (started by a search) is over. */
  const warmedUp = async () => (await harness().bot.services.stores.forGuild(harness().discord.defaultGuildId))!.warmUp.settled();
  const variantPaths = () => harness().store.requestsTo('variants').map((request) => request.path);

  it('suggests products from a cold cache with the servers and their offers only, never a request per keystroke', async () => {
    const member = new Member(harness());
    const store = harness().store;
    // The first search starts the background read of the variants: its first request is held here.
    const slow = store.hold('variants');
    const first = await suggest(member, 'k');
    expect(names(first)).toContain('Klucz Epicki · Survival');
    await slow.reached;
    expect(store.requestsTo('servers')).toHaveLength(1);
    expect(store.requestsTo('server')).toHaveLength(2);
    expect(store.requestsTo('variants')).toHaveLength(1);

    const before = store.requests.length;
    for (const typed of ['kl', 'klu', 'kluc', 'klucz']) await suggest(member, typed);
    expect(names(await suggest(member, 'klucz'))).toEqual(['Klucz Epicki · Survival', 'Klucz Świąteczny · Survival']);
    expect(store.requests.length).toBe(before);

    // Once the background read is over, keystrokes still cost nothing.
    slow.release();
    await warmedUp();
    const warm = store.requests.length;
    for (const typed of ['kl', 'klu', 'kluc', 'klucz']) await suggest(member, typed);
    expect(store.requests.length).toBe(warm);
  });

  it('on a fresh bot suggests the product for "vip 30" at once, and its variant once the background read is done', async () => {
    const store = harness().store;
    // The store is slow for the background read's first request (VIP's variants): held until released.
    const slow = store.hold('variants');
    const member = new Member(harness());
    expect(names(await suggest(member, 'vip 30'))[0]).toBe('VIP · Survival');
    await slow.reached;
    // One request at a time: the read waits for the held one, so nothing else has been asked yet.
    expect(variantPaths()).toHaveLength(1);

    // A member browsing meanwhile is not queued behind it: their own product opens at once.
    const browser = new Member(harness());
    await browser.run('shop', { server: 'survival' });
    await browser.choose('Klucze');
    await browser.choose('Klucz Epicki');
    expect(optionLabels(browser.message!)).toEqual(['1 klucz', '5 kluczy', '10 kluczy']);
    expect(variantPaths()).toHaveLength(2);

    slow.release();
    await warmedUp();
    expect(names(await suggest(member, 'vip 30'))[0]).toBe(`VIP — 30 dni · Survival · ${en.shop.priceFrom('PLN 14.99')}`);
    // Every product's variants were asked for once (Klucz Epicki's by the browser, so not again).
    const products = store.shop.servers.flatMap((server) => server.categories.flatMap((category) => category.products));
    expect(variantPaths()).toHaveLength(products.length);
    expect(new Set(variantPaths()).size).toBe(products.length);

    // Once per offer lifetime: more searches, typed or submitted, read nothing again.
    await suggest(member, 'klucz');
    await member.run('shop', { item: 'miecz' });
    await warmedUp();
    expect(variantPaths()).toHaveLength(products.length);
  });

  it('ignores case and Polish diacritics (ł included) and tolerates a typo', async () => {
    // Products only, as on a fresh bot: the background read of the variants is held at its first request.
    harness().store.hold('variants');
    const member = new Member(harness());
    expect(names(await suggest(member, 'KLUCZ swiateczny'))[0]).toBe('Klucz Świąteczny · Survival');
    expect(names(await suggest(member, 'lowca'))).toEqual(['Ranga Łowca · Survival']);
    expect(names(await suggest(member, 'zywiolow'))).toEqual(['Miecz Żywiołów · SkyBlock']);
    expect(names(await suggest(member, 'kilfo netherytu'))).toEqual(['Kilof z Netherytu · SkyBlock']);
  });

  it('finds variants the cache holds, words in any order, labelled with server and lowest price', async () => {
    const member = new Member(harness());
    await member.run('shop', { server: 'survival' });
    await member.choose('Rangi');
    await member.choose('VIP'); // the VIP variants are now cached

    const found = await suggest(member, 'vp 30');
    expect(found[0]!.name).toBe(`VIP — 30 dni · Survival · ${en.shop.priceFrom('PLN 14.99')}`);
    expect(names(await suggest(member, '30 vip'))[0]).toBe(found[0]!.name);
    // A product shows the lowest price of its variants once they are known.
    expect(names(await suggest(member, 'vip'))[0]).toBe(`VIP · Survival · ${en.shop.priceFrom('PLN 14.99')}`);
    expect(found.every((choice) => String(choice.value).length <= 100 && choice.name.length <= 100)).toBe(true);
  });

  it('opens a chosen variant at its quantity screen, and Back leads to its product', async () => {
    const member = new Member(harness());
    await member.run('shop', { server: 'survival' });
    await member.choose('Klucze');
    await member.choose(landmarks.stringAmounts);
    const value = valueOf(await suggest(member, 'epicki 5'), `Klucz Epicki — 5 kluczy · Survival · ${en.shop.priceFrom('PLN 19.99')}`);

    const opened = await member.run('shop', { item: value });
    expect(textOf(opened.message!)).toContain(en.quantity.title('Klucz Epicki', '5 kluczy'));
    expect(buttonLabels(opened.message!)).toEqual([en.quantity.addToCart, en.common.back]);
    await member.press(en.quantity.addToCart);
    expect(textOf(member.message!)).toContain(en.added.line(1, '5 kluczy', 'Klucz Epicki'));

    const again = await member.run('shop', { item: value });
    await member.press(en.common.back, again.message);
    expect(optionLabels(member.message!)).toEqual(['1 klucz', '5 kluczy', '10 kluczy']);
  });

  it('opens a chosen product at its variant menu', async () => {
    const member = new Member(harness());
    const value = valueOf(await suggest(member, 'zestaw'), 'Zestaw Początkującego · SkyBlock');
    const opened = await member.run('shop', { item: value });
    expect(optionLabels(opened.message!)).toEqual(['Podstawowy', 'Rozszerzony']);
    expect(textOf(opened.message!)).toContain('Shop › SkyBlock › Przedmioty › Zestaw Początkującego');
  });

  it('searches a range by number: typed without a suggestion, then suggested once its variants are known', async () => {
    const member = new Member(harness());
    const typed = await member.run('shop', { item: '500' });
    expect(textOf(typed.message!)).toContain(en.search.results('500'));
    expect(optionLabels(typed.message!)[0]).toBe(`${landmarks.rangeProduct} — 500 monet`);
    await member.choose(`${landmarks.rangeProduct} — 500 monet`);
    expect(textOf(member.message!)).toContain(en.quantity.title(landmarks.rangeProduct, '500 monet'));

    // The 60 coin variants were read once, and are now suggested by number without another request.
    const variantReads = harness().store.requestsTo('variants').length;
    expect(names(await suggest(member, '500'))[0]).toBe(`${landmarks.rangeProduct} — 500 monet · Survival · ${en.shop.priceFrom('PLN 49.50')}`);
    expect(names(await suggest(member, 'monet 37'))[0]).toBe(`${landmarks.rangeProduct} — 370 monet · Survival · ${en.shop.priceFrom('PLN 36.63')}`);
    expect(harness().store.requestsTo('variants')).toHaveLength(variantReads);
  });

  it('answers a typed query with the best matches, or nothing found with a way to browse', async () => {
    const member = new Member(harness());
    const closest = await member.run('shop', { item: 'svip dragon' });
    expect(textOf(closest.message!)).toContain(en.search.closest('svip dragon'));
    expect(optionLabels(closest.message!)[0]).toBe('SVIP');

    const nothing = await member.run('shop', { item: 'xyzzy' });
    expect(nothing.message!.text).toContain(en.search.nothing('xyzzy'));
    await member.press(en.search.browse, nothing.message);
    expect(optionLabels(member.message!)).toEqual(['Survival', 'SkyBlock']);
  });

  it('narrows to the server given with the item', async () => {
    const member = new Member(harness());
    expect(names(await suggest(member, 'vip', { server: 'skyblock' }))).toEqual(['VIP Wyspy · SkyBlock']);
    const typed = await member.run('shop', { item: 'vip', server: 'skyblock' });
    expect(theSelect(typed.message!).options!.every((choice) => choice.label.startsWith('VIP Wyspy'))).toBe(true);
  });

  it('never suggests a server the admins hid', async () => {
    const admin = new Member(harness(), { permissions: DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild });
    await admin.sub('shop-admin', 'servers');
    await admin.choose('Survival');
    const member = new Member(harness());
    expect(names(await suggest(member, 'vip'))).toEqual(['VIP · Survival', 'SVIP · Survival']);
    const typed = await member.run('shop', { item: 'wyspy' });
    expect(typed.message!.text).toContain(en.search.nothing('wyspy'));
  });

  it('speaks Polish', async () => {
    const member = new Member(harness(), { locale: 'pl' });
    await member.run('shop', { server: 'survival' });
    await member.choose('Rangi');
    await member.choose('VIP');
    expect(names(await suggest(member, 'vip 30'))[0]).toBe(`VIP — 30 dni · Survival · ${pl.shop.priceFrom('14,99\u00a0zł')}`);
    const nothing = await member.run('shop', { item: 'xyzzy' });
    expect(nothing.message!.text).toContain(pl.search.nothing('xyzzy'));
    expect(buttonLabels(nothing.message!)).toEqual([pl.search.browse]);
    type Registered = { name: string; options?: { name: string; name_localizations?: unknown }[] };
    const shop = (harness().discord.registeredCommands() as Registered[]).find((command) => command.name === 'shop')!;
    const option = shop.options!.find((candidate) => candidate.name === 'item')!;
    expect(option.name_localizations).toEqual({ pl: 'produkt' });
  });
});

describe('/shop item: on a license set a moment ago', () => {
  const h = useHarness({ noDefaultLicense: true });

  it('suggests the product at the very first request: saving the license read its offer', async () => {
    const admin = new Member(h, { permissions: DEFAULT_MEMBER_PERMISSIONS | PermissionFlagsBits.ManageGuild, username: 'owner' });
    await admin.sub('shop-admin', 'license set');
    expect((await admin.submit({ key: LICENSE_KEY })).message!.text).toContain('its offer has 2 servers');
    // A store slower than autocomplete's budget from here on: the first answer must come from what is cached.
    const holds = [h.store.hold('servers'), h.store.hold('server'), h.store.hold('variants')];
    const member = new Member(h);
    const { username: _username, ...dispatch } = member.options;
    const handle = await h.discord.autocomplete(member.user, 'shop', { name: 'item', value: 'vip 30' }, dispatch);
    const choices = (await handle.settled()).choices ?? [];
    for (const hold of holds) hold.release();
    expect(choices.map((choice) => choice.name)[0]).toBe('VIP · Survival');
    await (await h.bot.services.stores.forGuild(h.discord.defaultGuildId))!.warmUp.settled();
  });
});
