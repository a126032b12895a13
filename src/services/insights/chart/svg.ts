import type { ChartSeries } from './chart-data.js';
import { countLabel, dayLabel, moneyLabel, monthLabel, type ChartLocale, type ChartWords } from './labels.js';
import { countScale, dateTicks, moneyScale } from './scale.js';

/**
 * The chart as SVG text: paid złoty per day as bars against the left axis, payment links issued per
 * day as a line against the right axis, the title and a legend above. 800 × 400 px: wide enough for a
 * year of days, and Discord shows it full width on a phone. Every text is drawn in the one bundled
 * font (CHART_FONT_FAMILY), which the rasteriser is given alone, so no machine's fonts change it.
 */

export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 400;
export const CHART_FONT_FAMILY = 'DejaVu Sans';

const COLORS = { background: '#ffffff', text: '#313338', muted: '#5c5e66', grid: '#e3e5e8', axis: '#b5bac1', bars: '#5865f2', line: '#e8790c' };
const TITLE_SIZE = 18;
const TEXT_SIZE = 12;
/** DejaVu Sans's digits and most letters are about 0.63 em wide: room for a label is reserved from that. */
const EM_WIDTH = 0.63;
/** Words are narrower on average than digits: the legend's second entry is placed from this. */
const WORD_EM_WIDTH = 0.56;
const PLOT_TOP = 74;
const PLOT_BOTTOM = CHART_HEIGHT - 44;
const MAX_TITLE_CHARS = Math.floor((CHART_WIDTH - 32) / (TITLE_SIZE * EM_WIDTH));

export interface ChartPicture {
  locale: ChartLocale;
  /** The chart's words in the admin's language (src/i18n: `insights.chartWords`). */
  words: ChartWords;
  title: string;
  series: ChartSeries;
}

/** Text as XML content: escaped, and without the control characters XML cannot hold at all. */
export function xmlText(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/[\ud800-\udfff]/g, (unit, offset: number, whole: string) => {
      // A surrogate is kept only as half of a pair: a lone one is not a character XML can hold.
      const code = unit.charCodeAt(0);
      const pairs = code < 0xdc00 ? /[\udc00-\udfff]/.test(whole[offset + 1] ?? '') : /[\ud800-\udbff]/.test(whole[offset - 1] ?? '');
      return pairs ? unit : '';
    })
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The title on one line: cut with an ellipsis where it would run off the picture. */
function fittedTitle(title: string): string {
  const characters = [...title.replace(/\s+/g, ' ').trim()];
  return characters.length <= MAX_TITLE_CHARS ? characters.join('') : `${characters.slice(0, MAX_TITLE_CHARS - 1).join('').trimEnd()}…`;
}

const px = (value: number) => Math.round(value * 100) / 100;

function text(x: number, y: number, content: string, attributes = ''): string {
  return `<text x="${px(x)}" y="${px(y)}"${attributes ? ` ${attributes}` : ''}>${xmlText(content)}</text>`;
}

function legend(words: ChartWords): string {
  const y = 50;
  const paidWidth = [...words.paid].length * TEXT_SIZE * WORD_EM_WIDTH;
  const secondX = 16 + 18 + paidWidth + 24;
  return [
    `<rect x="16" y="${y - 10}" width="12" height="12" fill="${COLORS.bars}"/>`,
    text(34, y, words.paid, `fill="${COLORS.text}"`),
    `<line x1="${px(secondX)}" y1="${y - 4}" x2="${px(secondX + 16)}" y2="${y - 4}" stroke="${COLORS.line}" stroke-width="3" stroke-linecap="round"/>`,
    text(secondX + 22, y, words.links, `fill="${COLORS.text}"`),
  ].join('');
}

/** The whole picture, as one SVG document. */
export function chartSvg({ locale, words, title, series }: ChartPicture): string {
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" font-family="${CHART_FONT_FAMILY}" font-size="${TEXT_SIZE}">`,
    `<rect width="${CHART_WIDTH}" height="${CHART_HEIGHT}" fill="${COLORS.background}"/>`,
    text(16, 28, fittedTitle(title), `font-size="${TITLE_SIZE}" fill="${COLORS.text}"`),
    legend(words),
  ];
  if (series.days.length === 0) {
    parts.push(`<rect x="16" y="${PLOT_TOP}" width="${CHART_WIDTH - 32}" height="${PLOT_BOTTOM - PLOT_TOP}" fill="none" stroke="${COLORS.grid}"/>`);
    parts.push(text(CHART_WIDTH / 2, (PLOT_TOP + PLOT_BOTTOM) / 2, words.noData, `text-anchor="middle" font-size="16" fill="${COLORS.muted}"`));
  } else {
    parts.push(plot(locale, words, series));
  }
  parts.push('</svg>');
  return parts.join('');
}

