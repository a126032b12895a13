import { ButtonStyle, type APIEmbed } from 'discord.js';
import { lowestPrice, type PricedVariant } from '../../cart/pricing.js';
import { MAX_QUANTITY } from '../../cart/rules.js';
import { formatPln, type Locale, type Messages } from '../../i18n/index.js';
import type { Category, Product, Server, Variant } from '../../spaceis/schemas.js';
import { encodeCustomId, shortRef } from '../custom-id.js';
import type { View } from '../respond.js';
import { clip, LIMITS, noticeLine, plain } from '../text.js';
import { button, pagerRow, paginate, row, select, textInputModal, type SelectOption } from './components.js';

/**
 * The shop's menus: server → category → product → variant → quantity → added.
 * Every view is a pure function of the offer and the member's position in it.
 */

const SCOPE = 'shop';
const EMBED_COLOR = 0x2b8a3e;

/** Short references to where the member is in the offer; they travel in custom ids. */
export interface ShopRefs {
  s: string;
  c?: string;
  p?: string;
  v?: string;
}

export const shopIds = {
  serverPage: (owner: string, page: number) => encodeCustomId(SCOPE, 'srvp', owner, page),
  server: (owner: string) => encodeCustomId(SCOPE, 'srv', owner),
  categoryPage: (owner: string, s: string, page: number) => encodeCustomId(SCOPE, 'catp', owner, s, page),
  category: (owner: string, s: string) => encodeCustomId(SCOPE, 'cat', owner, s),
  productPage: (owner: string, s: string, c: string, page: number) => encodeCustomId(SCOPE, 'prdp', owner, s, c, page),
  product: (owner: string, s: string, c: string) => encodeCustomId(SCOPE, 'prd', owner, s, c),
  variantPage: (owner: string, s: string, c: string, p: string, page: number) => encodeCustomId(SCOPE, 'varp', owner, s, c, p, page),
  variant: (owner: string, s: string, c: string, p: string) => encodeCustomId(SCOPE, 'var', owner, s, c, p),
  quantity: (owner: string, s: string, c: string, p: string, v: string) => encodeCustomId(SCOPE, 'qty', owner, s, c, p, v),
  quantityModal: (owner: string, s: string, c: string, p: string, v: string) => encodeCustomId(SCOPE, 'qtym', owner, s, c, p, v),
  add: (owner: string, s: string, c: string, p: string, v: string, quantity: number) =>
    encodeCustomId(SCOPE, 'add', owner, s, c, p, v, quantity),
};

export const SHOP_SCOPE = SCOPE;

function breadcrumb(t: Messages, ...parts: (string | undefined)[]): string {
  return clip([t.shop.title, ...parts.filter((part): part is string => !!part)].join(' › '), LIMITS.embedTitle);
}

function embed(title: string, description: string, extra: Partial<APIEmbed> = {}): APIEmbed {
  return { title, description: clip(description, LIMITS.embedDescription), color: EMBED_COLOR, ...extra };
}

export function serverListView(t: Messages, owner: string, servers: Server[], page: number, notice?: string): View {
  const shown = paginate(servers, page);
  const options: SelectOption[] = shown.items.map((server) => ({
    value: shortRef(server.id),
    label: server.name,
    ...(server.additional ? { description: server.additional } : {}),
  }));
  const pager = pagerRow(t, shown, (target) => shopIds.serverPage(owner, target));
  return {
    content: noticeLine(notice),
    embeds: [embed(breadcrumb(t), pageLine(t, shown, t.shop.chooseServer))],
    components: [row(select(shopIds.server(owner), t.shop.chooseServerPlaceholder, options)), ...(pager ? [pager] : [])],
  };
}

