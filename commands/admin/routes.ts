import { route } from '../../src/discord/routes.js';

/** The admins' forms and menus under /shop-admin. */
export const adminRoutes = {
  /** The license key form. */
  licenseForm: route('admin.licenseForm', { kind: 'modal', scope: 'adm', code: 'lic', params: {}, fields: { key: 'key' } }),
  /** The select of servers the shop offers. */
  chooseServers: route('admin.chooseServers', { kind: 'stringSelect', multiple: true, scope: 'adm', code: 'srv', params: {} }),
  /** "Switch to the demo" when the guild has its own license, and its Cancel. */
  confirmDemo: route('admin.confirmDemo', { kind: 'button', scope: 'adm', code: 'demo', params: {} }),
  cancelDemo: route('admin.cancelDemo', { kind: 'button', scope: 'adm', code: 'demon', params: {} }),
};
