import { describe, expect, it } from 'vitest';
import { itemRef, readItemRef } from '../../../src/services/offer-search.js';
import { normalize, productPart, search, searchUnreadProducts, variantPart, wordScore, words } from '../../../src/services/search.js';
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