export function categoryListView(
  t: Messages,
  owner: string,
  server: Server,
  categories: Category[],
  page: number,
  options: { canGoBack: boolean; notice?: string },
): View {
  const s = shortRef(server.id);
  const back = options.canGoBack ? [button(shopIds.serverPage(owner, 0), t.common.back)] : [];
  if (categories.length === 0) {
    return { content: noticeLine(options.notice), embeds: [embed(breadcrumb(t, server.name), t.shop.noCategories)], components: back.length ? [row(...back)] : [] };
  }
  const shown = paginate(categories, page);
  const pager = pagerRow(t, shown, (target) => shopIds.categoryPage(owner, s, target), back);
  return {
    content: noticeLine(options.notice),
    embeds: [embed(breadcrumb(t, server.name), pageLine(t, shown, t.shop.chooseCategory))],
    components: [
      row(
        select(
          shopIds.category(owner, s),
          t.shop.chooseCategoryPlaceholder,
          shown.items.map((category) => ({ value: shortRef(category.id), label: category.name })),
        ),
      ),
      ...(pager ? [pager] : []),
    ],
  };
}

export function productListView(t: Messages, owner: string, server: Server, category: Category, page: number, notice?: string): View {
  const s = shortRef(server.id);
  const c = shortRef(category.id);
  const back = [button(shopIds.categoryPage(owner, s, 0), t.common.back)];
  const title = breadcrumb(t, server.name, category.name);
  if (category.products.length === 0) {
    return { content: noticeLine(notice), embeds: [embed(title, t.shop.noProducts)], components: [row(...back)] };
  }
  const shown = paginate(category.products, page);
  const pager = pagerRow(t, shown, (target) => shopIds.productPage(owner, s, c, target), back);
  return {
    content: noticeLine(notice),
    embeds: [embed(title, pageLine(t, shown, t.shop.chooseProduct))],
    components: [
      row(
        select(
          shopIds.product(owner, s, c),
          t.shop.chooseProductPlaceholder,
          shown.items.map((product) => ({
            value: shortRef(product.id),
            label: product.name,
            ...(product.descriptions?.short ? { description: product.descriptions.short } : {}),
          })),
        ),
      ),
      ...(pager ? [pager] : []),
    ],
  };
}

export interface VariantChoice {
  variant: Variant;
  priced: PricedVariant;
}

export function variantListView(
  t: Messages,
  locale: Locale,
  owner: string,
  path: { server: Server; category: Category; product: Product },
  variants: VariantChoice[],
  page: number,
  notice?: string,
): View {
  const s = shortRef(path.server.id);
  const c = shortRef(path.category.id);
  const p = shortRef(path.product.id);
  const back = [button(shopIds.productPage(owner, s, c, 0), t.common.back)];
  const title = breadcrumb(t, path.server.name, path.category.name, path.product.name);
  const about = path.product.descriptions?.short ? `${plain(path.product.descriptions.short)}\n\n` : '';
  const thumbnail = httpsUrl(path.product.imageUrl);
  const extra: Partial<APIEmbed> = thumbnail ? { thumbnail: { url: thumbnail } } : {};
  if (variants.length === 0) {
    return { content: noticeLine(notice), embeds: [embed(title, `${about}${t.shop.noVariants}`, extra)], components: [row(...back)] };
  }
  const shown = paginate(variants, page);
  const pager = pagerRow(t, shown, (target) => shopIds.variantPage(owner, s, c, p, target), back);
  return {
    content: noticeLine(notice),
    embeds: [embed(title, `${clip(about, 1500)}${pageLine(t, shown, t.shop.chooseVariant)}`, extra)],
    components: [
      row(
        select(
          shopIds.variant(owner, s, c, p),
          t.shop.chooseVariantPlaceholder,
          shown.items.map(({ variant, priced }) => {
            const lowest = lowestPrice(priced);
            return {
              value: shortRef(variant.id),
              label: variant.name,
              description: lowest === undefined ? t.shop.unavailable : t.shop.priceFrom(formatPln(lowest, locale)),
            };
          }),
        ),
      ),
      ...(pager ? [pager] : []),
    ],
  };
}

/** Common amounts first; anything else from 1 to 99 through "Other amount…". */
const QUICK_QUANTITIES: readonly number[] = [1, 2, 3, 4, 5, 8, 10, 16, 20, 32, 50, 64, 99];
export const OTHER_QUANTITY = 'other';
export const QUANTITY_INPUT = 'quantity';