/** The axes, grid, bars and line. */
function plot(locale: ChartLocale, words: ChartWords, series: ChartSeries): string {
  const money = moneyScale(Math.max(...series.paidGrosze));
  const counts = countScale(Math.max(...series.linksIssued), money.intervals);
  const moneyTexts = Array.from({ length: money.intervals + 1 }, (_, index) => moneyLabel(index * money.step, locale, words));
  const countTexts = Array.from({ length: counts.intervals + 1 }, (_, index) => countLabel(index * counts.step, locale, words));
  const widest = (labels: string[]) => Math.max(...labels.map((label) => [...label].length)) * TEXT_SIZE * EM_WIDTH;
  const left = 16 + widest(moneyTexts) + 8;
  const right = CHART_WIDTH - 16 - widest(countTexts) - 8;
  const height = PLOT_BOTTOM - PLOT_TOP;
  const slot = (right - left) / series.days.length;
  const yMoney = (grosze: number) => PLOT_BOTTOM - (grosze / money.top) * height;
  const yCount = (count: number) => PLOT_BOTTOM - (count / counts.top) * height;
  const parts: string[] = [];

  for (let index = 0; index <= money.intervals; index += 1) {
    const y = yMoney(index * money.step);
    if (index > 0) parts.push(`<line x1="${px(left)}" y1="${px(y)}" x2="${px(right)}" y2="${px(y)}" stroke="${COLORS.grid}"/>`);
    parts.push(text(left - 8, y + 4, moneyTexts[index]!, `text-anchor="end" fill="${COLORS.bars}"`));
    parts.push(text(right + 8, y + 4, countTexts[index]!, `fill="${COLORS.line}"`));
  }

  // Bars: a gap between them while there is room for one, touching when a day is only a few pixels wide.
  const barWidth = slot >= 4 ? slot * 0.7 : slot * 0.92;
  const bars = series.paidGrosze
    .map((grosze, index) => {
      if (grosze <= 0) return '';
      const top = yMoney(grosze);
      // A paid day stays visible however small beside the largest: at least half a pixel tall.
      const barHeight = Math.max(PLOT_BOTTOM - top, 0.5);
      return `M${px(left + index * slot + (slot - barWidth) / 2)} ${px(PLOT_BOTTOM - barHeight)}h${px(barWidth)}v${px(barHeight)}h${px(-barWidth)}z`;
    })
    .join('');
  if (bars) parts.push(`<path d="${bars}" fill="${COLORS.bars}"/>`);

  const points = series.linksIssued.map((count, index) => `${px(left + (index + 0.5) * slot)},${px(yCount(count))}`);
  parts.push(`<polyline points="${points.join(' ')}" fill="none" stroke="${COLORS.line}" stroke-width="${slot >= 6 ? 2.5 : 1.5}" stroke-linejoin="round"/>`);
  if (slot >= 12) for (const point of points) parts.push(`<circle cx="${point.split(',')[0]}" cy="${point.split(',')[1]}" r="3" fill="${COLORS.line}"/>`);

  parts.push(`<line x1="${px(left)}" y1="${PLOT_BOTTOM}" x2="${px(right)}" y2="${PLOT_BOTTOM}" stroke="${COLORS.axis}"/>`);
  for (const tick of dateTicks(series.days, slot)) {
    const x = left + (tick.index + 0.5) * slot;
    const time = series.days[tick.index]!;
    parts.push(`<line x1="${px(x)}" y1="${PLOT_BOTTOM}" x2="${px(x)}" y2="${PLOT_BOTTOM + 4}" stroke="${COLORS.axis}"/>`);
    parts.push(text(x, PLOT_BOTTOM + 18, tick.kind === 'month' ? monthLabel(time, words) : dayLabel(time, words), `text-anchor="middle" fill="${COLORS.muted}"`));
    if (tick.withYear) parts.push(text(x, PLOT_BOTTOM + 33, String(new Date(time).getUTCFullYear()), `text-anchor="middle" font-size="11" fill="${COLORS.muted}"`));
  }
  return parts.join('');
}
