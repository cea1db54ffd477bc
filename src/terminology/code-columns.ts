import type { DescriptionIndexParts } from './description-index.js';
import { toUndotted } from './icd10-file.js';
import { inSharedMemory, type SharedTextParts } from './shared-text.js';

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
export function packCode(code: string): number {
  if (code.length === 0 || code.length > PLACES) return -1;
  let v = 0;
  for (let i = 0; i < PLACES; i++) {
    const d = i < code.length ? placeOf(code.charCodeAt(i)) : 0;
    if (d < 0) return -1;
    v = v * 37 + d;
  }
  return v;
}

/** Characters appended end to end into one array in shared memory: a byte each while all fit in one, else two. */
class GrowingText {
  private chars: Uint8Array | Uint16Array;
  length = 0;

  constructor(capacity: number) {
    this.chars = new Uint8Array(new SharedArrayBuffer(Math.max(16, capacity)));
  }

  get wide(): boolean {
    return this.chars instanceof Uint16Array;
  }

  append(s: string): void {
    if (this.length + s.length > this.chars.length) this.grow(this.length + s.length, this.wide);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff && !this.wide) this.grow(this.chars.length, true);
      this.chars[this.length + i] = c;
    }
    this.length += s.length;
  }

  slice(start: number, end: number): string {
    const c = this.chars;
    const bytes = Buffer.from(c.buffer, c.byteOffset + start * c.BYTES_PER_ELEMENT, (end - start) * c.BYTES_PER_ELEMENT);
    return bytes.toString(this.wide ? 'utf16le' : 'latin1');
  }

  /** The characters as SharedText reads them: this array itself when little of it is unused, else a copy of their size. */
  shared(): SharedTextParts {
    return {
      bytes: new Uint8Array(fitted(this.chars, this.length).buffer, 0, this.length * this.chars.BYTES_PER_ELEMENT),
      wide: this.wide,
    };
  }

  private grow(need: number, wide: boolean): void {
    let size = this.chars.length;
    while (size < need) size *= 2;
    const next = wide ? new Uint16Array(new SharedArrayBuffer(2 * size)) : new Uint8Array(new SharedArrayBuffer(size));
    // All of it: an append that turns the text wide has written past `length` already.
    next.set(this.chars);
    this.chars = next;
  }
}

type Column = Int32Array | Float64Array | Uint8Array | Uint16Array;

/** The first `length` elements: a view of `array` when at most a quarter of it would be unused (a close size hint), else a copy in shared memory. */
function fitted<T extends Column>(array: T, length: number): T {
  if (array.buffer instanceof SharedArrayBuffer && length * 4 >= array.length * 3) return array.subarray(0, length) as T;
  return inSharedMemory(array.subarray(0, length) as T);
}

/** `array` grown to `size` elements (in shared memory when it was). */
function grown<T extends Column>(array: T, size: number): T {
  const Kind = array.constructor as new (buffer: ArrayBufferLike) => T;
  const Buffer = array.buffer instanceof SharedArrayBuffer ? SharedArrayBuffer : ArrayBuffer;
  const next = new Kind(new Buffer(size * array.BYTES_PER_ELEMENT));
  next.set(array as never);
  return next;
}

/** How big a table will be, when its source knows (rows, and characters of all titles): its arrays are then made once, at that size. */
export interface ColumnsSize {
  rows: number;
  chars: number;
}

/**
 * Builds a table's columns row by row, straight into arrays of characters and numbers: no object
 * or string kept per row (issue 28, the service's RSS: 75,000 imported rows held as objects, then
 * their titles as strings, were ~65 MB of garbage in the thread that loads them). `finish` keeps
 * each code once (its first row, billable when any of its rows is) and sorts the numbered codes.
 */
export class CodeColumnsBuilder {
  private readonly codes: GrowingText;
  private readonly titles: GrowingText;
  private codeStarts: Int32Array;
  /** each row's title start, then the end of the last: the table's `starts` when no row is dropped */
  private titleStarts: Int32Array;
  private packed: Float64Array;
  /** the table's `billable` when no row is dropped */
  private flags: Uint8Array;
  private rows = 0;

  constructor(size: ColumnsSize = { rows: 1024, chars: 1 << 16 }) {
    const rows = Math.max(1, size.rows);
    this.codes = new GrowingText(rows * 7);
    this.titles = new GrowingText(size.chars);
    this.codeStarts = new Int32Array(rows + 1);
    this.titleStarts = new Int32Array(new SharedArrayBuffer(4 * (rows + 1)));
    this.packed = new Float64Array(rows);
    this.flags = new Uint8Array(new SharedArrayBuffer(rows));
  }

