import { ButtonStyle } from 'discord.js';
import type { View } from '../../src/discord/respond.js';
import { clip, plain } from '../../src/discord/text.js';
import { button, linkButton, row, select } from '../../src/discord/views/components.js';
import { gallery, screen, separator, small, text, type Part } from '../../src/discord/views/display.js';
import type { Messages } from '../../src/i18n/index.js';
import type { Locale } from '../../src/i18n/locale.js';
import { formatPln } from '../../src/i18n/money.js';
import type { DigestContent } from '../../src/services/insights/digest.js';
import type { RenderedReport } from '../../src/services/insights/insights.js';
import { change, type InsightsReport } from '../../src/services/insights/report.js';
import { ADMIN_COLOR } from './colors.js';
import { adminRoutes } from './routes.js';

/** The insights' three screens: Overview, Products, Searches. */
export const INSIGHTS_VIEWS = ['overview', 'products', 'searches'] as const;
export type InsightsView = (typeof INSIGHTS_VIEWS)[number];

/** Where the store's own panel is: the whole shop, website purchases included. */
export const STORE_PANEL_URL = 'https://spaceis.pl';
export const CHART_FILE = 'insights.png';

export interface InsightsScreen {
  t: Messages;
  locale: Locale;
  rendered: RenderedReport;
  view: InsightsView;
  /** The period's index in PERIODS and the server's short reference ('' for the whole shop): what the controls carry. */
  controls: { period: number; server: string };
  /** Who the controls are for (the admin who asked); none: the weekly digest, posted without them. */
  owner: string | undefined;
  /** The weekly digest's week (its first and last day, written out): its own title, in a channel. */
  digest?: { from: string; to: string };
  /** The server's name, when the report is for one. */
  serverName: string | undefined;
  /** A product's name as the offer cache has it (undefined: no longer in the offer). */
  productName: (server: string, product: string) => string | undefined;
}

/** One screen of the insights: the headline first, then the chosen view, the chart, the controls. */
export function insightsView(input: InsightsScreen): View {
  const { t, locale, rendered, view } = input;
  const { report } = rendered;
  const i = t.insights;
  const period = i.periods[report.period];
  const body: Part[] = [text(headline(input)), small(rendered.countingOff ? `${i.throughBot} ${i.countingOff}` : i.throughBot), separator()];
  if (view === 'overview') {
    body.push(text(funnel(input)), text(products(input, 5)), text(sources(input)), text(times(input)), text(words(input, 5)));
  } else if (view === 'products') {
    body.push(text(products(input, 20)), text(sources(input)));
  } else {
    body.push(text(words(input, 25)));
  }
  const files = [];
  if (view === 'overview') {
    if (rendered.chart) {
      body.push(gallery([{ url: `attachment://${CHART_FILE}`, description: chartAlt(input) }]));
      files.push({ name: CHART_FILE, data: rendered.chart, contentType: 'image/png' });
    } else body.push(small(i.chartUnavailable));
  }
  const ids = input.controls;
  const owner = input.owner;
  const panelLink = linkButton(STORE_PANEL_URL, i.panelLink);
  const shown = screen({
    accent: ADMIN_COLOR,
    title: input.digest ? i.digestTitle : i.title,
    subtitle: input.digest ? i.digestWeek(input.digest.from, input.digest.to) : i.subtitle(period, input.serverName ? plain(input.serverName) : undefined),
    body,
    controls: owner
      ? [
          row(select(adminRoutes.insightsView.build(owner, ids), i.viewPlaceholder, INSIGHTS_VIEWS.map((value) => ({ value, label: i.views[value], ...(value === view ? { default: true } : {}) })))),
          row(button(adminRoutes.insightsCsv.build(owner, ids), i.csvButton, ButtonStyle.Secondary), panelLink),
        ]
      : [row(panelLink)],
  });
  return files.length > 0 ? { ...shown, files } : shown;
}

function headline({ t, locale, rendered: { report } }: InsightsScreen): string {
  const i = t.insights;
  const { grosze, orders, previousGrosze } = report.paid;
  if (orders === 0) return previousGrosze > 0 ? `${i.headlineNone}\n-# ${i.change(percent(-1, locale, true))}` : i.headlineNone;
  const shift = change(grosze, previousGrosze);
  const line = i.headline(formatPln(grosze, locale), orders, formatPln(Math.round(grosze / orders), locale));
  return `${line}\n-# ${shift === undefined ? i.changeNew : i.change(percent(shift, locale, true))}`;
}

