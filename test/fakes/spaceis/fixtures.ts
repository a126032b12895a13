/**
 * Offer fixtures for FakeSpaceIs: a realistic Polish shop with the awkward cases the bot must
 * handle (variants whose methods and prices differ, an SMS-only variant, a variant with no
 * price, a 60-variant range whose ids are not UUIDs and need URL care, string and number
 * amounts, diacritics). Every call returns a fresh object, so tests may mutate it freely.
 */
import { createHash } from 'node:crypto';
import type {
  FixtureCategory,
  FixturePrice,
  FixtureProduct,
  FixtureServer,
  FixtureVariant,
  ShopFixture,
} from './fake-spaceis.js';

/** Names of the special cases in `defaultShop()`, so tests don't repeat string literals. */
export const landmarks = {
  rangeProduct: 'Pakiet monet',
  /** Variant ids look like `rng-10/coins+x%20?k=10`: opaque, not UUIDs, unsafe in URLs. */
  rangeVariantId: (coins: number): string => `rng-${coins}/coins+x%20?k=${coins}`,
  smsOnly: { product: 'VIP', variant: '7 dni (SMS)' },
  noPrice: { product: 'SVIP', variant: 'Edycja limitowana' },
  /** A product whose amounts arrive as strings ("4.99"). */
  stringAmounts: 'Klucz Epicki',
  promoted: 'Ranga Łowca',
} as const;

/** Deterministic UUID-v4-shaped id derived from a seed, so fixtures are stable across runs. */
export function fixtureUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return [hex.slice(0, 8), hex.slice(8, 12), `4${hex.slice(13, 16)}`, `8${hex.slice(17, 20)}`, hex.slice(20, 32)].join('-');
}

// ---------------------------------------------------------------------------------------------
// Price builders
// ---------------------------------------------------------------------------------------------

const p24 = (amount: number | string): FixturePrice => ({ amount, name: 'Przelewy24', method: 'przelewy24', type: 'transfer' });
const paypal = (amount: number | string): FixturePrice => ({ amount, name: 'PayPal', method: 'paypal', type: 'paypal' });
const blik = (amount: number | string): FixturePrice => ({ amount, name: 'BLIK', method: 'blik', type: 'blik' });
const sms = (amount: number, number: string, content: string): FixturePrice => ({
  amount,
  name: 'SMS (MicroSMS)',
  method: 'microsms',
  type: 'sms',
  sms: { is: 1, number, content },
  providerData: {
    name: 'MicroSMS',
    home: 'https://microsms.example.pl',
    terms: 'https://microsms.example.pl/regulamin',
    complaint: 'https://microsms.example.pl/reklamacje',
    image: 'https://microsms.example.pl/logo.png',
  },
});

// ---------------------------------------------------------------------------------------------
// Structure builders
// ---------------------------------------------------------------------------------------------

function variant(scope: string, name: string, prices: FixturePrice[]): FixtureVariant {
  return { id: fixtureUuid(`variant:${scope}:${name}`), name, prices };
}

function product(
  server: string,
  name: string,
  variants: [string, FixturePrice[]][],
  extra: Partial<Omit<FixtureProduct, 'id' | 'name' | 'variants'>> = {},
): FixtureProduct {
  const scope = `${server}:${name}`;
  return {
    id: fixtureUuid(`product:${scope}`),
    name,
    descriptions: {
      short: `${name} — do kupienia w sklepie serwera.`,
      long: `<p><strong>${name}</strong></p><p>Przedmiot zostanie nadany automatycznie po zaksięgowaniu płatności.</p>`,
    },
    ...extra,
    variants: variants.map(([variantName, prices]) => variant(scope, variantName, prices)),
  };
}

function category(server: string, name: string, products: FixtureProduct[]): FixtureCategory {
  return { id: fixtureUuid(`category:${server}:${name}`), name, products };
}

