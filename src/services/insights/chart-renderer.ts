/**
 * The chart renderer the insights use, behind one factory so the wiring never names its module.
 *
 * PLACEHOLDER, to be replaced when the chart module lands (src/services/insights/chart/index.ts,
 * built separately): these types mirror its interface exactly, and `chartRenderer` returns the
 * renderer it is given or none (the screen then says the chart is unavailable). The integrator
 * takes `createChartRenderer` and the three types from the chart module's index instead of the
 * copies below, and returns `injected ?? createChartRenderer()`.
 */

export interface ChartDay {
  /** YYYY-MM-DD */
  day: string;
  paidGrosze: number;
  linksIssued: number;
}

export interface ChartRequest {
  days: ChartDay[];
  locale: 'en' | 'pl';
  title: string;
}

export interface ChartRenderer {
  /** A PNG, drawn off the event loop. */
  render(request: ChartRequest): Promise<Buffer>;
  close(): Promise<void>;
}

/** The renderer given (tests), else the bundled one; PLACEHOLDER: none until the chart module lands. */
export function chartRenderer(injected?: ChartRenderer): ChartRenderer | undefined {
  return injected;
}
