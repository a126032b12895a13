import { param, route } from '../../src/discord/routes.js';

const page = param.int(1_000);

/** The admins' forms and menus under /shop-admin. */
export const adminRoutes = {
  /** The license key form. */
  licenseForm: route('admin.licenseForm', { kind: 'modal', scope: 'adm', code: 'lic', params: {}, fields: { key: 'key' } }),
  /**
   * The select of servers the shop offers, one page (25) of them: saving it changes only that
   * page's servers. `drawn` is a short reference to the page's servers as drawn (servers.ts), so a
   * page the store's list has shifted under is not saved over servers the admin never saw.
   */
  chooseServers: route('admin.chooseServers', { kind: 'stringSelect', multiple: true, scope: 'adm', code: 'srv', params: { page, drawn: param.ref } }),
  /** Previous / Next under the servers select. */
  serversPage: route('admin.serversPage', { kind: 'button', scope: 'adm', code: 'srvp', params: { page } }),
  /** "Switch to the demo" when the guild has its own license, and its Cancel. */
  confirmDemo: route('admin.confirmDemo', { kind: 'button', scope: 'adm', code: 'demo', params: {} }),
  cancelDemo: route('admin.cancelDemo', { kind: 'button', scope: 'adm', code: 'demon', params: {} }),
};
