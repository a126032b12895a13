import { param, route } from '../../src/discord/routes.js';

/** Every way into checkout from a component: the cart's buttons and the nick form. */
export const checkoutRoutes = {
  /** The cart's "Checkout" button. */
  fromCart: route('checkout.fromCart', { kind: 'button', scope: 'cart', code: 'co', params: {} }),
  /** The cart's "Change nick" button: asks for the nick even when one is remembered. */
  changeNick: route('checkout.changeNick', { kind: 'button', scope: 'cart', code: 'nick', params: {} }),
  /**
   * "Continue with the new prices", after checkout showed prices that went up: checks out with the
   * nick it was asked for, if the offer is still what was shown (`shown`: src/cart/price-changes.ts,
   * offerDigest, 8 base64url characters like a short ref).
   */
  acceptPrices: route('checkout.acceptPrices', { kind: 'button', scope: 'co', code: 'ok2', params: { nick: param.nick, shown: param.ref } }),
  /** The same for a gift: the recipient member travels too (`0`: a player chosen by nick alone). */
  acceptGiftPrices: route('checkout.acceptGiftPrices', { kind: 'button', scope: 'co', code: 'okg2', params: { nick: param.nick, member: param.snowflake, shown: param.ref } }),
  /** The cart's "Gift" button: who is it for? */
  giftChoice: route('checkout.giftChoice', { kind: 'button', scope: 'cart', code: 'gift', params: {} }),
  /** A member of this server, picked in a user select. */
  giftMember: route('checkout.giftMember', { kind: 'userSelect', scope: 'co', code: 'gm', params: {} }),
  /** "A player by nick": the gift's nick form. */
  giftByNick: route('checkout.giftByNick', { kind: 'button', scope: 'co', code: 'gn', params: {} }),
  /** The gift's nick form: for a member whose nick the bot does not know, or (`0`) a player by nick. */
  giftNickForm: route('checkout.giftNickForm', { kind: 'modal', scope: 'co', code: 'gnf', params: { member: param.snowflake }, fields: { nick: 'nick' } }),
  /** The nick form's answer. */
  nickForm: route('checkout.nickForm', { kind: 'modal', scope: 'co', code: 'nick', params: {}, fields: { nick: 'nick' } }),
};
