import { describe, expect, it } from 'vitest';
import { chartSeries, parseDay } from '../../../src/services/insights/chart/chart-data.js';
import { countLabel, moneyLabel } from '../../../src/services/insights/chart/labels.js';
import { countScale, moneyScale } from '../../../src/services/insights/chart/scale.js';
import { chartSvg, xmlText } from '../../../src/services/insights/chart/svg.js';
import { en } from '../../../src/i18n/en.js';
import { pl } from '../../../src/i18n/pl.js';

const NBSP = '\u00a0';
const DAY_MS = 86_400_000;

function year(first: string, paid: (index: number) => number = () => 12_345, links: (index: number) => number = () => 3) {
  const start = parseDay(first)!;
  return Array.from({ length: 366 }, (_, index) => ({ day: new Date(start + index * DAY_MS).toISOString().slice(0, 10), paidGrosze: paid(index), linksIssued: links(index) }));
}

/** The texts drawn, in order. */
const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]!);

describe('the chart picture', () => {
  it('labels a Polish year with Polish month names, złoty with a space and the year under January', () => {
    const svg = chartSvg({ locale: 'pl', words: pl.insights.chartWords, title: 'Sprzedaż', series: chartSeries(year('2025-10-05')) });
    const drawn = texts(svg);
    expect(drawn).toEqual(expect.arrayContaining(['Sprzedaż', 'Zapłacono (zł)', 'Wydane linki do płatności', 'lis', 'paź', 'sty', '2025', '2026', `0${NBSP}zł`]));
    // Twelve month starts from 1 November to 1 October.
    expect(drawn.filter((text) => ['sty', 'lut', 'mar', 'kwi', 'maj', 'cze', 'lip', 'sie', 'wrz', 'paź', 'lis', 'gru'].includes(text))).toHaveLength(12);
  });

  it('labels English days and amounts in PLN', () => {
    const week = year('2026-03-01').slice(0, 7);
    const drawn = texts(chartSvg({ locale: 'en', words: en.insights.chartWords, title: 'Week', series: chartSeries(week) }));
    expect(drawn).toEqual(expect.arrayContaining(['Mar 1', 'Mar 7', 'PLN 0', 'Paid (PLN)', 'Payment links issued']));
  });

  it('writes amounts as each language does, shortening large ones with a decimal comma in Polish', () => {
    expect(moneyLabel(125_000, 'pl', pl.insights.chartWords)).toBe(`1250${NBSP}zł`);
    expect(moneyLabel(1_250_000, 'pl', pl.insights.chartWords)).toBe(`12${NBSP}500${NBSP}zł`);
    expect(moneyLabel(15_000_000, 'pl', pl.insights.chartWords)).toBe(`150${NBSP}tys.${NBSP}zł`);
    expect(moneyLabel(150_000_000, 'pl', pl.insights.chartWords)).toBe(`1,5${NBSP}mln${NBSP}zł`);
    expect(moneyLabel(150_000_000, 'en', en.insights.chartWords)).toBe('PLN 1.5M');
    expect(moneyLabel(1_250_000, 'en', en.insights.chartWords)).toBe('PLN 12,500');
    expect(countLabel(2_500_000, 'pl', pl.insights.chartWords)).toBe(`2,5${NBSP}mln`);
  });

  it('keeps huge amounts inside the picture: the tallest bar meets the axis top, the labels are short', () => {
    const svg = chartSvg({ locale: 'pl', words: pl.insights.chartWords, title: 'Duże', series: chartSeries(year('2025-01-01', (index) => (index === 10 ? 9e15 : 1e12), () => 5e8)) });
    const bars = svg.match(/<path d="([^"]*)" fill/)![1]!;
    const tops = [...bars.matchAll(/M[\d.]+ ([\d.]+)h/g)].map((match) => Number(match[1]));
    expect(Math.min(...tops)).toBeGreaterThanOrEqual(74 - 1);
    expect(Math.min(...tops)).toBeLessThan(74 + 60);
    for (const text of texts(svg).filter((label) => label.endsWith('zł'))) expect([...text].length, text).toBeLessThanOrEqual(14);
    expect(moneyScale(9e15).top).toBeGreaterThanOrEqual(9e15);
  });

  it('says so when there are no days, and draws all-zero days against a small round scale', () => {
    expect(texts(chartSvg({ locale: 'pl', words: pl.insights.chartWords, title: 'Pusto', series: chartSeries([]) }))).toContain('Brak danych za ten okres');
    const zeros = texts(chartSvg({ locale: 'pl', words: pl.insights.chartWords, title: 'Zera', series: chartSeries(year('2026-01-01', () => 0, () => 0).slice(0, 7)) }));
    expect(zeros).toEqual(expect.arrayContaining([`0${NBSP}zł`, `4${NBSP}zł`, '0', '4']));
  });

  it('shares grid lines between the two axes', () => {
    for (const max of [0, 1, 99, 101, 12_345, 987_654_321]) {
      const money = moneyScale(max);
      expect(money.top, String(max)).toBeGreaterThanOrEqual(max);
      expect(money.step * money.intervals).toBe(money.top);
      const links = countScale(max / 100, money.intervals);
      expect(links.intervals).toBe(money.intervals);
      expect(Number.isInteger(links.step)).toBe(true);
      expect(links.top).toBeGreaterThanOrEqual(max / 100);
    }
  });

  it('fills the days left out with zero and refuses what cannot be drawn', () => {
    const series = chartSeries([
      { day: '2026-03-03', paidGrosze: 300, linksIssued: 3 },
      { day: '2026-03-01', paidGrosze: 100, linksIssued: 1 },
    ]);
    expect(series.paidGrosze).toEqual([100, 0, 300]);
    expect(series.linksIssued).toEqual([1, 0, 3]);
    expect(() => chartSeries([{ day: '3 marca', paidGrosze: 0, linksIssued: 0 }])).toThrow('"3 marca" is not a date written YYYY-MM-DD');
    expect(() => chartSeries([{ day: '2026-03-01', paidGrosze: Number.NaN, linksIssued: 0 }])).toThrow('the paid amount of 2026-03-01 is NaN');
    expect(() => chartSeries([{ day: '2026-03-01', paidGrosze: 1, linksIssued: 0 }, { day: '2026-03-01', paidGrosze: 2, linksIssued: 0 }])).toThrow('2026-03-01 is given twice');
    expect(() => chartSeries([{ day: '2025-01-01', paidGrosze: 1, linksIssued: 0 }, { day: '2026-01-02', paidGrosze: 2, linksIssued: 0 }])).toThrow('367 days');
  });

  it('writes a title as text, whatever it holds: markup escaped, characters XML cannot hold dropped, a long one cut', () => {
    expect(xmlText('<b>A & "B"</b>\u0000\ud800')).toBe('&lt;b&gt;A &amp; &quot;B&quot;&lt;/b&gt;');
    expect(xmlText('Sklep 🎮')).toBe('Sklep 🎮');
    const title = texts(chartSvg({ locale: 'en', words: en.insights.chartWords, title: 'x'.repeat(500), series: chartSeries([]) }))[0]!;
    expect(title.length).toBeLessThan(80);
    expect(title.endsWith('…')).toBe(true);
  });
});
