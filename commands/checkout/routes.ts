import { param, route } from '../../src/discord/routes.js';

/** Every way into checkout from a component: the cart's buttons and the nick form. */
export const checkoutRoutes = {
  /** The cart's "Checkout" button. */
  fromCart: route('checkout.fromCart', { kind: 'button', scope: 'cart', code: 'co', params: {} }),
  /** The cart's "Change nick" button: asks for the nick even when one is remembered. */
  changeNick: route('checkout.changeNick', { kind: 'button', scope: 'cart', code: 'nick', params: {} }),
  /** "Continue with the new prices", after checkout showed prices that went up: checks out with the nick it was asked for. */
  acceptPrices: route('checkout.acceptPrices', { kind: 'button', scope: 'co', code: 'ok', params: { nick: param.nick } }),
  /** The nick form's answer. */
  nickForm: route('checkout.nickForm', { kind: 'modal', scope: 'co', code: 'nick', params: {}, fields: { nick: 'nick' } }),
};
