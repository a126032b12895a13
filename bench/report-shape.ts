/* What the printed report (report.ts) and the targets (targets.ts) both read: the results' shape. */
import type { JourneyResult } from './journeys.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the report is plain JSON assembled by run.ts
export type Json = any;

/** One goal held against a measured figure. */
/** A target that fails the run when its figure is over the limit (targets.ts). */
export interface Gate {
  name: string;
  limit: number;
  unit: string;
  /** The figure held under the limit, or undefined when the phases it needs did not run. */
  figure: (report: Json) => number | undefined;
  /** What the figure was made from, for the line that names a miss. */
  detail: (report: Json) => string;
}

export interface Target {
  target: string;
  goal: string;
  measured: string;
  met: boolean | null;
}

/** Every journey phase that ran, the scaled bot's included. */
export function journeyPhases(report: Json): JourneyResult[] {
  return [...(report.journeys ?? []), ...(report.scaledBot ? [report.scaledBot.journey] : [])];
}
