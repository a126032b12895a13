/* What the printed report (report.ts) and the targets (targets.ts) both read: the results' shape. */
import type { JourneyResult } from './journeys.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the report is plain JSON assembled by run.ts
export type Json = any;

/** One goal held against a measured figure. */
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
