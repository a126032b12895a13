import { param, route } from '../../src/discord/routes.js';

/** The buyer's "My payment links" screen, reached from the cart (its ids live in the cart's scope). */
const page = param.int(10_000);

export const myLinksRoutes = {
  list: route('myLinks.list', { scope: 'cart', code: 'links', params: { page } }),
  /** The select of pending links to send to the DMs again. */
  resend: route('myLinks.resend', { scope: 'cart', code: 'resend', params: { page } }),
};
