import { route } from '../routes.js';

/** The gift DM's button: pressed in the DM itself, so its route is declared for DMs; handled by commands/checkout. */
export const giftRoutes = {
  optOut: route('gift.optOut', { kind: 'button', scope: 'gift', code: 'off', inDms: true, params: {} }),
};
