import { on, slashCommand, type Feature } from '../../src/discord/feature.js';
import { guildCommand, optionalText } from '../../src/discord/localize.js';
import { commandTexts } from '../command-texts.js';
import { shopConfigured, type ShopContext } from '../../src/discord/preconditions.js';
import { locate } from '../../src/services/catalog.js';
import { serverChoices } from './autocomplete.js';
import { variantStep } from './choose-variant.js';
import { readerFor, showCategories, showNearest, showProductList, showVariants } from './navigate.js';
import { shopNames } from './names.js';
import { findItem, itemChoices, openFound } from './search.js';
import { readItemRef } from '../../src/services/offer-search.js';
import { openShop } from './open.js';
import { entered } from './counted.js';
import { shopRoutes } from './routes.js';
import { serverListView } from './views.js';

/**
 * /shop: the offer as menus, server → category → product → variant → quantity → added. Each step
 * reads the offer through the cache (deferring only when the store must be asked) and redraws the
 * member's own ephemeral message.
 */

const shopOptions = shopNames.options;
const texts = commandTexts('shop');

const shopCommand = slashCommand({
  name: shopNames.name,
  preconditions: [shopConfigured],
  definition: () =>
    guildCommand(texts, {
      options: [optionalText(texts, 'server', { autocomplete: true, max_length: 100 }), optionalText(texts, 'item', { autocomplete: true, max_length: 100 })],
    }),
  run: (interaction, ctx) => {
    const server = interaction.options.getString(shopOptions.server) ?? undefined;
    const item = interaction.options.getString(shopOptions.item);
    // With both, the server narrows the search (see search.ts); a chosen suggestion already names its server.
    return item ? findItem(ctx, item, server) : openShop(ctx, server, 'shop');
  },
  autocomplete: async (interaction, ctx) => {
    const focused = interaction.options.getFocused(true);
    return focused.name === shopOptions.item
      ? itemChoices(ctx, focused.value, interaction.options.getString(shopOptions.server))
      : serverChoices(ctx, focused.value);
  },
});

const needs = [shopConfigured] as const;

export const shopFeature: Feature = {
  name: 'shop',
  command: shopCommand,
  components: [
    on(shopRoutes.openFromCart, needs, (_interaction, _values, ctx) => openShop(ctx, undefined, 'shop')),
    on(shopRoutes.openFromPanel, needs, (_interaction, _values, ctx) => openShop(ctx, undefined, 'panel')),
    // The presser's own quantity screen (owner: the presser), answered privately; Back leads to the product.
    on(shopRoutes.buyFromFeed, needs, (_interaction, refs, ctx) => {
      entered(ctx, 'feed');
      return variantStep(ctx, refs, { kind: 'chosen' });
    }),
    on(shopRoutes.browse, needs, (_interaction, _values, ctx) => openShop(ctx)),
    on(shopRoutes.pickFound, needs, (_interaction, { selected }, ctx) => {
      const refs = readItemRef(selected);
      entered(ctx, 'search');
      return refs ? openFound(ctx, refs) : ctx.respond.aside(ctx.t.common.expired);
    }),
    on(shopRoutes.serverPage, needs, async (_interaction, { page }, ctx) => {
      const servers = await readerFor(ctx).servers();
      return ctx.respond.show(serverListView(ctx.t, ctx.userId, servers, page));
    }),
    on(shopRoutes.chooseServer, needs, async (_interaction, { selected }, ctx) => {
      const reader = readerFor(ctx);
      return showCategories(ctx, reader, await locate(reader, { server: selected }), 0);
    }),
    on(shopRoutes.categoryPage, needs, async (_interaction, { server, page }, ctx) => {
      const reader = readerFor(ctx);
      return showCategories(ctx, reader, await locate(reader, { server }), page);
    }),
    on(shopRoutes.chooseCategory, needs, (_interaction, { server, selected }, ctx) => showProducts(ctx, { server, category: selected }, 0)),
    on(shopRoutes.productPage, needs, (_interaction, { server, category, page }, ctx) => showProducts(ctx, { server, category }, page)),
    on(shopRoutes.chooseProduct, needs, (_interaction, { server, category, selected }, ctx) => showVariants(ctx, { server, category, product: selected }, 0)),
    on(shopRoutes.variantPage, needs, (_interaction, { page, ...refs }, ctx) => showVariants(ctx, refs, page)),
    on(shopRoutes.chooseVariant, needs, (_interaction, { selected, ...refs }, ctx) => variantStep(ctx, { ...refs, variant: selected }, { kind: 'chosen' })),
    on(shopRoutes.chooseQuantity, needs, (_interaction, { selected, ...refs }, ctx) => variantStep(ctx, refs, { kind: 'quantity', input: { selected } })),
    on(shopRoutes.typeQuantity, needs, (_interaction, { typed, ...refs }, ctx) => variantStep(ctx, refs, { kind: 'quantity', input: { typed } })),
    on(shopRoutes.addToCart, needs, (_interaction, { quantity, ...refs }, ctx) => variantStep(ctx, refs, { kind: 'add', quantity })),
  ],
};

async function showProducts(ctx: ShopContext, refs: { server: string; category: string }, page: number): Promise<void> {
  const reader = readerFor(ctx);
  const located = await locate(reader, refs);
  if (!located.server || !located.category) return showNearest(ctx, reader, located, ctx.t.shop.itemGone);
  return showProductList(ctx, located.server, located.category, page);
}
