/* Small statistics and table helpers for the benchmark's report. */

export interface Summary {
  n: number;
  median: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of an ascending list (p in 0..100). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? Number.NaN;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** The middle value (nearest rank), as the start-up phase compares repeated starts. */
export function median(values: readonly number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50);
}

export function round(value: number, digits = 2): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** ours / bare, as the report prints ratios. */
export function ratio(ours: number, bare: number): number {
  return round(ours / bare, 2);
}

export function roundSummary(summary: Summary, digits = 2): Summary {
  return {
    n: summary.n,
    median: round(summary.median, digits),
    p95: round(summary.p95, digits),
    p99: round(summary.p99, digits),
    max: round(summary.max, digits),
  };
}

/** Formats milliseconds compactly: 0.84, 12.3, 1534. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (value < 10) return value.toFixed(2);
  if (value < 100) return value.toFixed(1);
  return value.toFixed(0);
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A plain-text table: the first row is the header; numbers are right-aligned. */
export function table(rows: (string | number)[][]): string {
  const cells = rows.map((row) => row.map((cell) => String(cell)));
  const widths: number[] = [];
  for (const row of cells) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  const numeric = (text: string) => /^[-+]?[\d.,]+( ?(ms|MB|%|×|\/s))?$/.test(text) || text === '–';
  const line = (row: string[]) =>
    row.map((cell, index) => (numeric(cell) && index > 0 ? cell.padStart(widths[index] ?? 0) : cell.padEnd(widths[index] ?? 0))).join('  ');
  const [header, ...body] = cells;
  if (!header) return '';
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...body.map(line)].join('\n');
}
