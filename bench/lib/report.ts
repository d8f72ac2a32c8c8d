// What a suite hands back, and how the run prints it: plain-text tables plus notes, the same data as JSON.

export type Cell = string | number | null;

export interface Table {
  title: string;
  columns: string[];
  rows: Cell[][];
}

export interface SuiteResult {
  tables: Table[];
  /** Skips, caveats and findings, printed under the tables. */
  notes: string[];
}

/** Percentiles by nearest rank over a sample (milliseconds or anything else). */
export function summarize(values: readonly number[]): { n: number; p50: number; p95: number; p99: number; min: number; max: number; mean: number } {
  if (!values.length) return { n: 0, p50: NaN, p95: NaN, p99: NaN, min: NaN, max: NaN, mean: NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  return {
    n: sorted.length,
    p50: rank(50),
    p95: rank(95),
    p99: rank(99),
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
  };
}

/** A figure for a table cell (and the JSON): rounded to `digits` decimals; null when there is none. */
export function round(value: number, digits = 1): number | null {
  return Number.isFinite(value) ? Number(value.toFixed(digits)) : null;
}

/** A figure for a sentence: `digits` decimals, thousands separated. */
export function fmt(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—';
}

function cellText(cell: Cell): string {
  if (cell === null) return '—';
  return typeof cell === 'number' ? cell.toLocaleString('en-US', { maximumFractionDigits: 3 }) : cell;
}

export function renderTable(table: Table): string {
  const cells = [table.columns, ...table.rows.map((row) => row.map(cellText))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [table.title, line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}
