import { ComponentType, MessageFlags } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { feedPostView } from '../../commands/shop/feed-views.js';
import { nothingFoundView, searchResultsView } from '../../commands/shop/search-views.js';
import { addedView, quantityView } from '../../commands/shop/buy-views.js';
import { categoryListView, productListView, serverListView, SHOP_PAGE_SIZE, variantListView } from '../../commands/shop/views.js';
import type { View } from '../../src/discord/respond.js';
import { LIMITS } from '../../src/discord/text.js';
import { demoMarked } from '../../src/discord/views/demo-mark.js';
import { countComponents, textDisplays } from '../../src/discord/views/display.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import type { Messages } from '../../src/i18n/index.js';
import { pricedVariant, type VariantChoice } from '../../src/services/catalog.js';
import { FEED_LINES_PER_POST, type FeedPurchase } from '../../src/services/purchase-feed.js';
import { categorySchema, productSchema, serverSchema, variantSchema, type Category, type Product, type Server } from '../../src/spaceis/schemas.js';

/**
 * The shop's screens at their fullest: a whole page of items, each with a picture, names of 100
 * characters, descriptions of 1000, a warning, and the DEMO line on top. Discord refuses a message
 * past 40 components or 4000 characters of text, so each must stay within both.
 */

const OWNER = '100000000000000001';
const NAME = (index: number) => `${index} ${'Ż'.repeat(100)}`.slice(0, 100);
const LONG = `${'Opis przedmiotu ze sklepu, bardzo długi. '.repeat(30)}`.slice(0, 1000);
const PICTURE = (index: number) => `https://cdn.example/items/${index}.png`;
const WARNING = 'x'.repeat(1000);

const server = (index: number): Server => serverSchema.parse({ id: `s${index}`, name: NAME(index), imageUrl: PICTURE(index), additional: LONG });
const product = (index: number): Product => productSchema.parse({ id: `p${index}`, name: NAME(index), imageUrl: PICTURE(index), descriptions: { short: LONG } });
const category = (index: number, products = 20): Category =>
  categorySchema.parse({ id: `c${index}`, name: NAME(index), imageUrl: PICTURE(index), products: Array.from({ length: products }, (_, at) => ({ id: `p${at}`, name: NAME(at), imageUrl: PICTURE(at), descriptions: { short: LONG } })) });
const METHODS = Array.from({ length: 12 }, (_, index) => ({ amount: 10 + index, name: NAME(index), method: `m${index}` }));
const variant = (index: number): VariantChoice => {
  const parsed = variantSchema.parse({ id: `v${index}`, name: NAME(index), prices: METHODS });
  return { variant: parsed, priced: pricedVariant(parsed) };
};

function worstCases(t: Messages): [string, View][] {
  const locale = t === pl ? 'pl' : 'en';
  const servers = Array.from({ length: 30 }, (_, index) => server(index));
  const categories = Array.from({ length: 30 }, (_, index) => category(index));
  const variants = Array.from({ length: 60 }, (_, index) => variant(index));
  const path = { server: servers[0]!, category: categories[0]!, product: product(0) };
  const purchase = (index: number): FeedPurchase => ({
    transactionId: `T-${index}`,
    productName: NAME(index),
    variantName: NAME(index + 1),
    nick: 'Steve_123456789012345',
    madeAt: 1_700_000_000_000,
    item: { server: 's', category: 'c', product: `p${index}`, variant: `v${index}` },
    imageUrl: PICTURE(index),
  });
  const hits = Array.from({ length: 25 }, (_, index) => ({ hit: { target: { ...path, product: product(index) }, score: 1 }, lowest: 1999 }));
  return [
    ['servers', serverListView(t, OWNER, servers, 1, WARNING)],
    ['categories', categoryListView(t, OWNER, servers[0]!, categories, 1, { canGoBack: true, notice: WARNING })],
    ['products', productListView(t, locale, OWNER, servers[0]!, categories[0]!, 1, { lowest: () => 123_456, notice: WARNING })],
    ['variants', variantListView(t, locale, OWNER, path, variants, 1, WARNING)],
    ['quantity', quantityView(t, locale, OWNER, path, variants[0]!, 99, 1, WARNING)],
    ['added', addedView(t, OWNER, { quantity: 99, lineQuantity: 99, variantName: NAME(1), productName: NAME(2), capped: true, cartLines: 20, imageUrl: PICTURE(1) }, { server: 's', category: 'c' })],
    ['search', searchResultsView(t, locale, OWNER, LONG, hits, true)],
    ['nothing found', nothingFoundView(t, OWNER, LONG)],
    ['feed post', feedPostView(t, [purchase(0)])],
    ['feed burst', feedPostView(t, Array.from({ length: FEED_LINES_PER_POST }, (_, index) => purchase(index)))],
  ];
}

const textLength = (view: View) => textDisplays(view.components ?? []).reduce((sum, display) => sum + Array.from(display.content).length, 0);

describe("the shop's screens within Discord's limits", () => {
  for (const [language, t] of [['en', en], ['pl', pl]] as const) {
    for (const [name, view] of worstCases(t)) {
      it(`${name} (${language}): at most 40 components and 4000 characters, with the DEMO line`, () => {
        const marked = demoMarked(t, view);
        expect(marked.flags! & MessageFlags.IsComponentsV2).toBeTruthy();
        expect(marked.content ?? '').toBe('');
        expect(marked.embeds ?? []).toEqual([]);
        expect(countComponents(marked.components ?? [])).toBeLessThanOrEqual(LIMITS.displayComponents);
        expect(textLength(marked)).toBeLessThanOrEqual(LIMITS.displayText);
      });
    }
  }

  it('lists a full page of items each beside its picture, and as many in the menu', () => {
    const servers = Array.from({ length: 30 }, (_, index) => server(index));
    const view = serverListView(en, OWNER, servers, 0);
    const sections = JSON.stringify(view.components).match(new RegExp(`"type":${ComponentType.Section},`, 'g')) ?? [];
    expect(sections).toHaveLength(SHOP_PAGE_SIZE);
    const text = textDisplays(view.components ?? []).map((display) => display.content).join('\n');
    expect(text).toContain(`### ${NAME(0)}`);
    expect(text).not.toContain(LONG);
  });
});
