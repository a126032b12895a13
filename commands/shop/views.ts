import { ButtonStyle, type APIEmbed } from 'discord.js';
import { lowestPrice } from '../../src/cart/pricing.js';
import { MAX_QUANTITY } from '../../src/cart/rules.js';
import type { View } from '../../src/discord/respond.js';
import { clip, LIMITS, noticeLine, plain } from '../../src/discord/text.js';
import { button, pageLine, pagerRow, paginate, row, select, type SelectOption } from '../../src/discord/views/components.js';
import { quantitySelect } from '../../src/discord/views/quantity-picker.js';
import { formatPln, type Locale, type Messages } from '../../src/i18n/index.js';
import type { OfferPath, VariantChoice } from '../../src/services/catalog.js';
import { shortRef } from '../../src/services/short-ref.js';
import type { Category, Server } from '../../src/spaceis/schemas.js';
import { cartRoutes } from '../cart/routes.js';
import { shopRoutes } from './routes.js';

/**
 * The shop's menus: server → category → product → variant → quantity → added.
 * Every view is a pure function of the offer and the member's position in it.
 */

const EMBED_COLOR = 0x2b8a3e;

function breadcrumb(t: Messages, ...parts: (string | undefined)[]): string {
  return clip([t.shop.title, ...parts.filter((part): part is string => !!part).map(plain)].join(' › '), LIMITS.embedTitle);
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
  const pager = pagerRow(t, shown, (target) => shopRoutes.serverPage.build(owner, { page: target }));
  return {
    content: noticeLine(notice),
    embeds: [embed(breadcrumb(t), pageLine(t, shown, t.shop.chooseServer))],
    components: [row(select(shopRoutes.chooseServer.build(owner, {}), t.shop.chooseServerPlaceholder, options)), ...(pager ? [pager] : [])],
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
  const back = options.canGoBack ? [button(shopRoutes.serverPage.build(owner, { page: 0 }), t.common.back)] : [];
  if (categories.length === 0) {
    return { content: noticeLine(options.notice), embeds: [embed(breadcrumb(t, server.name), t.shop.noCategories)], components: back.length ? [row(...back)] : [] };
  }
  const shown = paginate(categories, page);
  const pager = pagerRow(t, shown, (target) => shopRoutes.categoryPage.build(owner, { server: s, page: target }), back);
  return {
    content: noticeLine(options.notice),
    embeds: [embed(breadcrumb(t, server.name), pageLine(t, shown, t.shop.chooseCategory))],
    components: [
      row(
        select(
          shopRoutes.chooseCategory.build(owner, { server: s }),
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
  const back = [button(shopRoutes.categoryPage.build(owner, { server: s, page: 0 }), t.common.back)];
  const title = breadcrumb(t, server.name, category.name);
  if (category.products.length === 0) {
    return { content: noticeLine(notice), embeds: [embed(title, t.shop.noProducts)], components: [row(...back)] };
  }
  const shown = paginate(category.products, page);
  const pager = pagerRow(t, shown, (target) => shopRoutes.productPage.build(owner, { server: s, category: c, page: target }), back);
  return {
    content: noticeLine(notice),
    embeds: [embed(title, pageLine(t, shown, t.shop.chooseProduct))],
    components: [
      row(
        select(
          shopRoutes.chooseProduct.build(owner, { server: s, category: c }),
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

export function variantListView(
  t: Messages,
  locale: Locale,
  owner: string,
  path: OfferPath,
  variants: VariantChoice[],
  page: number,
  notice?: string,
): View {
  const s = shortRef(path.server.id);
  const c = shortRef(path.category.id);
  const p = shortRef(path.product.id);
  const back = [button(shopRoutes.productPage.build(owner, { server: s, category: c, page: 0 }), t.common.back)];
  const title = breadcrumb(t, path.server.name, path.category.name, path.product.name);
  const about = path.product.descriptions?.short ? `${plain(path.product.descriptions.short)}\n\n` : '';
  const thumbnail = httpsUrl(path.product.imageUrl);
  const extra: Partial<APIEmbed> = thumbnail ? { thumbnail: { url: thumbnail } } : {};
  if (variants.length === 0) {
    return { content: noticeLine(notice), embeds: [embed(title, `${about}${t.shop.noVariants}`, extra)], components: [row(...back)] };
  }
  const shown = paginate(variants, page);
  const pager = pagerRow(t, shown, (target) => shopRoutes.variantPage.build(owner, { server: s, category: c, product: p, page: target }), back);
  return {
    content: noticeLine(notice),
    embeds: [embed(title, `${clip(about, 1500)}${pageLine(t, shown, t.shop.chooseVariant)}`, extra)],
    components: [
      row(
        select(
          shopRoutes.chooseVariant.build(owner, { server: s, category: c, product: p }),
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

export function quantityView(
  t: Messages,
  locale: Locale,
  owner: string,
  path: OfferPath,
  choice: VariantChoice,
  quantity: number,
  variantPage: number,
  notice?: string,
): View {
  const at = {
    server: shortRef(path.server.id),
    category: shortRef(path.category.id),
    product: shortRef(path.product.id),
    variant: shortRef(choice.variant.id),
  };
  const lowest = lowestPrice(choice.priced);
  const fields = [
    ...(lowest !== undefined ? [{ name: t.quantity.price, value: t.quantity.priceEach(formatPln(lowest, locale)), inline: true }] : []),
    { name: t.quantity.quantity, value: String(quantity), inline: true },
    ...(lowest !== undefined
      ? [{ name: t.quantity.total, value: t.shop.priceFrom(formatPln(lowest * quantity, locale)), inline: true }]
      : []),
  ];
  return {
    content: noticeLine(notice),
    embeds: [
      embed(clip(t.quantity.title(plain(path.product.name), plain(choice.variant.name)), LIMITS.embedTitle), breadcrumb(t, path.server.name, path.category.name), {
        fields,
      }),
    ],
    components: [
      row(quantitySelect(t, shopRoutes.chooseQuantity.build(owner, at), quantity)),
      row(
        button(shopRoutes.addToCart.build(owner, { ...at, quantity }), t.quantity.addToCart, ButtonStyle.Success),
        button(shopRoutes.variantPage.build(owner, { ...at, page: variantPage }), t.common.back),
      ),
    ],
  };
}

export function addedView(
  t: Messages,
  owner: string,
  added: { quantity: number; lineQuantity: number; variantName: string; productName: string; capped: boolean; cartLines: number },
  continueAt: { server: string; category: string },
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
        button(cartRoutes.view.build(owner, {}), t.added.viewCart, ButtonStyle.Primary),
        button(shopRoutes.productPage.build(owner, { ...continueAt, page: 0 }), t.added.continueShopping),
      ),
    ],
  };
}

/** Discord rejects an embed image that is not an http(s) URL; a bad one from the store is left out. */
function httpsUrl(url: string | null | undefined): string | undefined {
  return url && /^https?:\/\/\S+$/i.test(url) && url.length <= 2048 ? url : undefined;
}
