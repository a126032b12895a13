import { describe, expect, it } from 'vitest';
import { evaluate, holdGates, missedLines } from '../../bench/targets.js';

const MB = 1024 * 1024;

/** The figures issue 39 measured on 4479dea as shipped, in the shape run.ts writes. */
function asShipped(overrides: { cpu?: number; payP50?: number } = {}) {
  return {
    options: { rate: 200 },
    walk: {
      ours: { members: 200, botCpuMsPerInteraction: overrides.cpu ?? 1.29, firstAnswerMs: { p99: 134 }, settledMs: { median: 16 }, failures: [] },
      bare: { botCpuMsPerInteraction: 0.94, firstAnswerMs: { p99: 70 }, settledMs: { median: 6 } },
    },
    botMemory: { peakRssBytes: 131 * MB },
    bare: { peakRssBytes: 156 * MB },
    checkoutCrowd: { members: 200, payButtonMs: { median: overrides.payP50 ?? 2050, p95: 2500, max: 2620 }, over3s: 0, failures: [] },
    startUp: { starts: 5, median: { node: { ours: 500, bare: 480, ratio: 1.04 }, npm: { ours: 900, bare: 880, ratio: 1.02 }, firstAnswer: { ours: 600, bare: 500 } } },
  };
}

describe('the bench gates (issue 39)', () => {
  it('names every missed target with its figure and the target, one line each', () => {
    const lines = missedLines(holdGates([asShipped()]));
    expect(lines).toEqual([
      'bench: TARGET MISSED: crowd (walk): bot CPU per interaction vs the bare bot: 1.37 ×, target ≤ 1.1 × (ours 1.29 ms, bare 0.94 ms)',
      'bench: TARGET MISSED: checkout crowd: time to the Pay link, p50: 2050 ms, target ≤ 1000 ms (200 members at once, 0 failures)',
      'bench: TARGET MISSED: checkout crowd: time to the Pay link, max: 2620 ms, target ≤ 2000 ms (200 members at once, 0 failures)',
    ]);
  });

  it('holds the median of several runs, so one slow run alone does not fail and two do', () => {
    const oneSlow = holdGates([asShipped({ cpu: 0.98 }), asShipped({ cpu: 1.5 }), asShipped({ cpu: 1.0 })]);
    expect(oneSlow.find((gate) => gate.name.includes('CPU'))).toMatchObject({ median: 1.06, runs: [1.04, 1.6, 1.06], met: true });
    const twoSlow = missedLines(holdGates([asShipped({ cpu: 0.98 }), asShipped({ cpu: 1.5 }), asShipped({ cpu: 1.4 })]));
    expect(twoSlow[0]).toBe('bench: TARGET MISSED: crowd (walk): bot CPU per interaction vs the bare bot: 1.49 ×, target ≤ 1.1 × (median of 3 runs (1.04, 1.6, 1.49); ours 1.4 ms, bare 0.94 ms)');
  });

  it('leaves out a gate whose phase did not run (BENCH_SKIP) rather than failing it', () => {
    const { checkoutCrowd: _left, startUp: _out, ...noCrowd } = asShipped({ cpu: 1, payP50: 500 });
    const names = holdGates([noCrowd]).map((gate) => gate.name);
    expect(names.some((name) => name.startsWith('checkout'))).toBe(false);
    expect(names.some((name) => name.startsWith('start-up'))).toBe(false);
    expect(missedLines(holdGates([noCrowd]))).toEqual([]);
  });

  it('shows the gates among the printed targets, met or not', () => {
    const targets = evaluate(asShipped());
    const gates = targets.filter((target) => target.target.startsWith('[gate]'));
    expect(gates).toHaveLength(7); // no memory flood in these figures
    expect(gates.find((target) => target.target.includes('journeys'))).toMatchObject({ goal: '≤ 30 MB', met: true });
  });
});
