import { param, route, type Param } from '../../src/discord/routes.js';

const page = param.int(1_000);
/** A link reference as the repository makes them: 8 characters of Crockford base32. */
const linkId: Param<string> = { maxLength: 8, encode: (value) => value, decode: (text) => (/^[0-9A-Z]{8}$/.test(text) ? text : undefined) };

/** A server of the insights as a short reference, or `.` for the whole shop (''). */
const insightsServer: Param<string> = {
  maxLength: 8,
  encode: (value) => value || '.',
  decode: (text) => (text === '.' ? '' : /^[A-Za-z0-9_-]{8}$/.test(text) ? text : undefined),
};
/** The period's place in PERIODS (one digit; a number past the list reads as the default period). */
const insightsPeriod = param.int(9);

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
  /** The insights' Overview / Products / Searches select, and its CSV button (insights.ts). */
  insightsView: route('admin.insightsView', { kind: 'stringSelect', scope: 'adm', code: 'ins', params: { period: insightsPeriod, server: insightsServer } }),
  insightsCsv: route('admin.insightsCsv', { kind: 'button', scope: 'adm', code: 'insc', params: { period: insightsPeriod, server: insightsServer } }),
  /** "Switch to the demo" when the guild has its own license, and its Cancel. */
  confirmDemo: route('admin.confirmDemo', { kind: 'button', scope: 'adm', code: 'demo', params: {} }),
  cancelDemo: route('admin.cancelDemo', { kind: 'button', scope: 'adm', code: 'demon', params: {} }),
  /**
   * "Give role" under a log post about a role for buyers held back (the link's nick was not only the
   * buyer's): anyone in the log channel may press it; the handler asks for Manage Roles (rewards-give.ts).
   */
  giveRole: route('admin.giveRole', { kind: 'button', scope: 'rwd', code: 'give', access: 'anyone', params: { link: linkId, role: param.snowflake } }),
};
