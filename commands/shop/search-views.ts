import { ButtonStyle } from 'discord.js';
import { lowestPrice } from '../../src/cart/pricing.js';
import type { View } from '../../src/discord/respond.js';
import { clip, LIMITS, plain } from '../../src/discord/text.js';
import { button, row, select } from '../../src/discord/views/components.js';
import { screen, text } from '../../src/discord/views/display.js';
import { formatPln, type Locale, type Messages } from '../../src/i18n/index.js';
import { pricedVariant } from '../../src/services/catalog.js';
import { itemRef } from '../../src/services/offer-search.js';
import type { SearchHit, SearchTarget } from '../../src/services/search.js';
import type { Variant } from '../../src/spaceis/schemas.js';
import { shopRoutes } from './routes.js';
import { listedItem, SHOP_COLOR, SHOP_PAGE_SIZE } from './views.js';

/** What search shows: suggestions' labels, the "best matches" menu, and "nothing found". */

/** "VIP — 30 dni" for a variant, "VIP" for a product. */
function itemName(target: SearchTarget): string {
  return target.variant ? `${target.product.name} — ${target.variant.name}` : target.product.name;
}

/** The variant's lowest price, or for a product the lowest of its variants the cache holds (`variantsOf`). */
export function lowestOf(target: SearchTarget, variantsOf: (target: SearchTarget) => readonly Variant[] | undefined): number | undefined {
  const variants = target.variant ? [target.variant] : variantsOf(target);
  let lowest: number | undefined;
  for (const variant of variants ?? []) {
    const price = lowestPrice(pricedVariant(variant));
    if (price !== undefined && (lowest === undefined || price < lowest)) lowest = price;
  }
  return lowest;
}

/**
 * An autocomplete suggestion: `Product — variant · server`, with the lowest price when the whole
 * label still fits Discord's 100 characters (names are clipped before the server is dropped).
 */
export function suggestionLabel(t: Messages, locale: Locale, target: SearchTarget, lowest: number | undefined): string {
  const base = `${itemName(target)} · ${target.server.name}`;
  const priced = lowest === undefined ? base : `${base} · ${t.shop.priceFrom(formatPln(lowest, locale))}`;
  if (Array.from(priced).length <= LIMITS.choiceName) return priced;
  if (Array.from(base).length <= LIMITS.choiceName) return base;
  const server = ` · ${clip(target.server.name, 30)}`;
  return `${clip(itemName(target), LIMITS.choiceName - Array.from(server).length)}${server}`;
}

/**
 * The best matches of a typed query: the first ones listed as the shop lists products (name, server,
 * "from" price, picture), every match in the menu that opens it.
 */
export function searchResultsView(
  t: Messages,
  locale: Locale,
  owner: string,
  query: string,
  hits: { hit: SearchHit; lowest: number | undefined }[],
  partial: boolean,
): View {
  const asked = plain(clip(query, 100));
  const listed = hits.slice(0, SHOP_PAGE_SIZE).map(({ hit, lowest }) =>
    listedItem({ name: itemName(hit.target), imageUrl: hit.target.product.imageUrl }, hit.target.server.name, lowest === undefined ? undefined : t.shop.priceFrom(formatPln(lowest, locale))),
  );
  return screen({
    accent: SHOP_COLOR,
    title: `${t.shop.title} › ${t.search.title}`,
    subtitle: partial ? t.search.closest(asked) : t.search.results(asked),
    body: listed,
    controls: [
      row(
        select(
          shopRoutes.pickFound.build(owner, {}),
          t.search.placeholder,
          hits.map(({ hit, lowest }) => ({
            value: itemRef(hit.target),
            label: itemName(hit.target),
            description: lowest === undefined ? hit.target.server.name : `${hit.target.server.name} · ${t.shop.priceFrom(formatPln(lowest, locale))}`,
          })),
        ),
      ),
      row(button(shopRoutes.browse.build(owner, {}), t.search.browse)),
    ],
  });
}

export function nothingFoundView(t: Messages, owner: string, query: string): View {
  return screen({
    accent: SHOP_COLOR,
    title: `${t.shop.title} › ${t.search.title}`,
    body: [text(t.search.nothing(plain(clip(query, 100))))],
    controls: [row(button(shopRoutes.browse.build(owner, {}), t.search.browse, ButtonStyle.Primary))],
  });
}
