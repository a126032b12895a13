import { param, route, type Param } from '../../src/discord/routes.js';

/** The buyer's "My payment links" screen, reached from the cart (its ids live in the cart's scope). */
const page = param.int(10_000);
/** A link reference as the repository makes them: 8 characters of Crockford base32. */
const linkId: Param<string> = { maxLength: 8, encode: (value) => value, decode: (text) => (/^[0-9A-Z]{8}$/.test(text) ? text : undefined) };

export const myLinksRoutes = {
  list: route('myLinks.list', { kind: 'button', scope: 'cart', code: 'links', params: { page } }),
  /** The select of pending links to send to the DMs again. */
  resend: route('myLinks.resend', { kind: 'stringSelect', scope: 'cart', code: 'resend', params: { page } }),
  /** "Buy again" under one link: its items go back into the cart. */
  buyAgain: route('myLinks.buyAgain', { kind: 'button', scope: 'cart', code: 'again', params: { page, link: linkId } }),
};