  add(code: string, title: string, billable: boolean): void {
    const u = toUndotted(code);
    if (this.rows === this.packed.length) this.grow();
    this.codeStarts[this.rows] = this.codes.length;
    this.titleStarts[this.rows] = this.titles.length;
    this.packed[this.rows] = packCode(u);
    this.flags[this.rows] = billable ? 1 : 0;
    this.codes.append(u);
    this.titles.append(title);
    this.rows++;
    this.codeStarts[this.rows] = this.codes.length;
    this.titleStarts[this.rows] = this.titles.length;
  }

  finish(): CodeColumns {
    const n = this.rows;
    const order = this.sortedRows();
    // The sort is stable: of equal codes, the first row comes first, and keeps the others' billable flag.
    const keep = new Uint8Array(n).fill(1);
    let dropped = 0;
    for (let k = 1; k < n; k++) {
      const first = order[k - 1];
      const i = order[k];
      if (!this.sameCode(first, i)) continue;
      if (this.flags[i]) this.flags[first] = 1;
      keep[i] = 0;
      order[k] = first;
      dropped++;
    }
    const size = n - dropped;
    const newRow = new Int32Array(n);
    let width = 1;
    for (let i = 0, row = 0; i < n; i++) {
      if (!keep[i]) continue;
      newRow[i] = row++;
      width = Math.max(width, this.codeStarts[i + 1] - this.codeStarts[i]);
    }
    // The numbered codes in code order (each once): the lookup's keys, and the row of each.
    // A dropped duplicate's place in `order` names its first row, as the place before it does.
    const duplicate = (k: number) => k > 0 && order[k - 1] === order[k];
    let numbered = 0;
    for (let k = 0; k < n; k++) if (!duplicate(k) && this.packed[order[k]] >= 0) numbered++;
    const keys = new Float64Array(new SharedArrayBuffer(8 * numbered));
    const rowOf = new Int32Array(new SharedArrayBuffer(4 * numbered));
    for (let k = 0, j = 0; k < n && j < numbered; k++) {
      if (duplicate(k)) continue;
      keys[j] = this.packed[order[k]];
      rowOf[j++] = newRow[order[k]];
    }
    const codes = this.paddedCodes(keep, size, width);
    if (dropped === 0) {
      const text = this.titles.shared();
      return { codes, width, text, starts: fitted(this.titleStarts, n + 1), billable: fitted(this.flags, n), keys, order: rowOf };
    }
    return { codes, width, ...this.keptRows(keep, size), keys, order: rowOf };
  }

  private sameCode(a: number, b: number): boolean {
    if (this.packed[a] >= 0 || this.packed[b] >= 0) return this.packed[a] === this.packed[b];
    return this.codeOf(a) === this.codeOf(b);
  }

  private codeOf(i: number): string {
    return this.codes.slice(this.codeStarts[i], this.codeStarts[i + 1]);
  }

  /** Rows in code order (stable): numbered codes by number, then the others by name, then by row. */
  private sortedRows(): Int32Array {
    const packed = this.packed;
    const order = new Int32Array(this.rows);
    for (let i = 0; i < order.length; i++) order[i] = i;
    return order.sort((a, b) => {
      const ka = packed[a];
      const kb = packed[b];
      if (ka >= 0 && kb >= 0) return ka - kb || a - b;
      if (ka >= 0) return -1;
      if (kb >= 0) return 1;
      const ca = this.codeOf(a);
      const cb = this.codeOf(b);
      return ca < cb ? -1 : ca > cb ? 1 : a - b;
    });
  }

  private paddedCodes(keep: Uint8Array, size: number, width: number): SharedTextParts {
    const out = new GrowingText(size * width);
    for (let i = 0; i < this.rows; i++) if (keep[i]) out.append(this.codeOf(i).padEnd(width, ' '));
    return out.shared();
  }

  /** The kept rows' titles, their starts and flags (some row was dropped). */
  private keptRows(keep: Uint8Array, size: number): Pick<CodeColumns, 'text' | 'starts' | 'billable'> {
    const text = new GrowingText(this.titles.length);
    const starts = new Int32Array(new SharedArrayBuffer(4 * (size + 1)));
    const billable = new Uint8Array(new SharedArrayBuffer(size));
    for (let i = 0, row = 0; i < this.rows; i++) {
      if (!keep[i]) continue;
      starts[row] = text.length;
      billable[row++] = this.flags[i];
      text.append(this.titles.slice(this.titleStarts[i], this.titleStarts[i + 1]));
    }
    starts[size] = text.length;
    return { text: text.shared(), starts, billable };
  }

  private grow(): void {
    const size = this.packed.length * 2;
    this.codeStarts = grown(this.codeStarts, size + 1);
    this.titleStarts = grown(this.titleStarts, size + 1);
    this.packed = grown(this.packed, size);
    this.flags = grown(this.flags, size);
  }
}
