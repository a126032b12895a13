/**
 * The chart's two value axes and its date axis. Both value axes share their grid lines: the money
 * axis picks 4 or 5 intervals of a round step (1, 2, 2.5 or 5 times a power of ten), and the links
 * axis uses as many intervals of a round whole step, so one set of lines reads on both sides.
 */

export interface ValueScale {
  /** The axis's top value (a multiple of step). */
  top: number;
  step: number;
  intervals: number;
}

const MONEY_STEPS = [1, 2, 2.5, 5, 10];
const COUNT_STEPS = [1, 2, 5, 10];

/** The smallest round step of at least `raw` (never below `smallest`). */
function roundStep(raw: number, smallest: number, multipliers: readonly number[]): number {
  if (!(raw > smallest)) return smallest;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const multiplier of multipliers) {
    const step = multiplier * power;
    // A step a rounding error below raw would leave the tallest bar past the top.
    if (step >= raw * (1 - 1e-12)) return Math.max(step, smallest);
  }
  return 10 * power;
}

/**
 * The money axis for a tallest bar of `max` grosze: whole złoty steps at least (a chart of a few
 * grosze a day is drawn against 0–4 zł, not stretched into noise), the lower of the 4- and 5-interval tops.
 */
export function moneyScale(maxGrosze: number): ValueScale {
  let best: ValueScale | undefined;
  for (const intervals of [4, 5]) {
    const step = roundStep(maxGrosze / intervals, 100, MONEY_STEPS);
    const scale = { top: step * intervals, step, intervals };
    if (!best || scale.top < best.top) best = scale;
  }
  return best!;
}

/** The links axis over the money axis's intervals: whole links a step, at least one. */
export function countScale(max: number, intervals: number): ValueScale {
  const step = roundStep(max / intervals, 1, COUNT_STEPS);
  return { top: step * intervals, step, intervals };
}

export interface DateTick {
  /** The day's slot in the series. */
  index: number;
  /** The first of a month when the labels are months, else any day. */
  kind: 'day' | 'month';
  /** The year under the label: on the first month label, and on each January. */
  withYear: boolean;
}

/** The fewest pixels between two date labels: a label such as "30 wrz" or "Sep 30" is about 45 px at 12 px. */
const LABEL_GAP_PX = 56;

/**
 * Which days get a label: every day, every 2nd, every 7th or every 14th day counted back from the
 * last (the period's newest day is always labelled), the first that leaves room; past that (a
 * quarter drawn narrow, a year), the first day of each month.
 */
export function dateTicks(days: readonly number[], slotWidth: number): DateTick[] {
  for (const every of [1, 2, 7, 14]) {
    if (slotWidth * every < LABEL_GAP_PX) continue;
    const ticks: DateTick[] = [];
    for (let index = days.length - 1; index >= 0; index -= every) ticks.unshift({ index, kind: 'day', withYear: false });
    return ticks;
  }
  const ticks: DateTick[] = [];
  days.forEach((time, index) => {
    const date = new Date(time);
    if (date.getUTCDate() !== 1) return;
    ticks.push({ index, kind: 'month', withYear: ticks.length === 0 || date.getUTCMonth() === 0 });
  });
  return ticks;
}
