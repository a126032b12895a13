import { createChartRenderer, type ChartRenderer } from './chart/index.js';

export type { ChartDay, ChartRenderer, ChartRequest, ChartWords } from './chart/index.js';

/**
 * The chart renderer the insights use, behind one factory so the wiring never names the chart's
 * module: the one given (tests inject a double where they need the same bytes every time), else
 * the bundled one, which draws through resvg off the event loop (chart/index.ts).
 */
export function chartRenderer(injected?: ChartRenderer): ChartRenderer {
  return injected ?? createChartRenderer();
}
