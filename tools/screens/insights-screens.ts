import { digestView, insightsView } from '../../commands/admin/insights-views.js';
import { logEventView } from '../../src/discord/views/log.js';
import type { Messages } from '../../src/i18n/index.js';
import type { Locale } from '../../src/i18n/locale.js';
import { createChartRenderer } from '../../src/services/insights/chart/index.js';
import type { RenderedReport } from '../../src/services/insights/insights.js';
import { DAY_MS, dayOf, daysEnding, STEPS } from '../../src/services/insights/keys.js';
import type { InsightsReport } from '../../src/services/insights/report.js';
import type { View } from '../../src/discord/respond.js';

/**
 * The insights' screens (/shop-admin insights: Overview, Products, Searches) and the weekly digest
 * post, from a made-up month of a small shop, with the chart drawn by the bot's own renderer.
 */

const OWNER = '100000000000000001';

/** A screen as catalogue.ts lists it (its Screen, written out here so the two files do not import each other). */
interface InsightsScreenEntry {
  id: string;
  view: string;
  audience: 'admins';
  caption: string;
  place: 'ephemeral' | 'channel';
  message: View;
}

export interface InsightsProducts {
  server: string;
  /** Product ids and names from the demo offer, best-selling first. */
  products: { id: string; name: string }[];
}

/** A shop's month: sales rising towards the weekend, a few searches for what it lacks. */
function month(now: number, days: number, shop: InsightsProducts): InsightsReport {
  const list = daysEnding(dayOf(now), days);
  const daily = list.map((day, index) => {
    const weekend = new Date(`${day}T00:00:00Z`).getUTCDay() % 6 === 0;
    const orders = (index * 7) % 5 + (weekend ? 4 : 1);
    return { day, orders, paidGrosze: orders * 2_499 + (index % 3) * 1_000, linksIssued: orders * 2 + (index % 4), products: [] };
  });
  const grosze = daily.reduce((sum, day) => sum + day.paidGrosze, 0);
  const orders = daily.reduce((sum, day) => sum + day.orders, 0);
  const issued = daily.reduce((sum, day) => sum + day.linksIssued, 0);
  const shares = [0.46, 0.22, 0.15, 0.1, 0.07];
  const funnel = [412, 268, 141, issued > 0 ? 118 : 0, 83];
  return {
    period: days === 7 ? '7d' : '30d',
    server: '',
    days: list,
    paid: { grosze, orders, previousGrosze: Math.round(grosze * 0.87), previousOrders: orders - 9 },
    funnel: STEPS.map((step, index) => ({ step, members: funnel[index]! })),
    products: shop.products.slice(0, 5).map((product, index) => ({
      server: shop.server,
      product: product.id,
      orders: Math.round(orders * shares[index]!),
      grosze: Math.round(grosze * shares[index]!),
      previousGrosze: index === 2 ? 0 : Math.round(grosze * shares[index]! * (1.1 - index * 0.08)),
      previousOrders: 3,
    })),
    sources: [
      { source: 'shop', orders: Math.round(orders * 0.5), grosze: Math.round(grosze * 0.5) },
      { source: 'panel', orders: Math.round(orders * 0.25), grosze: Math.round(grosze * 0.24) },
      { source: 'feed', orders: Math.round(orders * 0.12), grosze: Math.round(grosze * 0.13) },
      { source: 'search', orders: Math.round(orders * 0.08), grosze: Math.round(grosze * 0.08) },
      { source: 'gift', orders: Math.round(orders * 0.05), grosze: Math.round(grosze * 0.05) },
    ],
    times: { paid: orders, medianMin: 5, p90Min: 30, issued, unpaidShare: 1 - orders / issued },
    words: [
      { word: 'elytra', members: 14 },
      { word: 'klucz mityczny', members: 9 },
      { word: 'sethome', members: 5 },
      { word: 'netherite', members: 3 },
    ],
    daily,
  };
}

export async function insightsScreens(t: Messages, locale: Locale, now: number, shop: InsightsProducts): Promise<InsightsScreenEntry[]> {
  const renderer = createChartRenderer();
  try {
    const draw = async (report: InsightsReport): Promise<RenderedReport> => ({
      report,
      chart: await renderer.render({ days: report.daily.map(({ day, paidGrosze, linksIssued }) => ({ day, paidGrosze, linksIssued })), locale, words: t.insights.chartWords, title: t.insights.chartTitle }),
      madeAt: now,
    });
    const thirty = await draw(month(now, 30, shop));
    // The digest's Monday: the week before it ends on the Sunday before.
    const monday = dayOf(now - ((new Date(now).getUTCDay() + 6) % 7) * DAY_MS);
    const week = await draw(month(Date.parse(`${monday}T00:00:00Z`) - DAY_MS, 7, shop));
    const productName = (_server: string, product: string) => shop.products.find((candidate) => candidate.id === product)?.name;
    const screen = (view: 'overview' | 'products' | 'searches') =>
      insightsView({ t, locale, rendered: thirty, view, controls: { period: 1, server: '' }, owner: OWNER, serverName: undefined, productName });
    const admin = (id: string, view: string, caption: string, message: View, place: InsightsScreenEntry['place'] = 'ephemeral'): InsightsScreenEntry => ({ id, view, audience: 'admins', caption, place, message });
    return [
      admin('admin-insights', 'insightsView', '/shop-admin insights: the overview of the last 30 days, with its chart', screen('overview')),
      admin('admin-insights-products', 'insightsView', '/shop-admin insights: Products', screen('products')),
      admin('admin-insights-searches', 'insightsView', '/shop-admin insights: Searches that found nothing', screen('searches')),
      admin('insights-digest', 'digestView', "The weekly digest in the staff channel, Monday 09:00 in the server's time zone", digestView(t, { rendered: week, monday, locale, productName }), 'channel'),
      admin('log-digest-refused', 'logEventView', 'Log channel: the weekly digest channel refused the bot', logEventView(t, { kind: 'digest-refused', channelId: '300000000000000012' }), 'channel'),
    ];
  } finally {
    await renderer.close();
  }
}
