import { route } from '../../src/discord/routes.js';

/** Every way into checkout from a component: the cart's buttons and the nick form. */
export const checkoutRoutes = {
  /** The cart's "Checkout" button. */
  fromCart: route('checkout.fromCart', { kind: 'button', scope: 'cart', code: 'co', params: {} }),
  /** The cart's "Change nick" button: asks for the nick even when one is remembered. */
  changeNick: route('checkout.changeNick', { kind: 'button', scope: 'cart', code: 'nick', params: {} }),
  /** The nick form's answer. */
  nickForm: route('checkout.nickForm', { kind: 'modal', scope: 'co', code: 'nick', params: {}, fields: { nick: 'nick' } }),
};
