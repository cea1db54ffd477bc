import { DescriptionIndex, type DescriptionIndexParts } from './description-index.js';
import { inSharedMemory, SharedText, type SharedTextParts } from './shared-text.js';
import { toDotted, toUndotted } from './icd10-file.js';

export interface CodeRow {
  code: string; // dotted or undotted; stored undotted
  description: string;
  billable: boolean;
}

/**
 * A table's rows as columns, in shared memory: what every engine thread is posted and adopts as it
 * is (issue 28: one copy for all threads). Row i's code is codes.slice(i * width, (i + 1) * width)
 * without its padding, its title text.slice(starts[i], starts[i + 1]).
 */
export interface CodeColumns {
  /** undotted codes, each padded with spaces to `width`, laid end to end */
  codes: SharedTextParts;
  width: number;
  text: SharedTextParts;
  starts: Int32Array;
  billable: Uint8Array;
  /** the numbered codes' numbers in ascending (code) order, and the row of each */
  keys: Float64Array;
  order: Int32Array;
  /** the title index, once built (posted with the table: no thread builds it again) */
  index?: DescriptionIndexParts;
}

// A code as a number that sorts as the code does: 7 places of base 37 (none, 0-9, A-Z).
const PLACES = 7;
const placeOf = (c: number) => (c >= 48 && c <= 57 ? c - 47 : c >= 65 && c <= 90 ? c - 54 : -1);

/** The code's number, or -1 when it is not 1-7 digits and capital letters (never in a valid table). */
function packCode(code: string): number {
  if (code.length === 0 || code.length > PLACES) return -1;
  let v = 0;
  for (let i = 0; i < PLACES; i++) {
    const d = i < code.length ? placeOf(code.charCodeAt(i)) : 0;
    if (d < 0) return -1;
    v = v * 37 + d;
  }
  return v;
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
    this.descIndex ??= new DescriptionIndex(Array.from({ length: this.size }, (_, i) => this.descriptionAt(i)));
    return this.descIndex;
  }
}

/** Rows as columns, each code once: its first row, billable when any of its rows is. */
function columnsOf(rows: Iterable<CodeRow>): CodeColumns {
  const codes: string[] = [];
  const titles: string[] = [];
  const flags: number[] = [];
  for (const row of rows) {
    codes.push(toUndotted(row.code));
    titles.push(row.description);
    flags.push(row.billable ? 1 : 0);
  }
  const { order } = sortedRows(codes);
  const keep = new Uint8Array(codes.length).fill(1);
  for (let k = 1; k < order.length; k++) {
    // The sort is stable: of equal codes, the first row comes first.
    const first = order[k - 1];
    const i = order[k];
    if (codes[first] !== codes[i]) continue;
    if (flags[i]) flags[first] = 1;
    keep[i] = 0;
    order[k] = first;
  }
  const kept: number[] = [];
  for (let i = 0; i < codes.length; i++) if (keep[i]) kept.push(i);
  const starts = new Int32Array(new SharedArrayBuffer(4 * (kept.length + 1)));
  const billable = new Uint8Array(new SharedArrayBuffer(kept.length));
  let at = 0;
  let width = 1;
  kept.forEach((i, row) => {
    starts[row] = at;
    at += titles[i].length;
    billable[row] = flags[i];
    width = Math.max(width, codes[i].length);
  });
  starts[kept.length] = at;
  const keptCodes = kept.map((i) => codes[i]);
  // The numbered codes in code order: the lookup's keys, and the row of each.
  const sorted = sortedRows(keptCodes);
  let numbered = 0;
  while (numbered < sorted.keys.length && sorted.keys[numbered] >= 0) numbered++;
  return {
    codes: SharedText.from(keptCodes.map((c) => c.padEnd(width, ' ')).join('')).parts,
    width,
    text: SharedText.from(kept.map((i) => titles[i]).join('')).parts,
    starts,
    billable,
    keys: inSharedMemory(sorted.keys.subarray(0, numbered)),
    order: inSharedMemory(sorted.order.subarray(0, numbered)),
  };
}

/** Rows in code order (stable), with each code's number (-1: none). */
function sortedRows(codes: readonly string[]): { order: Int32Array; keys: Float64Array } {
  const packed = new Float64Array(codes.length);
  for (let i = 0; i < codes.length; i++) packed[i] = packCode(codes[i]);
  const order = new Int32Array(codes.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  // Codes without a number sort after the others, by name, then by row.
  order.sort((a, b) => {
    const ka = packed[a];
    const kb = packed[b];
    if (ka >= 0 && kb >= 0) return ka - kb || a - b;
    if (ka >= 0) return -1;
    if (kb >= 0) return 1;
    return codes[a] < codes[b] ? -1 : codes[a] > codes[b] ? 1 : a - b;
  });
  const keys = new Float64Array(codes.length);
  for (let k = 0; k < order.length; k++) keys[k] = packed[order[k]];
  return { order, keys };
}