/** "Other amount…": any quantity from 1 to 99, typed (the field allows two characters at most). */
export function quantityModal(t: Messages, customId: string) {
  return textInputModal(customId, t.quantity.modalTitle, {
    customId: QUANTITY_INPUT,
    label: t.quantity.modalLabel,
    placeholder: '1–99',
    minLength: 1,
    maxLength: 2,
  });
}

/** The quantity select's options, with the current amount selected (added when it is not a common one). */
export function quantityOptions(t: Messages, current: number): SelectOption[] {
  const amounts = QUICK_QUANTITIES.includes(current) ? QUICK_QUANTITIES : [...QUICK_QUANTITIES, current].sort((a, b) => a - b);
  return [
    ...amounts.map((n) => ({ value: String(n), label: t.quantity.option(n), default: n === current })),
    { value: OTHER_QUANTITY, label: t.quantity.other, description: t.quantity.otherDescription },
  ];
}

export function quantityView(
  t: Messages,
  locale: Locale,
  owner: string,
  path: { server: Server; category: Category; product: Product },
  choice: VariantChoice,
  quantity: number,
  variantPage: number,
  notice?: string,
): View {
  const refs = {
    s: shortRef(path.server.id),
    c: shortRef(path.category.id),
    p: shortRef(path.product.id),
    v: shortRef(choice.variant.id),
  };
  const lowest = lowestPrice(choice.priced);
  const fields = [
    ...(lowest !== undefined ? [{ name: t.quantity.price, value: t.quantity.priceEach(formatPln(lowest, locale)), inline: true }] : []),
    { name: t.quantity.quantity, value: String(quantity), inline: true },
    ...(lowest !== undefined
      ? [{ name: t.quantity.total, value: t.shop.priceFrom(formatPln(lowest * quantity, locale)), inline: true }]
      : []),
  ];
  const quantities = quantityOptions(t, quantity);
  return {
    content: noticeLine(notice),
    embeds: [
      embed(clip(t.quantity.title(path.product.name, choice.variant.name), LIMITS.embedTitle), breadcrumb(t, path.server.name, path.category.name), {
        fields,
      }),
    ],
    components: [
      row(select(shopIds.quantity(owner, refs.s, refs.c, refs.p, refs.v), t.quantity.placeholder, quantities)),
      row(
        button(shopIds.add(owner, refs.s, refs.c, refs.p, refs.v, quantity), t.quantity.addToCart, ButtonStyle.Success),
        button(shopIds.variantPage(owner, refs.s, refs.c, refs.p, variantPage), t.common.back),
      ),
    ],
  };
}

export function addedView(
  t: Messages,
  owner: string,
  added: { quantity: number; lineQuantity: number; variantName: string; productName: string; capped: boolean; cartLines: number },
  continueAt: { s: string; c: string },
  viewCartId: string,
): View {
  const lines = [
    t.added.line(added.quantity, plain(added.variantName), plain(added.productName)),
    ...(added.capped ? [t.added.capped(MAX_QUANTITY)] : added.lineQuantity !== added.quantity ? [t.added.lineTotal(added.lineQuantity)] : []),
    t.added.cartSize(added.cartLines),
  ];
  return {
    content: '',
    embeds: [embed(t.added.title, lines.join('\n'))],
    components: [
      row(
        button(viewCartId, t.added.viewCart, ButtonStyle.Primary),
        button(shopIds.productPage(owner, continueAt.s, continueAt.c, 0), t.added.continueShopping),
      ),
    ],
  };
}

function pageLine(t: Messages, page: { page: number; pages: number }, prompt: string): string {
  return page.pages > 1 ? `${prompt}\n${t.common.page(page.page + 1, page.pages)}` : prompt;
}

/** Discord rejects an embed image that is not an http(s) URL; a bad one from the store is left out. */
function httpsUrl(url: string | null | undefined): string | undefined {
  return url && /^https?:\/\/\S+$/i.test(url) && url.length <= 2048 ? url : undefined;
}
