import { passes, type BenchResult } from './types.js';

function figure(r: BenchResult): string {
  const digits = r.digits ?? (r.unit === 'x' ? 2 : Math.abs(r.value) < 10 ? 1 : 0);
  return r.value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** One aligned table: name, figure, unit, target, pass/fail; notes listed under it. */
export function formatTable(results: BenchResult[]): string {
  const rows = results.map((r) => {
    const ok = passes(r);
    return [r.name, figure(r), r.unit, r.target ? `${r.target.op} ${r.target.value}` : '', ok === undefined ? '' : ok ? 'pass' : 'FAIL'];
  });
  const head = ['benchmark', 'figure', 'unit', 'target', 'result'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 1 || i === 3 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  const out = [
    line(head),
    `|${widths.map((w, i) => (i === 1 || i === 3 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
    ...rows.map(line),
  ];
  const notes = results.filter((r) => r.note).map((r) => `  ${r.name}: ${r.note}`);
  if (notes.length) out.push('', 'notes:', ...notes);
  return out.join('\n');
}
