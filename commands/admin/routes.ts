import { route } from '../../src/discord/routes.js';

/** The admins' forms and menus under /shop-admin. */
export const adminRoutes = {
  /** The license key form. */
  licenseForm: route('admin.licenseForm', { scope: 'adm', code: 'lic', params: {} }),
  /** The select of servers the shop offers. */
  chooseServers: route('admin.chooseServers', { scope: 'adm', code: 'srv', params: {} }),
  /** "Switch to the demo" when the guild has its own license, and its Cancel. */
  confirmDemo: route('admin.confirmDemo', { scope: 'adm', code: 'demo', params: {} }),
  cancelDemo: route('admin.cancelDemo', { scope: 'adm', code: 'demon', params: {} }),
};
