import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createChartRenderer, MAX_WAITING_RENDERS, type ChartDay } from '../../../src/services/insights/chart/index.js';
import { differingPixels, inkIn, PNG_SIGNATURE, readPng, totalInk } from './png.js';
import { en } from '../../../src/i18n/en.js';
import { pl } from '../../../src/i18n/pl.js';

const DAY_MS = 86_400_000;

/** `count` days from `first`, with some sales and links every day. */
function days(count: number, first = '2025-10-05', paid = (index: number) => 1500 + (index % 9) * 4200, links = (index: number) => 2 + (index % 5)): ChartDay[] {
  const start = Date.parse(`${first}T00:00:00Z`);
  return Array.from({ length: count }, (_, index) => ({ day: new Date(start + index * DAY_MS).toISOString().slice(0, 10), paidGrosze: paid(index), linksIssued: links(index) }));
}

/** The title's line: from the left edge past one letter, between the picture's top and the legend. */
const TITLE_BOX = { x: 10, y: 6, width: 40, height: 30 };

describe('the insights chart', () => {
  const renderer = createChartRenderer();
  afterAll(() => renderer.close());

  it('is an 800 × 400 PNG for a week, a month and a leap year of days', async () => {
    for (const count of [7, 30, 366]) {
      const png = await renderer.render({ days: days(count, '2023-03-01'), locale: 'pl', words: pl.insights.chartWords, title: `Sprzedaż przez bota, ${count} dni` });
      expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      const picture = readPng(png);
      expect([picture.width, picture.height]).toEqual([800, 400]);
      // Bars are drawn: the plot is far from blank.
      expect(totalInk(inkIn(picture, { x: 100, y: 100, width: 600, height: 250 }))).toBeGreaterThan(100_000);
    }
  });

  it('draws every Polish letter from the bundled font: each differs from its plain letter and from a character the font lacks', async () => {
    const titleInk = async (title: string) => inkIn(readPng(await renderer.render({ days: [], locale: 'pl', words: pl.insights.chartWords, title })), TITLE_BOX);
    // DejaVu Sans has no Chinese: these two are what a missing glyph looks like (a box, or nothing), and look alike.
    const missing = await titleInk('中');
    expect(differingPixels(missing, await titleInk('日'))).toBe(0);
    const pairs = [['ż', 'z'], ['ó', 'o'], ['ł', 'l'], ['ć', 'c'], ['ę', 'e'], ['ś', 's'], ['ą', 'a'], ['ź', 'z'], ['ń', 'n'], ['Ż', 'Z'], ['Ł', 'L'], ['Ś', 'S']];
    for (const [polish, plain] of pairs) {
      const ink = await titleInk(polish!);
      expect(totalInk(ink), polish).toBeGreaterThan(0);
      expect(differingPixels(ink, missing), `${polish} is not the missing-glyph picture`).toBeGreaterThan(10);
      expect(differingPixels(ink, await titleInk(plain!)), `${polish} is not drawn as ${plain}`).toBeGreaterThan(3);
    }
    // The whole pangram: more ink than the same words without their marks.
    const wide = { x: 10, y: 6, width: 200, height: 30 };
    const phrase = inkIn(readPng(await renderer.render({ days: [], locale: 'pl', words: pl.insights.chartWords, title: 'Zażółć gęślą jaźń' })), wide);
    const plain = inkIn(readPng(await renderer.render({ days: [], locale: 'pl', words: pl.insights.chartWords, title: 'Zazolc gesla jazn' })), wide);
    expect(totalInk(phrase)).toBeGreaterThan(totalInk(plain));
  });

  it('draws a period with no days, and one with huge amounts, as a picture of the same size', async () => {
    const empty = readPng(await renderer.render({ days: [], locale: 'en', words: en.insights.chartWords, title: 'Nothing yet' }));
    expect([empty.width, empty.height]).toEqual([800, 400]);
    const huge = await renderer.render({ days: days(366, '2025-01-01', (index) => (index === 100 ? 9e15 : 1e12), () => 5e8), locale: 'pl', words: pl.insights.chartWords, title: 'Duże liczby' });
    expect([readPng(huge).width, readPng(huge).height]).toEqual([800, 400]);
  });

  it('refuses input a chart cannot show, naming it', async () => {
    await expect(renderer.render({ days: [{ day: '2026-02-30', paidGrosze: 0, linksIssued: 0 }], locale: 'en', words: en.insights.chartWords, title: 't' })).rejects.toThrow('"2026-02-30" is not a date');
    await expect(renderer.render({ days: [{ day: '2026-02-03', paidGrosze: -1, linksIssued: 0 }], locale: 'en', words: en.insights.chartWords, title: 't' })).rejects.toThrow('not a number of zero or more');
    await expect(renderer.render({ days: days(367), locale: 'en', words: en.insights.chartWords, title: 't' })).rejects.toThrow('367 days');
    // It still draws afterwards.
    expect(readPng(await renderer.render({ days: days(7), locale: 'en', words: en.insights.chartWords, title: 't' })).width).toBe(800);
  });

  it('answers renders asked at once each with its own picture, and refuses more than it queues', async () => {
    const requests = Array.from({ length: MAX_WAITING_RENDERS }, (_, index) => ({ days: days(7 + index), locale: 'en' as const, words: en.insights.chartWords, title: `Chart ${index}` }));
    const together = requests.map((request) => renderer.render(request));
    await expect(renderer.render(requests[0]!)).rejects.toThrow(`${MAX_WAITING_RENDERS} charts are being drawn already`);
    const pictures = await Promise.all(together);
    for (const [index, request] of requests.entries()) expect(pictures[index]!.equals(await renderer.render(request)), request.title).toBe(true);
  });
});

describe('closing the chart renderer', () => {
  /** The process's threads (Linux): a worker thread would be one of them. */
  const threads = () => readdirSync('/proc/self/task').length;

  it('draws without a thread of its own, rejects a render still waiting and refuses a later one', async () => {
    const renderer = createChartRenderer();
    // resvg draws on libuv's pool: charts add no thread that stays (the pool's threads exist already once anything used it).
    await renderer.render({ days: days(30), locale: 'pl', words: pl.insights.chartWords, title: 'Start' });
    const before = threads();
    await renderer.render({ days: days(366), locale: 'pl', words: pl.insights.chartWords, title: 'Again' });
    expect(threads()).toBe(before);
    const drawing = renderer.render({ days: days(366), locale: 'pl', words: pl.insights.chartWords, title: 'Drawing' }).then(
      () => 'drawn',
      (error: Error) => error.message,
    );
    const waiting = renderer.render({ days: days(366), locale: 'pl', words: pl.insights.chartWords, title: 'Waiting' }).then(
      () => 'drawn',
      (error: Error) => error.message,
    );
    await renderer.close();
    expect(await waiting).toBe('chart: the renderer was closed before the picture was drawn');
    expect(await drawing).toBe('chart: the renderer was closed before the picture was drawn');
    await expect(renderer.render({ days: days(7), locale: 'pl', words: pl.insights.chartWords, title: 'Late' })).rejects.toThrow('the renderer is closed');
  });

});