/** "10 monet" … "600 monet", priced per coin, with ids that are not UUIDs. */
function coinRange(): FixtureProduct {
  const variants: FixtureVariant[] = [];
  for (let coins = 10; coins <= 600; coins += 10) {
    variants.push({
      id: landmarks.rangeVariantId(coins),
      name: `${coins} monet`,
      prices: [p24(round2(coins * 0.099)), blik(round2(coins * 0.099)), paypal(round2(coins * 0.105))],
    });
  }
  return {
    id: fixtureUuid('product:survival:Pakiet monet'),
    name: landmarks.rangeProduct,
    descriptions: { short: 'Wybierz dowolną liczbę monet: od 10 do 600.', long: '<p>Monety do wydania w <em>/sklep</em>.</p>' },
    variants,
  };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

// ---------------------------------------------------------------------------------------------
// Shops
// ---------------------------------------------------------------------------------------------

function survival(): FixtureServer {
  const s = 'survival';
  return {
    id: fixtureUuid('server:survival'),
    name: 'Survival',
    slug: s,
    additional: null,
    categories: [
      category(s, 'Rangi', [
        product(s, 'VIP', [
          ['7 dni (SMS)', [sms(11.07, '79550', 'MSMS.VIP7')]],
          ['30 dni', [p24(14.99), paypal(15.49), blik(14.99)]],
          ['Na zawsze', [p24(49.99), blik(49.99)]],
        ]),
        product(s, 'SVIP', [
          ['30 dni', [p24(24.99), paypal(25.99), blik(24.99)]],
          ['90 dni', [p24(59.99), paypal(62)]],
          ['Edycja limitowana', []],
        ]),
        product(s, 'Ranga Łowca', [['Na zawsze', [p24(79), blik(79), paypal(81.5)]]], {
          promoted: true,
          promotionPercentage: 20,
        }),
      ]),
      category(s, 'Klucze', [
        // Amounts as strings: the API has been seen sending "4.99" as well as 4.99.
        product(s, 'Klucz Epicki', [
          ['1 klucz', [p24('4.99'), paypal('5.49')]],
          ['5 kluczy', [p24('19.99'), paypal('21.00'), blik('19.99')]],
          ['10 kluczy', [p24('34.50'), paypal('36.00')]],
        ]),
        product(s, 'Klucz Świąteczny', [
          ['1 klucz', [p24('6.50'), blik('6.50')]],
          ['3 klucze', [p24('17.00'), blik('16.90')]],
        ]),
      ]),
      category(s, 'Monety', [coinRange()]),
      category(s, 'Usługi', [
        product(s, 'Unban', [['Jednorazowy unban', [p24(29.99), paypal(31.99), blik(29.99)]]]),
      ]),
    ],
  };
}

function skyblock(): FixtureServer {
  const s = 'skyblock';
  return {
    id: fixtureUuid('server:skyblock'),
    name: 'SkyBlock',
    slug: s,
    additional: 'Wyspy 1.21',
    categories: [
      category(s, 'Rangi', [
        product(s, 'VIP Wyspy', [
          ['30 dni', [p24(12.99), blik(12.99)]],
          ['Na zawsze', [p24(39.99), paypal(41.99), blik(39.99)]],
        ]),
      ]),
      category(s, 'Przedmioty', [
        product(s, 'Kilof z Netherytu', [['1 szt.', [p24(9.99), paypal(10.49)]]]),
        product(s, 'Zestaw Początkującego', [
          ['Podstawowy', [p24(7.5), blik(7.5)]],
          ['Rozszerzony', [p24(15), paypal(15.75), blik(15)]],
        ]),
        product(s, 'Miecz Żywiołów', [['1 szt.', [p24(12.34), blik(12.34), paypal(12.99)]]]),
      ]),
    ],
  };
}

/** Two servers (Survival, SkyBlock) with every awkward case; see `landmarks`. */
export function defaultShop(): ShopFixture {
  return { servers: [survival(), skyblock()] };
}

/** Only the Survival server (with every landmark). */
export function singleServerShop(): ShopFixture {
  return { servers: [survival()] };
}

/**
 * `count` plain servers, "Server 1" … "Server <count>" (slugs `server-1` …), each selling one VIP:
 * a license with more servers than one select menu can show (25).
 */
export function manyServersShop(count: number): ShopFixture {
  const servers = Array.from({ length: count }, (_, index): FixtureServer => {
    const s = `server-${index + 1}`;
    return {
      id: fixtureUuid(`server:${s}`),
      name: `Server ${index + 1}`,
      slug: s,
      additional: null,
      categories: [category(s, 'Rangi', [product(s, 'VIP', [['30 dni', [p24(14.99), blik(14.99)]]])])],
    };
  });
  return { servers };
}

/**
 * Another shop altogether, as a second license's key reaches it: the default shop's offer under
 * other servers (other ids, which the store gives each server of each shop, and other names:
 * Creative, Lobby), so a buyer can tell which shop served them.
 */
export function otherShop(): ShopFixture {
  const shop = defaultShop();
  const names = ['Creative', 'Lobby'];
  shop.servers.forEach((server, index) => {
    const name = names[index] ?? `Server ${index + 1}`;
    Object.assign(server, { id: fixtureUuid(`server:other-shop:${name}`), name, slug: name.toLowerCase() });
  });
  return shop;
}

/**
 * The same shop with, on every server, products named like another product's variant: "Rank 04" …
 * "Rank 30" beside VIP's "30 dni". While VIP's variants are unread, "vip 30" hits one product's name
 * with each word ("vip" VIP, "30" Rank 30) and no product with both: the search must still suggest VIP.
 */
export function withNumberedRanks(shop: ShopFixture): ShopFixture {
  for (const server of shop.servers) {
    const ranks = [4, 8, 12, 16, 20, 25, 30].map((level) => product(server.slug, `Rank ${String(level).padStart(2, '0')}`, [['Na zawsze', [p24(level), blik(level)]]]));
    server.categories.push(category(server.slug, 'Rangi numerowane', ranks));
  }
  return shop;
}

/** No servers at all: the API answers `[]`. */
export function emptyShop(): ShopFixture {
  return { servers: [] };
}

// ---------------------------------------------------------------------------------------------
// Lookups (throw when missing or ambiguous, so a typo fails loudly in a test)
// ---------------------------------------------------------------------------------------------

export interface ProductRef {
  server: FixtureServer;
  category: FixtureCategory;
  product: FixtureProduct;
}

export interface VariantRef extends ProductRef {
  variant: FixtureVariant;
}

export interface LookupScope {
  /** Server name, slug or id. */
  server?: string;
  /** Category name. */
  category?: string;
}

export function findServer(shop: ShopFixture, nameSlugOrId: string): FixtureServer {
  return single(
    shop.servers.filter((s) => s.name === nameSlugOrId || s.slug === nameSlugOrId || s.id === nameSlugOrId),
    `server ${nameSlugOrId}`,
  );
}

export function findCategory(shop: ShopFixture, name: string, scope: LookupScope = {}): { server: FixtureServer; category: FixtureCategory } {
  const found = serversIn(shop, scope).flatMap((server) =>
    server.categories.filter((c) => c.name === name).map((category) => ({ server, category })),
  );
  return single(found, `category ${name}`);
}

export function findProduct(shop: ShopFixture, name: string, scope: LookupScope = {}): ProductRef {
  return single(
    allProducts(shop, scope).filter((ref) => ref.product.name === name),
    `product ${name}`,
  );
}

export function findVariant(shop: ShopFixture, productName: string, variantName: string, scope: LookupScope = {}): VariantRef {
  const ref = findProduct(shop, productName, scope);
  const variant = single(
    ref.product.variants.filter((v) => v.name === variantName),
    `variant ${variantName} of ${productName}`,
  );
  return { ...ref, variant };
}

export function allProducts(shop: ShopFixture, scope: LookupScope = {}): ProductRef[] {
  return serversIn(shop, scope).flatMap((server) =>
    server.categories
      .filter((category) => scope.category === undefined || category.name === scope.category)
      .flatMap((category) => category.products.map((product) => ({ server, category, product }))),
  );
}

export function allVariants(shop: ShopFixture, scope: LookupScope = {}): VariantRef[] {
  return allProducts(shop, scope).flatMap((ref) => ref.product.variants.map((variant) => ({ ...ref, variant })));
}

function serversIn(shop: ShopFixture, scope: LookupScope): FixtureServer[] {
  return scope.server === undefined ? shop.servers : [findServer(shop, scope.server)];
}

function single<T>(found: T[], what: string): T {
  if (found.length === 1 && found[0] !== undefined) return found[0];
  throw new Error(found.length === 0 ? `fixture has no ${what}` : `fixture has ${found.length} matches for ${what}; narrow the scope`);
}