function funnel({ t, locale, rendered: { report } }: InsightsScreen): string {
  const i = t.insights;
  const lines = report.funnel.map((step, index) => {
    const before = index > 0 ? report.funnel[index - 1]!.members : 0;
    return `- ${i.funnelLine(i.steps[step.step], step.members, before > 0 ? percent(step.members / before, locale) : undefined)}`;
  });
  return `### ${i.funnelTitle}\n${lines.join('\n')}\n-# ${i.funnelNote}`;
}

function products(input: InsightsScreen, count: number): string {
  const { t, locale, rendered: { report } } = input;
  const i = t.insights;
  if (report.products.length === 0) return `### ${i.productsTitle}\n${i.productsNone}`;
  const lines = report.products.slice(0, count).map((row, index) => {
    const shift = change(row.grosze, row.previousGrosze);
    const name = clip(plain(input.productName(row.server, row.product) ?? i.unknownProduct), 80);
    return i.productLine(index + 1, name, formatPln(row.grosze, locale), row.orders, shift === undefined ? undefined : percent(shift, locale, true));
  });
  return `### ${i.productsTitle}\n${lines.join('\n')}`;
}

function sources({ t, locale, rendered: { report } }: InsightsScreen): string {
  const i = t.insights;
  if (report.sources.length === 0) return `### ${i.sourcesTitle}\n${i.productsNone}`;
  const lines = [...report.sources].sort((a, b) => b.orders - a.orders).map((row) => `- ${i.sourceLine(i.sources[row.source], row.orders, formatPln(row.grosze, locale))}`);
  return `### ${i.sourcesTitle}\n${lines.join('\n')}\n-# ${i.sourcesNote}`;
}

function times({ t, locale, rendered: { report } }: InsightsScreen): string {
  const i = t.insights;
  const { medianMin, p90Min, unpaidShare, issued } = report.times;
  const lines = [medianMin === undefined || p90Min === undefined ? i.timesNone : i.times(i.minutes(medianMin), i.minutes(p90Min))];
  if (unpaidShare !== undefined) lines.push(i.unpaid(percent(unpaidShare, locale), issued));
  return `### ${i.timesTitle}\n${lines.join('\n')}`;
}

function words({ t, rendered: { report } }: InsightsScreen, count: number): string {
  const i = t.insights;
  if (report.words.length === 0) return `### ${i.wordsTitle}\n${i.wordsNone}`;
  const lines = report.words.slice(0, count).map((entry) => `- ${i.wordLine(plain(entry.word), entry.members)}`);
  return `### ${i.wordsTitle}\n${lines.join('\n')}\n-# ${i.wordsNote}`;
}

/** The chart's key numbers in words, for phones and screen readers. */
export function chartAlt({ t, locale, rendered: { report } }: Pick<InsightsScreen, 't' | 'locale' | 'rendered'>): string {
  const links = report.daily.reduce((sum, day) => sum + day.linksIssued, 0);
  return t.insights.chartAlt(t.insights.periods[report.period], formatPln(report.paid.grosze, locale), report.paid.orders, links);
}

function percent(value: number, locale: Locale, signed = false): string {
  return new Intl.NumberFormat(locale === 'pl' ? 'pl-PL' : 'en-GB', { style: 'percent', maximumFractionDigits: 0, ...(signed ? { signDisplay: 'exceptZero' } : {}) }).format(value);
}

export type { InsightsReport };

/** The weekly digest: last week's overview, posted in the digest channel (src/discord/insights-digest-poster.ts). */
export function digestView(t: Messages, { rendered, monday, locale, productName }: DigestContent): View {
  const day = (ms: number) => new Intl.DateTimeFormat(locale === 'pl' ? 'pl-PL' : 'en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(ms);
  const start = Date.parse(`${monday}T00:00:00Z`);
  const digest = { from: day(start - 7 * 86_400_000), to: day(start - 86_400_000) };
  return insightsView({ t, locale, rendered, view: 'overview', controls: { period: 0, server: '' }, owner: undefined, digest, serverName: undefined, productName });
}
