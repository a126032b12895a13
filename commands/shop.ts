import { ApplicationCommandOptionType, InteractionContextType, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { isPurchasable } from '../src/cart/pricing.js';
import { addItem, MAX_QUANTITY, parseQuantity, type CartChange } from '../src/cart/rules.js';
import type { CommandModule, ComponentInteraction, HandlerContext } from '../src/discord/context.js';
import { intArg, shortRef, type ComponentRoute } from '../src/discord/custom-id.js';
import { localized } from '../src/discord/localize.js';
import { clip, LIMITS } from '../src/discord/text.js';
import { cartIds } from '../src/discord/views/cart.js';
import { violationText } from '../src/discord/views/notices.js';
import {
  addedView,
  categoryListView,
  OTHER_QUANTITY,
  productListView,
  QUANTITY_INPUT,
  quantityModal,
  quantityView,
  serverListView,
  SHOP_SCOPE,
  shopIds,
  variantListView,
  type VariantChoice,
} from '../src/discord/views/shop.js';
import { byRef, cartItemFrom, matchServer, offerReader, pricedVariant, type OfferReader } from '../src/services/catalog.js';
import type { Category, Product, Server, ServerOffer, Variant } from '../src/spaceis/schemas.js';
import { asCart } from '../src/storage/carts.js';

/**
 * /shop: the offer as menus. Each step reads the offer through the cache (deferring only when
 * the store must be asked) and redraws the member's own ephemeral message.
 */

export const shopCommand: CommandModule = {
  name: 'shop',

  definition: () => ({
    ...localized('shop'),
    contexts: [InteractionContextType.Guild],
    options: [
      {
        type: ApplicationCommandOptionType.String,
        ...localized('shopServer'),
        required: false,
        autocomplete: true,
        max_length: 100,
      },
    ],
  }),

  async execute(interaction: ChatInputCommandInteraction, ctx: HandlerContext) {
    await openShop(ctx, interaction.options.getString('server') ?? undefined);
  },

  async autocomplete(interaction: AutocompleteInteraction, ctx) {
    const typed = interaction.options.getFocused().toLowerCase();
    const hidden = new Set(ctx.settings.hiddenServerIds);
    const servers = ctx.shop ? await serversWithin(ctx.shop.offers, AUTOCOMPLETE_BUDGET_MS) : [];
    const choices = servers
      .filter((server) => !hidden.has(server.id))
      .filter((server) => server.name.toLowerCase().includes(typed) || (server.slug ?? '').toLowerCase().includes(typed))
      .slice(0, LIMITS.autocompleteChoices)
      .map((server) => ({ name: clip(server.name, LIMITS.choiceName), value: server.id.length <= 100 ? server.id : (server.slug ?? server.name) }));
    await interaction.respond(choices);
  },

  components: {
    [SHOP_SCOPE]: handleShopComponent,
  },
};

/** Autocomplete cannot be deferred: if the store is slow, answer with no suggestions rather than fail. */
const AUTOCOMPLETE_BUDGET_MS = 2_000;
async function serversWithin(offers: NonNullable<HandlerContext['shop']>['offers'], budgetMs: number): Promise<Server[]> {
  const cached = offers.peekServers();
  if (cached) return cached;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Server[]>((resolve) => {
    timer = setTimeout(() => resolve([]), budgetMs);
  });
  try {
    return await Promise.race([offers.servers(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The shop's first screen: the server list, or straight to the categories when there is one server (or one was named). */
export async function openShop(ctx: HandlerContext, serverInput?: string): Promise<void> {
  const { t, userId } = ctx;
  if (!ctx.shop) {
    await ctx.respond.show({ content: t.shop.notSetUp, embeds: [], components: [] });
    return;
  }
  const reader = readerFor(ctx);
  const servers = await reader.servers();
  if (servers.length === 0) {
    await ctx.respond.show({ content: t.shop.noServers, embeds: [], components: [] });
    return;
  }
  const named = serverInput ? matchServer(servers, serverInput) : undefined;
  if (serverInput && !named) {
    await ctx.respond.show(serverListView(t, userId, servers, 0, t.shop.unknownServer(clip(serverInput, 100))));
    return;
  }
  const server = named ?? (servers.length === 1 ? servers[0] : undefined);
  if (!server) {
    await ctx.respond.show(serverListView(t, userId, servers, 0));
    return;
  }
  const offer = await reader.server(server.id);
  await ctx.respond.show(categoryListView(t, userId, server, offer.categories, 0, { canGoBack: servers.length > 1 }));
}

function readerFor(ctx: HandlerContext): OfferReader {
  if (!ctx.shop) throw new Error('no shop configured');
  return offerReader(ctx.shop.offers, () => ctx.respond.defer(), { hiddenServerIds: ctx.settings.hiddenServerIds });
}

/** Where a component points in the offer, resolved as deep as the offer still goes. */
interface Located {
  servers: Server[];
  server?: Server;
  offer?: ServerOffer;
  category?: Category;
  product?: Product;
  variants?: VariantChoice[];
  variant?: VariantChoice;
}

async function locate(reader: OfferReader, refs: { s?: string; c?: string; p?: string; v?: string }): Promise<Located> {
  const located: Located = { servers: await reader.servers() };
  located.server = byRef(located.servers, refs.s);
  if (!located.server || refs.c === undefined) return located;
  located.offer = await reader.server(located.server.id);
  located.category = byRef(located.offer.categories, refs.c);
  if (!located.category || refs.p === undefined) return located;
  located.product = byRef(located.category.products, refs.p);
  if (!located.product) return located;
  const { variants } = await reader.variants(located.server.id, located.category.id, located.product.id);
  const index = variantIndex(variants);
  located.variants = index.choices;
  located.variant = refs.v === undefined ? undefined : index.byRef.get(refs.v);
  return located;
}

/**
 * A product's variants as menu choices, and by the short reference components carry. Built once per
 * variant list the offer cache hands out (a list is never changed), not on every click: a range
 * product has hundreds of variants, and choosing one, its quantity and adding it each look it up.
 */
interface VariantIndex {
  choices: VariantChoice[];
  byRef: Map<string, VariantChoice>;
}
const variantIndexes = new WeakMap<readonly Variant[], VariantIndex>();
function variantIndex(variants: readonly Variant[]): VariantIndex {
  let index = variantIndexes.get(variants);
  if (!index) {
    const choices = variants.map((variant) => ({ variant, priced: pricedVariant(variant) }));
    const byRef = new Map<string, VariantChoice>();
    for (const choice of choices) {
      const ref = shortRef(choice.variant.id);
      if (!byRef.has(ref)) byRef.set(ref, choice);
    }
    index = { choices, byRef };
    variantIndexes.set(variants, index);
  }
  return index;
}

/**
 * The deepest menu that still exists on the way to what the member asked for. Used when a
 * component points at something the shop no longer sells: the member gets a notice and the
 * current offer instead of an error.
 */
async function showNearest(ctx: HandlerContext, reader: OfferReader, located: Located, notice?: string): Promise<void> {
  const { t, userId } = ctx;
  if (!located.server) {
    if (located.servers.length === 0) return ctx.respond.show({ content: t.shop.noServers, embeds: [], components: [] });
    return ctx.respond.show(serverListView(t, userId, located.servers, 0, notice));
  }
  const offer = located.offer ?? (await reader.server(located.server.id));
  if (!located.category) {
    return ctx.respond.show(
      categoryListView(t, userId, located.server, offer.categories, 0, { canGoBack: located.servers.length > 1, ...(notice ? { notice } : {}) }),
    );
  }
  if (!located.product || !located.variants) {
    return ctx.respond.show(productListView(t, userId, located.server, located.category, 0, notice));
  }
  const page = variantPageOf(located.variants, located.variant);
  return ctx.respond.show(
    variantListView(t, ctx.locale, userId, { server: located.server, category: located.category, product: located.product }, located.variants, page, notice),
  );
}

function variantPageOf(variants: VariantChoice[], variant: VariantChoice | undefined): number {
  const index = variant ? variants.indexOf(variant) : -1;
  return index < 0 ? 0 : Math.floor(index / LIMITS.selectOptions);
}

function selectedValue(interaction: ComponentInteraction): string | undefined {
  return interaction.isStringSelectMenu() ? interaction.values[0] : undefined;
}

async function handleShopComponent(interaction: ComponentInteraction, route: ComponentRoute, ctx: HandlerContext): Promise<void> {
  const { t, userId } = ctx;
  if (!ctx.shop) return ctx.respond.show({ content: t.shop.notSetUp, embeds: [], components: [] });
  const [s, c, p, v, fifth] = route.args;

  // The quantity modal must be the first answer: it needs nothing from the store.
  if (route.action === 'qty' && selectedValue(interaction) === OTHER_QUANTITY && s && c && p && v) {
    return ctx.respond.showModal(quantityModal(t, shopIds.quantityModal(userId, s, c, p, v)));
  }

  const reader = readerFor(ctx);
  switch (route.action) {
    case 'srvp': {
      const servers = await reader.servers();
      return ctx.respond.show(serverListView(t, userId, servers, intArg(s) ?? 0));
    }
    case 'srv':
      return showCategories(ctx, reader, await locate(reader, { s: selectedValue(interaction) }), 0);
    case 'catp':
      return showCategories(ctx, reader, await locate(reader, { s }), intArg(c) ?? 0);
    case 'cat':
    case 'prdp': {
      const category = route.action === 'cat' ? selectedValue(interaction) : c;
      const located = await locate(reader, { s, c: category ?? '' });
      if (!located.server || !located.category) return showNearest(ctx, reader, located, t.shop.itemGone);
      return ctx.respond.show(productListView(t, userId, located.server, located.category, route.action === 'prdp' ? (intArg(p) ?? 0) : 0));
    }
    case 'prd':
    case 'varp': {
      const product = route.action === 'prd' ? selectedValue(interaction) : p;
      const located = await locate(reader, { s, c: c ?? '', p: product ?? '' });
      if (!located.server || !located.category || !located.product || !located.variants) {
        return showNearest(ctx, reader, located, t.shop.itemGone);
      }
      const page = route.action === 'varp' ? (intArg(v) ?? 0) : 0;
      const path = { server: located.server, category: located.category, product: located.product };
      return ctx.respond.show(variantListView(t, ctx.locale, userId, path, located.variants, page));
    }
    case 'var':
    case 'qty':
    case 'qtym':
    case 'add':
      return handleVariantStep(interaction, route, ctx, reader, { s, c, p, v: route.action === 'var' ? selectedValue(interaction) : v, fifth });
    default:
      return ctx.respond.notice(t.common.expired);
  }
}

async function showCategories(ctx: HandlerContext, reader: OfferReader, located: Located, page: number): Promise<void> {
  if (!located.server) return showNearest(ctx, reader, located, ctx.t.shop.itemGone);
  const offer = located.offer ?? (await reader.server(located.server.id));
  return ctx.respond.show(categoryListView(ctx.t, ctx.userId, located.server, offer.categories, page, { canGoBack: located.servers.length > 1 }));
}

/** Choosing a variant, setting its quantity and adding it: all need the variant resolved first. */
async function handleVariantStep(
  interaction: ComponentInteraction,
  route: ComponentRoute,
  ctx: HandlerContext,
  reader: OfferReader,
  refs: { s?: string; c?: string; p?: string; v?: string; fifth?: string },
): Promise<void> {
  const { t, userId, locale } = ctx;
  const located = await locate(reader, { s: refs.s, c: refs.c ?? '', p: refs.p ?? '', v: refs.v ?? '' });
  const { server, category, product, variants, variant } = located;
  if (!server || !category || !product || !variants || !variant) return showNearest(ctx, reader, located, t.shop.itemGone);
  const path = { server, category, product };
  const variantPage = variantPageOf(variants, variant);

  if (!isPurchasable(variant.priced)) {
    return ctx.respond.show(variantListView(t, locale, userId, path, variants, variantPage, t.shop.variantUnavailable(variant.variant.name)));
  }

  if (route.action === 'var') return ctx.respond.show(quantityView(t, locale, userId, path, variant, 1, variantPage));

  if (route.action === 'qty') {
    const quantity = intArg(selectedValue(interaction), MAX_QUANTITY);
    return ctx.respond.show(quantityView(t, locale, userId, path, variant, quantity && quantity > 0 ? quantity : 1, variantPage));
  }

  if (route.action === 'qtym') {
    const typed = interaction.isModalSubmit() ? interaction.fields.getTextInputValue(QUANTITY_INPUT).trim() : '';
    const quantity = parseQuantity(typed);
    if (quantity < 1 || quantity > MAX_QUANTITY) {
      return ctx.respond.show(quantityView(t, locale, userId, path, variant, 1, variantPage, t.quantity.invalid(clip(typed, 20))));
    }
    return ctx.respond.show(quantityView(t, locale, userId, path, variant, quantity, variantPage));
  }

  // add
  const quantity = intArg(refs.fifth, MAX_QUANTITY) ?? 0;
  const policy = { license: ctx.shop?.license ?? '', multiServer: ctx.settings.multiServerCart };
  const item = cartItemFrom(path, variant.variant);
  const change = await ctx.services.carts.updateFor<CartChange>(policy.license, ctx.guildId, userId, (stored) => {
    const result = addItem(asCart(stored), item, quantity, policy);
    return result.ok ? { cart: { ...stored, ...result.cart }, result } : { result };
  });
  if (!change.ok) {
    return ctx.respond.show(quantityView(t, locale, userId, path, variant, Math.max(1, Math.min(quantity, MAX_QUANTITY)), variantPage, violationText(change.violation, t)));
  }
  ctx.log.info({ variant: variant.variant.id, quantity: change.line.quantity, lines: change.cart.lines.length }, 'added to cart');
  return ctx.respond.show(
    addedView(
      t,
      userId,
      {
        quantity,
        lineQuantity: change.line.quantity,
        variantName: variant.variant.name,
        productName: product.name,
        capped: change.capped,
        cartLines: change.cart.lines.length,
      },
      { s: shortRef(server.id), c: shortRef(category.id) },
      cartIds.view(userId),
    ),
  );
}
