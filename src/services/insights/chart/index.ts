import { Worker } from 'node:worker_threads';
import { chartSeries } from './chart-data.js';
import { RASTER_WORKER_SOURCE, rasterWorkerData } from './raster-worker.js';
import { chartSvg } from './svg.js';

/**
 * The insights chart as a PNG: paid PLN per day (bars, left axis) and payment links issued per day
 * (line, right axis), 800 × 400 px, labels in the admin's language, drawn in the bundled DejaVu Sans
 * (assets/fonts). One worker thread rasterises, started on the first render and kept until close():
 * a chart never holds up the bot's event loop, and at most one is drawn at a time, so memory stays
 * that of one picture (docs/building/insights-chart.md: why resvg, what it costs).
 */

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
  title: string;
}

export interface ChartRenderer {
  /** The PNG; rejects with a RangeError naming bad input, or an Error when the worker failed or is busy. */
  render(request: ChartRequest): Promise<Buffer>;
  /** Ends the worker; a render still waiting is rejected, a later one refused. */
  close(): Promise<void>;
}

/** Renders asked for at once beyond which a new one is refused rather than queued (each holds its SVG text). */
export const MAX_WAITING_RENDERS = 8;

interface Waiting {
  resolve(png: Buffer): void;
  reject(error: Error): void;
}

interface WorkerAnswer {
  id: number;
  png?: Uint8Array;
  error?: string;
}

export function createChartRenderer(): ChartRenderer {
  let worker: Worker | undefined;
  let closed = false;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();

  function failAll(error: Error): void {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  }

  /** A render waiting keeps the process alive; an idle worker never does (a forgotten close() cannot hang a shutdown). */
  function holdProcessWhileBusy(): void {
    if (waiting.size > 0) worker?.ref();
    else worker?.unref();
  }

  function started(): Worker {
    if (worker) return worker;
    const thread = new Worker(RASTER_WORKER_SOURCE, {
      eval: true,
      workerData: rasterWorkerData(),
      // Its JavaScript is a few objects a render; resvg's pixels live outside this heap.
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    });
    thread.on('message', ({ id, png, error }: WorkerAnswer) => {
      const entry = waiting.get(id);
      if (!entry) return;
      waiting.delete(id);
      if (png) entry.resolve(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
      else entry.reject(new Error(`chart: the picture could not be drawn (${error ?? 'no answer'})`));
      holdProcessWhileBusy();
    });
    // A worker that died takes its renders with it; the next render starts a new one.
    const lost = (error: Error) => {
      if (worker !== thread) return;
      worker = undefined;
      failAll(error);
    };
    thread.on('error', (error) => lost(new Error(`chart: the drawing thread failed (${error.message})`)));
    thread.on('exit', (code) => lost(new Error(`chart: the drawing thread stopped (exit code ${code})`)));
    worker = thread;
    return thread;
  }

  return {
    async render(request) {
      if (closed) throw new Error('chart: the renderer is closed');
      if (waiting.size >= MAX_WAITING_RENDERS) throw new Error(`chart: ${MAX_WAITING_RENDERS} charts are being drawn already, try again in a moment`);
      const svg = chartSvg({ locale: request.locale, title: request.title, series: chartSeries(request.days) });
      const thread = started();
      const id = nextId++;
      const png = new Promise<Buffer>((resolve, reject) => waiting.set(id, { resolve, reject }));
      holdProcessWhileBusy();
      thread.postMessage({ id, svg });
      return png;
    },
    async close() {
      closed = true;
      failAll(new Error('chart: the renderer was closed before the picture was drawn'));
      const thread = worker;
      worker = undefined;
      if (thread) await thread.terminate();
    },
  };
}
