import { param, route } from '../../src/discord/routes.js';

/** The cart's components. A cart line travels as the short reference of its variant (`line`). */

const { ref } = param;

export const cartRoutes = {
  view: route('cart.view', { scope: 'cart', code: 'view', params: {} }),
  /** The select that picks a line to edit. */
  chooseLine: route('cart.chooseLine', { scope: 'cart', code: 'line', params: {} }),
  chooseLineQuantity: route('cart.chooseLineQuantity', { scope: 'cart', code: 'lqty', params: { line: ref } }),
  typeLineQuantity: route('cart.typeLineQuantity', { scope: 'cart', code: 'lqtym', params: { line: ref } }),
  removeLine: route('cart.removeLine', { scope: 'cart', code: 'rm', params: { line: ref } }),
  /** "Clear cart", which asks first. */
  askClear: route('cart.askClear', { scope: 'cart', code: 'clr', params: {} }),
  confirmClear: route('cart.confirmClear', { scope: 'cart', code: 'clry', params: {} }),
  /** "My cart" on the public panel: anyone may press it. */
  openFromPanel: route('cart.openFromPanel', { scope: 'panel', code: 'cart', access: 'anyone', params: {} }),
};
