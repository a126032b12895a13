/**
 * A shop-sized offer for the benchmark: four servers, 43 products, and a coin pack sold as a range
 * of 300 variants. Built in the style of test/fakes/spaceis/fixtures.ts (deterministic ids, Polish
 * names, several payment methods per variant), so the fake store serves it exactly like the tests' shop.
 */
import type { FixtureCategory, FixturePrice, FixtureProduct, FixtureServer, ShopFixture } from '../test/fakes/spaceis/fake-spaceis.js';
import { fixtureUuid } from '../test/fakes/spaceis/fixtures.js';

const p24 = (amount: number): FixturePrice => ({ amount, name: 'Przelewy24', method: 'przelewy24', type: 'transfer' });
const blik = (amount: number): FixturePrice => ({ amount, name: 'BLIK', method: 'blik', type: 'blik' });
const paypal = (amount: number): FixturePrice => ({ amount, name: 'PayPal', method: 'paypal', type: 'paypal' });

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Three methods, PayPal a little dearer, as shops usually price them. */
function prices(amount: number): FixturePrice[] {
  return [p24(amount), blik(amount), paypal(round2(amount * 1.05))];
}

function product(server: string, name: string, variants: [string, number][]): FixtureProduct {
  const scope = `${server}:${name}`;
  return {
    id: fixtureUuid(`product:${scope}`),
    name,
    descriptions: {
      short: `${name} — nadawane automatycznie po zaksięgowaniu płatności.`,
      long: `<p><strong>${name}</strong></p><p>Przedmiot zostanie nadany automatycznie po zaksięgowaniu płatności.</p>`,
    },
    variants: variants.map(([variantName, amount]) => ({ id: fixtureUuid(`variant:${scope}:${variantName}`), name: variantName, prices: prices(amount) })),
  };
}

function category(server: string, name: string, products: FixtureProduct[]): FixtureCategory {
  return { id: fixtureUuid(`category:${server}:${name}`), name, products };
}

export const RANGE_PRODUCT = 'Pakiet monet';
export const RANGE_VARIANTS = 300;

/** 5 … 1500 coins in steps of 5: 300 variants (12 pages of 25 in the menu), ids that are not UUIDs. */
function coinRange(server: string): FixtureProduct {
  const variants = [];
  for (let index = 1; index <= RANGE_VARIANTS; index++) {
    const coins = index * 5;
    variants.push({ id: `rng-${coins}/coins+x%20?k=${coins}`, name: `${coins} monet`, prices: prices(round2(coins * 0.099)) });
  }
  return {
    id: fixtureUuid(`product:${server}:${RANGE_PRODUCT}`),
    name: RANGE_PRODUCT,
    descriptions: { short: 'Wybierz dowolną liczbę monet: od 5 do 1500.', long: '<p>Monety do wydania w <em>/sklep</em>.</p>' },
    variants,
  };
}

const ranks = (s: string, names: string[], base: number) =>
  names.map((name, index) =>
    product(s, name, [
      ['30 dni', round2(base * (index + 1))],
      ['90 dni', round2(base * (index + 1) * 2.5)],
      ['Na zawsze', round2(base * (index + 1) * 6)],
    ]),
  );
const items = (s: string, names: string[], base: number) =>
  names.map((name, index) =>
    product(s, name, [
      ['1 szt.', round2(base + index)],
      ['5 szt.', round2((base + index) * 4.5)],
      ['10 szt.', round2((base + index) * 8.5)],
    ]),
  );

function server(slug: string, name: string, additional: string | null, categories: FixtureCategory[]): FixtureServer {
  return { id: fixtureUuid(`server:${slug}`), name, slug, additional, categories };
}

export function shopSizedFixture(): ShopFixture {
  const sv = 'survival';
  const sb = 'skyblock';
  const bx = 'boxpvp';
  const cr = 'creative';
  return {
    servers: [
      server(sv, 'Survival', 'Survival 1.21', [
        category(sv, 'Monety', [coinRange(sv)]),
        category(sv, 'Rangi', ranks(sv, ['VIP', 'SVIP', 'MVIP', 'Legenda', 'Ranga Łowca'], 9.99)),
        category(sv, 'Klucze', items(sv, ['Klucz Zwykły', 'Klucz Rzadki', 'Klucz Epicki', 'Klucz Legendarny', 'Klucz Świąteczny', 'Klucz Mityczny'], 2.99)),
        category(sv, 'Przedmioty', items(sv, ['Kilof 6/3/3', 'Miecz 5/2', 'Zbroja 4/3', 'Elytra', 'Totem', 'Beacon'], 4.5)),
        category(sv, 'Usługi', [
          product(sv, 'Unban', [['Jednorazowy unban', 29.99]]),
          product(sv, 'Unmute', [['Jednorazowy unmute', 9.99]]),
          product(sv, 'Zmiana nicku', [['Jednorazowa zmiana', 14.99]]),
        ]),
      ]),
      server(sb, 'SkyBlock', 'Wyspy 1.21', [
        category(sb, 'Rangi', ranks(sb, ['VIP Wyspy', 'SVIP Wyspy', 'Elita Wyspy'], 8.99)),
        category(sb, 'Przedmioty', items(sb, ['Kilof z Netherytu', 'Zestaw Początkującego', 'Miecz Żywiołów', 'Generator Kamienia', 'Spawner'], 5.5)),
        category(sb, 'Wyspy', items(sb, ['Powiększenie wyspy', 'Druga wyspa'], 19.99)),
      ]),
      server(bx, 'BoxPVP', null, [
        category(bx, 'Rangi', ranks(bx, ['Gracz+', 'Wojownik', 'Gladiator'], 7.99)),
        category(bx, 'Zestawy', items(bx, ['Zestaw Startowy', 'Zestaw PvP', 'Zestaw Łucznika', 'Zestaw Tanka'], 3.99)),
      ]),
      server(cr, 'Creative', 'Działki i WorldEdit', [
        category(cr, 'Działki', items(cr, ['Działka 64x64', 'Działka 128x128', 'Działka 256x256'], 9.99)),
        category(cr, 'Rangi', ranks(cr, ['Budowniczy', 'Architekt'], 6.99)),
      ]),
    ],
  };
}

export function countOffer(shop: ShopFixture): { servers: number; categories: number; products: number; variants: number } {
  let categories = 0;
  let products = 0;
  let variants = 0;
  for (const server of shop.servers) {
    categories += server.categories.length;
    for (const cat of server.categories) {
      products += cat.products.length;
      for (const prod of cat.products) variants += prod.variants.length;
    }
  }
  return { servers: shop.servers.length, categories, products, variants };
}
