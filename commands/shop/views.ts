import type { APIButtonComponent, APIStringSelectComponent } from 'discord.js';
import { lowestPrice } from '../../src/cart/pricing.js';
import type { ActionRow, View } from '../../src/discord/respond.js';
import { clip, plain } from '../../src/discord/text.js';
import { button, pagerRow, paginate, row, select, type Page, type SelectOption } from '../../src/discord/views/components.js';
import { gallery, picture, screen, section, text, type Part } from '../../src/discord/views/display.js';
import { formatPln, type Locale, type Messages } from '../../src/i18n/index.js';
import type { OfferPath, VariantChoice } from '../../src/services/catalog.js';
import { shortRef } from '../../src/services/short-ref.js';
import type { Category, Product, Server } from '../../src/spaceis/schemas.js';
import { shopRoutes } from './routes.js';

/**
 * The shop's browsing screens: server → category → product → variant (the quantity and added
 * screens that follow are in buy-views.ts). Each is one
 * container (display components): where the member is, the items of the page as sections (name,
 * short description, "from" price, the store's picture beside them), then the menu that chooses.
 * Every view is a pure function of the offer and the member's position in it.
 */

export const SHOP_COLOR = 0x2b8a3e;

/**
 * Servers, categories and products per page, listed and in the menu alike. A listed item with a
 * picture costs 3 of Discord's 40 components (section, its text, the thumbnail); the rest of the
 * screen at its fullest costs 14 (DEMO line, container, warning, notice, heading, subtitle, two
 * separators, the menu's row and select, Previous / Next / Back and their row). 14 + 8 × 3 = 38.
 */
export const SHOP_PAGE_SIZE = 8;

/** A listed item's description: a line or two, not the store's whole text. */
const LISTED_DESCRIPTION = 150;
/** The variant screen's description, under the product's picture. */
const PRODUCT_DESCRIPTION = 600;
/** Names in headings and breadcrumbs: Discord would show more, but a heading of 300 characters is no heading. */
const NAME = 100;

/** A store name on one line, escaped: a name is never a heading, a link or a mention. */
export function storeName(raw: string): string {
  return plain(clip(raw.replace(/\s+/g, ' ').trim() || '—', NAME));
}

/** A store description shortened to `max` (on one line when it is a list's), escaped. */
function description(raw: string | null | undefined, max: number, oneLine: boolean): string {
  const trimmed = (oneLine ? (raw ?? '').replace(/\s+/g, ' ') : (raw ?? '').replace(/\n{3,}/g, '\n\n')).trim();
  return trimmed ? plain(clip(trimmed, max)) : '';
}

export function breadcrumb(t: Messages, ...parts: (string | undefined)[]): string {
  return [t.shop.title, ...parts.filter((part): part is string => !!part).map(storeName)].join(' › ');
}

/** The menu's prompt, and "Page 2 of 4" when there is more than one page, as one small line. */
function prompt(t: Messages, shown: { page: number; pages: number }, line: string): string {
  return shown.pages > 1 ? `${line} · ${t.common.page(shown.page + 1, shown.pages)}` : line;
}

/** One listed item: `### Name`, its description, its "from" price, its picture beside them (or none). */
export function listedItem(item: { name: string; imageUrl?: string | null | undefined }, about: string | null | undefined, price: string | undefined): Part {
  const lines = [`### ${storeName(item.name)}`, description(about, LISTED_DESCRIPTION, true), price ? `**${price}**` : ''].filter(Boolean);
  return section([lines.join('\n')], picture(item.imageUrl, item.name));
}

function listScreen(
  t: Messages,
  input: { title: string; notice?: string | undefined; shown: Page<unknown>; prompt: string; items: Part[]; menu: APIStringSelectComponent; pager: ActionRow | undefined },
): View {
  return screen({
    accent: SHOP_COLOR,
    title: input.title,
    subtitle: prompt(t, input.shown, input.prompt),
    warning: input.notice,
    body: input.items,
    controls: [row(input.menu), input.pager],
  });
}

/** A level with nothing in it: what the member is told, and Back where there is one. */
function emptyScreen(title: string, line: string, notice: string | undefined, back: APIButtonComponent[]): View {
  return screen({ accent: SHOP_COLOR, title, warning: notice, body: [text(line)], controls: back.length > 0 ? [row(...back)] : [] });
}

