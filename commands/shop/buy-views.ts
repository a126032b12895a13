import { ButtonStyle } from 'discord.js';
import { lowestPrice, type PricedVariant } from '../../src/cart/pricing.js';
import { MAX_QUANTITY } from '../../src/cart/rules.js';
import type { View } from '../../src/discord/respond.js';
import { button, row } from '../../src/discord/views/components.js';
import { picture, screen, section } from '../../src/discord/views/display.js';
import { quantitySelect } from '../../src/discord/views/quantity-picker.js';
import { formatPln, type Locale, type Messages } from '../../src/i18n/index.js';
import type { OfferPath, VariantChoice } from '../../src/services/catalog.js';
import { shortRef } from '../../src/services/short-ref.js';
import { cartRoutes } from '../cart/routes.js';
import { shopRoutes } from './routes.js';
import { breadcrumb, SHOP_COLOR, storeName } from './views.js';

/**
 * The shop's buying screens, after a variant is chosen: the quantity screen (prices by payment
 * method, the total, Add to cart) and the note of what was added. Pure functions of the offer.
 */

/** Payment methods listed on the quantity screen (a store offers a handful). */
const METHODS_SHOWN = 10;

/** Each payment method's price for one unit (SMS cannot pay for a cart), cheapest first, a method once. */
function methodPrices(priced: PricedVariant): { name: string; amountGrosze: number }[] {
  const byMethod = new Map<string, { name: string; amountGrosze: number }>();
  for (const price of priced.prices) {
    if (price.sms || byMethod.has(price.method)) continue;
    byMethod.set(price.method, { name: price.name, amountGrosze: price.amountGrosze });
  }
  return [...byMethod.values()].sort((a, b) => a.amountGrosze - b.amountGrosze || a.name.localeCompare(b.name)).slice(0, METHODS_SHOWN);
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
  const prices = methodPrices(choice.priced);
  const summary = [
    ...(prices.length > 0 ? [`**${t.quantity.pricesByMethod}**`, ...prices.map((price) => `${storeName(price.name)}: ${formatPln(price.amountGrosze, locale)}`)] : []),
    `**${t.quantity.quantity}:** ${quantity}`,
    ...(lowest !== undefined ? [`**${t.quantity.total}:** ${t.shop.priceFrom(formatPln(lowest * quantity, locale))}`] : []),
  ];
  return screen({
    accent: SHOP_COLOR,
    title: t.quantity.title(storeName(path.product.name), storeName(choice.variant.name)),
    subtitle: breadcrumb(t, path.server.name, path.category.name),
    warning: notice,
    body: [section([summary.join('\n')], picture(path.product.imageUrl, path.product.name))],
    controls: [
      row(quantitySelect(t, shopRoutes.chooseQuantity.build(owner, at), quantity)),
      row(
        button(shopRoutes.addToCart.build(owner, { ...at, quantity }), t.quantity.addToCart, ButtonStyle.Success),
        button(shopRoutes.variantPage.build(owner, { ...at, page: variantPage }), t.common.back),
      ),
    ],
  });
}

export function addedView(
  t: Messages,
  owner: string,
  added: {
    quantity: number;
    lineQuantity: number;
    variantName: string;
    productName: string;
    capped: boolean;
    cartLines: number;
    /** The product's picture, beside what was added. */
    imageUrl?: string | null | undefined;
  },
  continueAt: { server: string; category: string },
): View {
  const lines = [
    `**${t.added.line(added.quantity, storeName(added.variantName), storeName(added.productName))}**`,
    ...(added.capped ? [t.added.capped(MAX_QUANTITY)] : added.lineQuantity !== added.quantity ? [t.added.lineTotal(added.lineQuantity)] : []),
    t.added.cartSize(added.cartLines),
  ];
  return screen({
    accent: SHOP_COLOR,
    title: `✅ ${t.added.title}`,
    body: [section([lines.join('\n')], picture(added.imageUrl, added.productName))],
    controls: [
      row(
        button(cartRoutes.view.build(owner, {}), t.added.viewCart, ButtonStyle.Primary),
        button(shopRoutes.productPage.build(owner, { ...continueAt, page: 0 }), t.added.continueShopping),
      ),
    ],
  });
}
