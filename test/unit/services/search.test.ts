import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemRef, readItemRef } from '../../../src/services/offer-search.js';
import { normalize, productPart, search, searchUnreadProducts, suggest, variantPart, wordScore, words } from '../../../src/services/search.js';
import { serverOfferSchema, serverSchema, variantSchema } from '../../../src/spaceis/schemas.js';

const server = serverSchema.parse({ id: 'srv-1', name: 'Survival' });
const offer = serverOfferSchema.parse({
  categories: [
    { id: 'cat-1', name: 'Rangi', products: [{ id: 'p-vip', name: 'VIP' }, { id: 'p-svip', name: 'SVIP' }, { id: 'p-lowca', name: 'Ranga Łowca' }] },
    { id: 'cat-2', name: 'Surowce', products: [{ id: 'p-gold', name: 'Złoto' }, { id: 'p-coins', name: 'Pakiet monet' }] },
  ],
});
const [ranks, goods] = offer.categories;
const vipVariants = ['7 dni', '30 dni', 'Na zawsze'].map((name, index) => variantSchema.parse({ id: `v-vip-${index}`, name, prices: [] }));
const coinVariants = Array.from({ length: 300 }, (_, index) => variantSchema.parse({ id: `v-coin-${index}`, name: `${(index + 1) * 5 === 1000 ? '1 000' : (index + 1) * 5} monet`, prices: [] }));
const parts = () => [
  productPart(server, offer),
  variantPart({ server, category: ranks!, product: ranks!.products[0]! }, vipVariants),
  variantPart({ server, category: goods!, product: goods!.products[1]! }, coinVariants),
];
const label = (hit: ReturnType<typeof search>[number]) => (hit.target.variant ? `${hit.target.product.name} — ${hit.target.variant.name}` : hit.target.product.name);
const find = (query: string, requireAll = true) => search(parts(), query, { limit: 25, requireAll }).map(label);

describe('the search matcher', () => {
  it('normalizes case and Polish diacritics, ł included', () => {
    expect(normalize('ZŁOTO Żółć Łowca ĄĘŚĆŃ')).toBe('zloto zolc lowca aescn');
    expect(words('Klucz  Świąteczny (x3), 1 000 monet, 30d')).toEqual(['klucz', 'swiateczny', 'x', '3', '1000', 'monet', '30', 'd']);
  });

  it('scores equal words over prefixes over typos and abbreviations, and never a number by typo', () => {
    expect(wordScore('vip', 'vip')).toBe(1);
    expect(wordScore('vi', 'vip')).toBeGreaterThan(wordScore('kulcz', 'klucz'));
    expect(wordScore('kulcz', 'klucz')).toBeGreaterThan(0);
    expect(wordScore('vp', 'vip')).toBeGreaterThan(0);
    expect(wordScore('vp', 'svip')).toBe(0);
    expect(wordScore('500', '600')).toBe(0);
    expect(wordScore('50', '500')).toBeGreaterThan(0);
    expect(wordScore('ab', 'abc1')).toBeGreaterThan(0);
  });

  it('finds words in any order, diacritics-insensitive, best first', () => {
    expect(find('zloto')).toEqual(['Złoto']);
    expect(find('lowca')).toEqual(['Ranga Łowca']);
    expect(find('vp 30')[0]).toBe('VIP — 30 dni');
    expect(find('30 vip')[0]).toBe('VIP — 30 dni');
    expect(find('vip').slice(0, 2)).toEqual(['VIP', 'VIP — 7 dni']);
  });

  it('finds range variants by number, thousands separators included', () => {
    expect(find('500')[0]).toBe('Pakiet monet — 500 monet');
    expect(find('1000 monet')[0]).toBe('Pakiet monet — 1 000 monet');
    expect(find('monet 1 000')[0]).toBe('Pakiet monet — 1 000 monet');
  });

  it('keeps at most the limit, and falls back to partial matches only when asked', () => {
    expect(find('monet')).toHaveLength(25);
    expect(find('vip dragon')).toEqual([]);
    expect(find('vip dragon', false)[0]).toBe('VIP');
    expect(find('')).toEqual(['VIP', 'SVIP', 'Ranga Łowca', 'Złoto', 'Pakiet monet']);
  });

  it('suggests a product whose variants are not read yet on the words of its name, leaving the rest to its variants', () => {
    // VIP's variants are not read yet (nobody opened it); the coin pack's are.
    const unread = () => [productPart(server, offer), variantPart({ server, category: goods!, product: goods!.products[1]! }, coinVariants)];
    const findUnread = (query: string, from = unread()) => searchUnreadProducts(from, query, 25).map(label);
    expect(findUnread('vip 30')).toEqual(['VIP', 'SVIP']);
    expect(findUnread('30 vp')).toEqual(['VIP']);
    // A product whose variants are known, and have no such word, is not suggested: that variant is known not to exist.
    expect(findUnread('vip 30', parts())).toEqual(['SVIP']);
    // Every word in product names: search() finds those products; no word in any: nothing to go on.
    expect(findUnread('vip')).toEqual([]);
    expect(findUnread('30')).toEqual([]);
    expect(findUnread('monet 37')).toEqual([]);
  });

  it('indexes each version of the offer once', () => {
    expect(productPart(server, offer)).toBe(productPart(server, offer));
    const renamed = { ...server, name: 'Survival 2' };
    expect(productPart(renamed, offer)).not.toBe(productPart(server, offer));
  });

  it('encodes a choice as a reference of at most 100 characters and reads it back; typed text is not one', () => {
    const variant = itemRef({ server, category: ranks!, product: ranks!.products[0]!, variant: vipVariants[1]! });
    expect(variant.length).toBeLessThanOrEqual(100);
    expect(readItemRef(variant)).toEqual(expect.objectContaining({ variant: expect.any(String) }));
    expect(readItemRef(itemRef({ server, category: ranks!, product: ranks!.products[0]! }))?.variant).toBeUndefined();
    expect(readItemRef('vip 30')).toBeUndefined();
  });
});