export function serverListView(t: Messages, owner: string, servers: Server[], page: number, notice?: string): View {
  const shown = paginate(servers, page, SHOP_PAGE_SIZE);
  const options: SelectOption[] = shown.items.map((server) => ({
    value: shortRef(server.id),
    label: server.name,
    ...(server.additional ? { description: server.additional } : {}),
  }));
  return listScreen(t, {
    title: breadcrumb(t),
    notice,
    shown,
    prompt: t.shop.chooseServer,
    items: shown.items.map((server) => listedItem(server, server.additional, undefined)),
    menu: select(shopRoutes.chooseServer.build(owner, {}), t.shop.chooseServerPlaceholder, options),
    pager: pagerRow(t, shown, (target) => shopRoutes.serverPage.build(owner, { page: target })),
  });
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
  const title = breadcrumb(t, server.name);
  if (categories.length === 0) return emptyScreen(title, t.shop.noCategories, options.notice, back);
  const shown = paginate(categories, page, SHOP_PAGE_SIZE);
  return listScreen(t, {
    title,
    notice: options.notice,
    shown,
    prompt: t.shop.chooseCategory,
    items: shown.items.map((category) => listedItem(category, undefined, undefined)),
    menu: select(
      shopRoutes.chooseCategory.build(owner, { server: s }),
      t.shop.chooseCategoryPlaceholder,
      shown.items.map((category) => ({ value: shortRef(category.id), label: category.name })),
    ),
    pager: pagerRow(t, shown, (target) => shopRoutes.categoryPage.build(owner, { server: s, page: target }), back),
  });
}

/**
 * A category's products. `lowest` gives a product's lowest price when the offer cache already
 * holds its variants (shown as "from …"); the list never makes the store read them.
 */
export function productListView(
  t: Messages,
  locale: Locale,
  owner: string,
  server: Server,
  category: Category,
  page: number,
  options: { lowest?: (product: Product) => number | undefined; notice?: string | undefined } = {},
): View {
  const s = shortRef(server.id);
  const c = shortRef(category.id);
  const back = [button(shopRoutes.categoryPage.build(owner, { server: s, page: 0 }), t.common.back)];
  const title = breadcrumb(t, server.name, category.name);
  if (category.products.length === 0) return emptyScreen(title, t.shop.noProducts, options.notice, back);
  const shown = paginate(category.products, page, SHOP_PAGE_SIZE);
  const priceOf = (product: Product): string | undefined => {
    const lowest = options.lowest?.(product);
    return lowest === undefined ? undefined : t.shop.priceFrom(formatPln(lowest, locale));
  };
  return listScreen(t, {
    title,
    notice: options.notice,
    shown,
    prompt: t.shop.chooseProduct,
    items: shown.items.map((product) => listedItem(product, product.descriptions?.short, priceOf(product))),
    menu: select(
      shopRoutes.chooseProduct.build(owner, { server: s, category: c }),
      t.shop.chooseProductPlaceholder,
      shown.items.map((product) => ({
        value: shortRef(product.id),
        label: product.name,
        ...(product.descriptions?.short ? { description: product.descriptions.short } : {}),
      })),
    ),
    pager: pagerRow(t, shown, (target) => shopRoutes.productPage.build(owner, { server: s, category: c, page: target }), back),
  });
}

/** The product's picture large (when the store gives one Discord can show), then its short description. */
function productShowcase(product: Product): Part[] {
  const pic = picture(product.imageUrl, product.name);
  const about = description(product.descriptions?.short, PRODUCT_DESCRIPTION, false);
  return [...(pic ? [gallery([pic])] : []), ...(about ? [text(about)] : [])];
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
  const showcase = productShowcase(path.product);
  if (variants.length === 0) {
    return screen({ accent: SHOP_COLOR, title, warning: notice, body: [...showcase, text(t.shop.noVariants)], controls: [row(...back)] });
  }
  // Variants are chosen in the menu only (prices in its options), so a page holds a whole menu.
  const shown = paginate(variants, page);
  return screen({
    accent: SHOP_COLOR,
    title,
    subtitle: prompt(t, shown, t.shop.chooseVariant),
    warning: notice,
    body: showcase,
    controls: [
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
      pagerRow(t, shown, (target) => shopRoutes.variantPage.build(owner, { server: s, category: c, product: p, page: target }), back),
    ],
  });
}
