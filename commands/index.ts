import type { Feature } from '../src/discord/feature.js';
import { adminFeature } from './admin/index.js';
import { cartFeature } from './cart/index.js';
import { checkoutFeature } from './checkout/index.js';
import { checkLinkFeature } from './check-link/index.js';
import { linksFeature } from './links/index.js';
import { myLinksFeature } from './my-links/index.js';
import { redeemFeature } from './redeem/index.js';
import { shopFeature } from './shop/index.js';
import { topFeature } from './top/index.js';

/**
 * Every feature the bot has, one folder each. Only the composition root (src/app.ts) reads this
 * list: the router takes the features' commands and routes from it, and so does registration.
 */
/** The shop panel's editor, for the panels' goal refresher the composition root schedules. */
export { panelEditor } from './admin/panel.js';

export const features: readonly Feature[] = [shopFeature, cartFeature, checkoutFeature, myLinksFeature, adminFeature, linksFeature, topFeature, redeemFeature, checkLinkFeature];
