import { CodeColumnsBuilder, packCode, type CodeColumns } from './code-columns.js';
import { DescriptionIndex } from './description-index.js';
import { SharedText } from './shared-text.js';
import { toDotted, toUndotted } from './icd10-file.js';

export type { CodeColumns } from './code-columns.js';

export interface CodeRow {
  code: string; // dotted or undotted; stored undotted
  description: string;
  billable: boolean;
}

/**
 * The ICD-10-CM codes the engine may emit, held in memory. Rows come from PostgreSQL in the
 * service, from the CMS file in the evaluation, or from the starter catalog.
 *
 * Compact, as every thread that codes holds one (issue 28, the service's RSS): the titles are bytes
 * in shared memory with offsets, and codes are found by binary search over their numbers (a
 * Float64Array in code order), not through a Map of 75,000 entries. Every array but the codes'
 * text (one string, ~0.5 MB) is shared: a table posted to a thread is adopted, not copied.
 */
export class CodeTable {
  /** every code padded to `width`, end to end: this thread's own string, sliced on each read */
  private readonly codeText: string;
  private readonly width: number;
  private readonly text: SharedText;
  private readonly source: CodeColumns;
  private readonly starts: Int32Array;
  private readonly billable: Uint8Array;
  private readonly keys: Float64Array;
  private readonly order: Int32Array;
  /** codes that have no number (not ICD-10-CM's shape), looked up by name */
  private readonly odd = new Map<string, number>();
  private descIndex: DescriptionIndex | undefined;

  /** From rows (a code listed twice keeps its first row, billable if either is), or from another table's columns, adopted as they are. */
  constructor(source: Iterable<CodeRow> | CodeColumns) {
    const c = 'starts' in source ? source : columnsOf(source);
    this.source = c;
    this.codeText = new SharedText(c.codes).slice(0);
    this.width = c.width;
    this.text = new SharedText(c.text);
    this.starts = c.starts;
    this.billable = c.billable;
    this.keys = c.keys;
    this.order = c.order;
    if (this.keys.length < this.starts.length - 1) {
      for (let i = 0; i < this.size; i++) {
        const code = this.codeAt(i);
        if (packCode(code) < 0 && !this.odd.has(code)) this.odd.set(code, i);
      }
    }
    if (c.index) this.descIndex = new DescriptionIndex(c.index);
  }

  /** The rows as columns (shared, not copied), with the title index when it was built. */
  columns(): CodeColumns {
    return { ...this.source, index: this.descIndex?.parts() };
  }

  get size(): number {
    return this.starts.length - 1;
  }

  /** Index of a code (dotted or undotted), or undefined. */
  indexOf(code: string): number | undefined {
    const u = toUndotted(code);
    const key = packCode(u);
    if (key < 0) return this.odd.get(u);
    const k = this.lowerBound(key);
    return k < this.keys.length && this.keys[k] === key ? this.order[k] : undefined;
  }

  private lowerBound(key: number): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  has(code: string): boolean {
    return this.indexOf(code) !== undefined;
  }

  get(code: string): CodeRow | undefined {
    const i = this.indexOf(code);
    return i === undefined ? undefined : this.row(i);
  }

  row(i: number): CodeRow {
    return { code: this.codeAt(i), description: this.descriptionAt(i), billable: this.billable[i] === 1 };
  }

  codeAt(i: number): string {
    const at = i * this.width;
    const code = this.codeText.slice(at, at + this.width);
    return code.charCodeAt(this.width - 1) === 0x20 ? code.trimEnd() : code;
  }

  dottedAt(i: number): string {
    return toDotted(this.codeAt(i));
  }

  descriptionAt(i: number): string {
    return this.text.slice(this.starts[i], this.starts[i + 1]);
  }

  billableAt(i: number): boolean {
    return this.billable[i] === 1;
  }

  isBillable(code: string): boolean {
    const i = this.indexOf(code);
    return i !== undefined && this.billable[i] === 1;
  }

  /** Every code under `code` (longer codes sharing its prefix), in code order. */
  descendantsOf(code: string): CodeRow[] {
    const prefix = toUndotted(code);
    const out: CodeRow[] = [];
    const key = packCode(prefix);
    if (key >= 0) {
      for (let k = this.lowerBound(key); k < this.keys.length; k++) {
        const c = this.codeAt(this.order[k]);
        if (!c.startsWith(prefix)) break;
        if (c !== prefix) out.push(this.row(this.order[k]));
      }
    } else {
      // No number (a prefix that is not a code's shape): every code, in code order.
      for (let k = 0; k < this.keys.length; k++) {
        const c = this.codeAt(this.order[k]);
        if (c.startsWith(prefix) && c !== prefix) out.push(this.row(this.order[k]));
      }
    }
    if (this.odd.size === 0) return out;
    for (const [c, i] of this.odd) if (c.startsWith(prefix) && c !== prefix) out.push(this.row(i));
    return out.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  }

  /** Direct children: the shortest codes below `code` that have no other code between them and it. */
  childrenOf(code: string): CodeRow[] {
    const all = this.descendantsOf(code);
    return all.filter((r) => !all.some((p) => p.code !== r.code && r.code.startsWith(p.code)));
  }

  /** The token/stem inverted index over titles, built on first use. */
  get index(): DescriptionIndex {
    this.descIndex ??= new DescriptionIndex({ size: this.size, titleAt: (i) => this.descriptionAt(i) });
    return this.descIndex;
  }
}

/** Rows as columns, built row by row (code-columns.ts). */
function columnsOf(rows: Iterable<CodeRow>): CodeColumns {
  const builder = new CodeColumnsBuilder();
  for (const row of rows) builder.add(row.code, row.description, row.billable);
  return builder.finish();
}