describe('suggestions while variants are unread, decided per product', () => {
  /** One server's offer from product names and their variants' names; `read` says whose variants the cache holds. */
  function offerOf(products: readonly { name: string; variants: readonly string[]; read: boolean }[]) {
    const shop = serverSchema.parse({ id: 'srv-p', name: 'Survival' });
    const built = serverOfferSchema.parse({
      categories: [{ id: 'cat-p', name: 'Rangi', products: products.map((product, index) => ({ id: `p-${index}`, name: product.name })) }],
    });
    const category = built.categories[0]!;
    const parts = [productPart(shop, built)];
    products.forEach((product, index) => {
      if (!product.read) return;
      const variants = product.variants.map((name, at) => variantSchema.parse({ id: `v-${index}-${at}`, name, prices: [] }));
      parts.push(variantPart({ server: shop, category, product: category.products[index]! }, variants));
    });
    return { parts, products: category.products };
  }

  it('suggests VIP for "vip 30" though another product is named "Rank 30", until VIP\'s "30 dni" is read', () => {
    const ranks = ['04', '08', '12', '16', '20', '25', '30'].map((level) => ({ name: `Rank ${level}`, variants: ['Na zawsze'], read: false }));
    const cold = offerOf([{ name: 'VIP', variants: ['30 dni', '90 dni'], read: false }, ...ranks]);
    const suggested = suggest(cold.parts, 'vip 30', 25).map(label);
    expect(suggested[0]).toBe('VIP');
    // Rank 30's own variants are unread too: "vip" may be one of them, so it is suggested, after VIP.
    expect(suggested).toEqual(['VIP', 'Rank 30']);
    // Diacritics, prefixes and typos count as the search's own matching does.
    expect(suggest(cold.parts, 'vi 30', 25).map(label)[0]).toBe('VIP');
    expect(suggest(cold.parts, 'vpi 30', 25).map(label)[0]).toBe('VIP');
    // Once the variants are read, the variant itself is found, and Rank 30 (read, no "vip") is not suggested.
    const warm = offerOf([{ name: 'VIP', variants: ['30 dni', '90 dni'], read: true }, ...ranks.map((rank) => ({ ...rank, read: true }))]);
    expect(suggest(warm.parts, 'vip 30', 25).map(label)).toEqual(['VIP — 30 dni']);
  });

  it('for any offer and query, suggests every unread product whose name holds a word of the query, unless 25 better hits fill the list', () => {
    // Product and variant names drawn from one pool, so products are named like other products' variants.
    const pool = ['VIP', 'SVIP', 'Rank', 'Pack', 'Klucz', 'Łowca', 'Złoto', 'dni', '30', '90', '500', '3', '04', 'Na zawsze', 'Epicki'];
    const name = fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(' '));
    const product = fc.record({ name, variants: fc.array(name, { maxLength: 4 }), read: fc.boolean() });
    const queryWord = fc.oneof(fc.constantFrom(...pool), fc.constantFrom('lowca', 'zloto', 'vi', 'kluc', 'smok', '7'));
    fc.assert(
      fc.property(fc.array(product, { minLength: 1, maxLength: 40 }), fc.array(queryWord, { minLength: 1, maxLength: 4 }), (products, query) => {
        const { parts, products: parsed } = offerOf(products);
        const typed = query.join(' ');
        const suggested = suggest(parts, typed, 25);
        const keys = suggested.map((hit) => `${hit.target.product.id}/${hit.target.variant?.id ?? ''}`);
        expect(new Set(keys).size).toBe(keys.length);
        const typedWords = new Set(words(typed));
        products.forEach((candidate, index) => {
          if (candidate.read || !words(candidate.name).some((word) => typedWords.has(word))) return;
          const shown = suggested.some((hit) => hit.target.product.id === parsed[index]!.id && !hit.target.variant);
          if (!shown) expect(suggested).toHaveLength(25);
        });
      }),
      { numRuns: 400 },
    );
  });
});
