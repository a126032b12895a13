import { chartSeries } from './chart-data.js';
import type { ChartWords } from './labels.js';
import { rasterise } from './raster.js';
import { chartSvg } from './svg.js';

/**
 * The insights chart as a PNG: paid PLN per day (bars, left axis) and payment links issued per day
 * (line, right axis), 800 × 400 px, labels in the admin's language, drawn in the bundled DejaVu Sans
 * (assets/fonts). resvg rasterises on libuv's pool and zlib packs the PNG there (raster.ts): a chart
 * never holds up the bot's event loop. One chart is drawn at a time, so memory stays that of one
 * picture and the pool keeps its other threads for storage and files
 * (docs/building/insights-chart.md: why resvg, what it costs).
 */

export type { ChartWords };

export interface ChartDay {
  /** YYYY-MM-DD. */
  day: string;
  paidGrosze: number;
  linksIssued: number;
}

export interface ChartRequest {
  /** 0 to 366 days; a day left out between the first and the last is drawn as zero. */
  days: ChartDay[];
  locale: 'en' | 'pl';
  /** The legend, "no data", month names and number words in the admin's language (src/i18n: `insights.chartWords`). */
  words: ChartWords;
  title: string;
}

export interface ChartRenderer {
  /** The PNG; rejects with a RangeError naming bad input, or an Error when resvg failed or too many are waiting. */
  render(request: ChartRequest): Promise<Buffer>;
  /** A render still waiting is rejected (one not yet started is dropped), a later one refused. */
  close(): Promise<void>;
}

/** Renders asked for at once beyond which a new one is refused rather than queued (each holds its SVG text). */
export const MAX_WAITING_RENDERS = 8;

interface Waiting {
  svg: string;
  resolve(png: Buffer): void;
  reject(error: Error): void;
}

export function createChartRenderer(): ChartRenderer {
  let closed = false;
  const queue: Waiting[] = [];
  let drawing: AbortController | undefined;

  /** Draws the charts asked for, one after another, until none is left. */
  async function drainQueue(): Promise<void> {
    if (drawing) return;
    while (queue.length > 0 && !closed) {
      const next = queue[0]!;
      drawing = new AbortController();
      try {
        next.resolve(await rasterise(next.svg, drawing.signal));
      } catch (error) {
        next.reject(new Error(`chart: the picture could not be drawn (${error instanceof Error ? error.message : String(error)})`));
      } finally {
        drawing = undefined;
        if (queue[0] === next) queue.shift();
      }
    }
  }

  return {
    async render(request) {
      if (closed) throw new Error('chart: the renderer is closed');
      if (queue.length >= MAX_WAITING_RENDERS) throw new Error(`chart: ${MAX_WAITING_RENDERS} charts are being drawn already, try again in a moment`);
      const svg = chartSvg({ locale: request.locale, words: request.words, title: request.title, series: chartSeries(request.days) });
      const png = new Promise<Buffer>((resolve, reject) => queue.push({ svg, resolve, reject }));
      void drainQueue();
      return png;
    },
    async close() {
      closed = true;
      drawing?.abort();
      const error = new Error('chart: the renderer was closed before the picture was drawn');
      for (const entry of queue.splice(0)) entry.reject(error);
    },
  };
}
