/** One figure of a benchmark: what was measured, its value, and the goal it is held to (if any). */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The goal: `value <op> target`. No target: a figure reported for context (no pass/fail). */
  target?: { op: '<=' | '<' | '>='; value: number };
  /** Digits shown (default: 0, or 1 below 10, or 2 for ratios). */
  digits?: number;
  /** A short remark (sample size, breakdown) printed after the row. */
  note?: string;
}

/** What every benchmark module gets from the runner: a PostgreSQL server it may create databases on. */
export interface BenchContext {
  /** Connection string of a server where the bench may CREATE DATABASE (and drop it afterwards). */
  adminUrl: string;
  /** Progress lines (stderr); never figures, those go in the results. */
  log(line: string): void;
}

export function passes(r: BenchResult): boolean | undefined {
  if (!r.target) return undefined;
  const { op, value } = r.target;
  return op === '<=' ? r.value <= value : op === '<' ? r.value < value : r.value >= value;
}
