/**
 * The insights chart (src/services/insights/chart): a 12-month chart (366 days, every day with sales
 * and links) drawn through the renderer the bot uses, one after another: the first (resvg's load
 * included), then the median, p95 and largest of the rest, the PNG's bytes,
 * the SVG text's build time on the caller's thread (the one part not on libuv's pool), the event
 * loop's delay while charts are drawn against the same time idle, and the process's RSS before and
 * after. The gate: a 12-month chart in under 300 ms (median). Run alone: BENCH_ONLY=chart.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { chartSeries } from '../src/services/insights/chart/chart-data.js';
import { createChartRenderer, type ChartDay } from '../src/services/insights/chart/index.js';
import { chartSvg } from '../src/services/insights/chart/svg.js';
import { percentile, round } from './stats.js';
import { pl } from '../src/i18n/pl.js';

export const CHART_GATE_MS = 300;

export interface ChartPhaseResult {
  days: number;
  renders: number;
  firstMs: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  pngBytes: number;
  svgBuildMedianMs: number;
  eventLoopDelayMs: { idleP99: number; idleMax: number; drawingP99: number; drawingMax: number };
  rssMb: { before: number; after: number };
  gateMs: number;
  met: boolean;
}

/** A year of days with sales that rise and fall by week and season, from a fixed seed. */
function yearOfDays(): ChartDay[] {
  let seed = 49;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const start = Date.UTC(2025, 9, 1);
  return Array.from({ length: 366 }, (_, index) => ({
    day: new Date(start + index * 86_400_000).toISOString().slice(0, 10),
    paidGrosze: Math.round((1 + Math.sin(index / 58)) * 40_000 * (index % 7 >= 5 ? 1.6 : 1) * (0.5 + random())),
    linksIssued: Math.round((3 + Math.sin(index / 58) * 2) * (0.5 + random()) * 4),
  }));
}

const mb = (bytes: number) => round(bytes / 1_048_576, 1);

/** Runs the phase into report.insightsChart; returns the line naming its missed gate, if missed. */
export async function chartPhase(report: Record<string, unknown>, rendersWanted: number, log: (line: string) => void): Promise<string[]> {
  log('[11] insights chart: a 12-month chart drawn through the renderer the bot uses (resvg on libuv’s pool)');
  const result = await measureChart(rendersWanted, log);
  report.insightsChart = result;
  return result.met ? [] : [`MISSED: a 12-month insights chart in under ${result.gateMs} ms: median ${result.medianMs} ms`];
}

async function measureChart(rendersWanted: number, log: (line: string) => void): Promise<ChartPhaseResult> {
  const days = yearOfDays();
  const request = { days, locale: 'pl' as const, words: pl.insights.chartWords, title: 'Sprzedaż przez bota: ostatnie 12 miesięcy' };
  const rssBefore = process.memoryUsage().rss;
  const renderer = createChartRenderer();
  try {
    let started = performance.now();
    const first = await renderer.render(request);
    const firstMs = performance.now() - started;
    const delay = monitorEventLoopDelay({ resolution: 1 });
    const times: number[] = [];
    delay.enable();
    const drawingStarted = performance.now();
    for (let index = 0; index < rendersWanted; index += 1) {
      started = performance.now();
      await renderer.render(request);
      times.push(performance.now() - started);
    }
    const drawingMs = performance.now() - drawingStarted;
    delay.disable();
    const drawing = { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 };
    // The same time with nothing drawn: the delay the loop has anyway on this machine.
    delay.reset();
    delay.enable();
    await sleep(drawingMs);
    delay.disable();
    const svgTimes: number[] = [];
    for (let index = 0; index < 50; index += 1) {
      started = performance.now();
      chartSvg({ locale: request.locale, words: request.words, title: request.title, series: chartSeries(days) });
      svgTimes.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    svgTimes.sort((a, b) => a - b);
    const medianMs = percentile(times, 50);
    const result: ChartPhaseResult = {
      days: days.length,
      renders: times.length,
      firstMs: round(firstMs, 1),
      medianMs: round(medianMs, 1),
      p95Ms: round(percentile(times, 95), 1),
      maxMs: round(times.at(-1)!, 1),
      pngBytes: first.length,
      svgBuildMedianMs: round(percentile(svgTimes, 50), 2),
      eventLoopDelayMs: { idleP99: round(delay.percentile(99) / 1e6, 1), idleMax: round(delay.max / 1e6, 1), drawingP99: round(drawing.p99, 1), drawingMax: round(drawing.max, 1) },
      rssMb: { before: mb(rssBefore), after: mb(process.memoryUsage().rss) },
      gateMs: CHART_GATE_MS,
      met: medianMs < CHART_GATE_MS,
    };
    log(`  12-month chart (${result.days} days, ${result.renders} renders): first ${result.firstMs} ms (resvg's load included), median ${result.medianMs} ms, p95 ${result.p95Ms} ms, max ${result.maxMs} ms; PNG ${result.pngBytes} bytes`);
    log(`  SVG text built on the caller's thread: median ${result.svgBuildMedianMs} ms; event-loop delay p99/max: ${result.eventLoopDelayMs.drawingP99}/${result.eventLoopDelayMs.drawingMax} ms while drawing, ${result.eventLoopDelayMs.idleP99}/${result.eventLoopDelayMs.idleMax} ms idle`);
    log(`  RSS ${result.rssMb.before} MB before, ${result.rssMb.after} MB after; ${result.met ? 'met' : 'MISSED'}: median under ${CHART_GATE_MS} ms`);
    return result;
  } finally {
    await renderer.close();
  }
}
