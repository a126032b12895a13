import { param, route } from '../../src/discord/routes.js';
import { QUANTITY_FIELDS } from '../../src/discord/views/quantity-picker.js';

/**
 * Every component of the shop's menus, by what it does. Store entries travel as short references
 * (`server`, `category`, `product`, `variant`); the codes are the ones ids in members' hands carry.
 */

const page = param.int(10_000);
const { ref } = param;

export const shopRoutes = {
  serverPage: route('shop.serverPage', { kind: 'button', scope: 'shop', code: 'srvp', params: { page } }),
  chooseServer: route('shop.chooseServer', { kind: 'stringSelect', scope: 'shop', code: 'srv', params: {} }),
  categoryPage: route('shop.categoryPage', { kind: 'button', scope: 'shop', code: 'catp', params: { server: ref, page } }),
  chooseCategory: route('shop.chooseCategory', { kind: 'stringSelect', scope: 'shop', code: 'cat', params: { server: ref } }),
  productPage: route('shop.productPage', { kind: 'button', scope: 'shop', code: 'prdp', params: { server: ref, category: ref, page } }),
  chooseProduct: route('shop.chooseProduct', { kind: 'stringSelect', scope: 'shop', code: 'prd', params: { server: ref, category: ref } }),
  variantPage: route('shop.variantPage', { kind: 'button', scope: 'shop', code: 'varp', params: { server: ref, category: ref, product: ref, page } }),
  chooseVariant: route('shop.chooseVariant', { kind: 'stringSelect', scope: 'shop', code: 'var', params: { server: ref, category: ref, product: ref } }),
  /** The quantity select under a variant (or its "Other amount…" choice). */
  chooseQuantity: route('shop.chooseQuantity', { kind: 'stringSelect', scope: 'shop', code: 'qty', params: { server: ref, category: ref, product: ref, variant: ref } }),
  /** The "Other amount…" modal's answer. */
  typeQuantity: route('shop.typeQuantity', {
    kind: 'modal',
    scope: 'shop',
    code: 'qtym',
    params: { server: ref, category: ref, product: ref, variant: ref },
    fields: QUANTITY_FIELDS,
  }),
  addToCart: route('shop.addToCart', {
    kind: 'button',
    scope: 'shop',
    code: 'add',
    params: { server: ref, category: ref, product: ref, variant: ref, quantity: param.int(99) },
  }),
  /** The "best matches" menu of a typed search; its values are item references (services/offer-search.ts). */
  pickFound: route('shop.pickFound', { kind: 'stringSelect', scope: 'shop', code: 'find', params: {} }),
  /** "Browse the shop" under search results: the first screen of /shop. */
  browse: route('shop.browse', { kind: 'button', scope: 'shop', code: 'brw', params: {} }),
  /** "Open shop" on the member's empty cart. */
  openFromCart: route('shop.openFromCart', { kind: 'button', scope: 'cart', code: 'shop', params: {} }),
  /** "Open shop" on the public panel: anyone may press it. */
  openFromPanel: route('shop.openFromPanel', { kind: 'button', scope: 'panel', code: 'shop', access: 'anyone', params: {} }),
  /** "Buy" under a purchase in the public purchase feed: anyone may press it, and gets that variant's quantity screen. */
  buyFromFeed: route('shop.buyFromFeed', { kind: 'button', scope: 'feed', code: 'buy', access: 'anyone', params: { server: ref, category: ref, product: ref, variant: ref } }),
};
