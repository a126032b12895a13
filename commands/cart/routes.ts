import { param, route } from '../../src/discord/routes.js';
import { QUANTITY_FIELDS } from '../../src/discord/views/quantity-picker.js';

/** The cart's components. A cart line travels as the short reference of its variant (`line`). */

const { ref } = param;

export const cartRoutes = {
  view: route('cart.view', { kind: 'button', scope: 'cart', code: 'view', params: {} }),
  /** The select that picks a line to edit. */
  chooseLine: route('cart.chooseLine', { kind: 'stringSelect', scope: 'cart', code: 'line', params: {} }),
  chooseLineQuantity: route('cart.chooseLineQuantity', { kind: 'stringSelect', scope: 'cart', code: 'lqty', params: { line: ref } }),
  typeLineQuantity: route('cart.typeLineQuantity', { kind: 'modal', scope: 'cart', code: 'lqtym', params: { line: ref }, fields: QUANTITY_FIELDS }),
  removeLine: route('cart.removeLine', { kind: 'button', scope: 'cart', code: 'rm', params: { line: ref } }),
  /** "Clear cart", which asks first. */
  askClear: route('cart.askClear', { kind: 'button', scope: 'cart', code: 'clr', params: {} }),
  confirmClear: route('cart.confirmClear', { kind: 'button', scope: 'cart', code: 'clry', params: {} }),
  /** "My cart" on the public panel: anyone may press it. */
  openFromPanel: route('cart.openFromPanel', { kind: 'button', scope: 'panel', code: 'cart', access: 'anyone', params: {} }),
};
