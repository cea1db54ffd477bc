// Stamped slots over the Index's terms, shared by the notes a thread codes (one at a time): each
// note's lists per term without Maps of thousands of entries per note, and without an array per
// list: slot 2 * term + side holds where the term's list lies in its side's buffer of items.
let slotStamps = new Int32Array(0);
let slotFrom = new Int32Array(0);
let slotTo = new Int32Array(0);
let lastStamp = 0;
// The items of the lists, laid end to end, one buffer per side, reused by every note.
const buffers = [new Int32Array(1024), new Int32Array(1024)];

/** A new note's stamp (its PerTerm lists), over an Index of `size` terms. */
export function noteStamp(size: number): number {
  if (slotStamps.length < 2 * size || lastStamp >= 0x3fffffff) {
    slotStamps = new Int32Array(2 * size);
    slotFrom = new Int32Array(2 * size);
    slotTo = new Int32Array(2 * size);
    lastStamp = 0;
  }
  return ++lastStamp;
}

/**
 * A list of terms per term, for one note (its stamp): found on first use. A list is read in place,
 * items[from(term)] to items[to(term) - 1]; `items` may be replaced by a larger buffer when a list
 * is added, and the lists already in the one read stay as they were.
 */
export class PerTerm {
  private size = 0;

  constructor(
    private readonly stamp: number,
    private readonly side: 0 | 1,
  ) {}

  get items(): Int32Array {
    return buffers[this.side];
  }

  has(term: number): boolean {
    return slotStamps[2 * term + this.side] === this.stamp;
  }

  /** Where term's list starts (when has(term)). */
  from(term: number): number {
    return slotFrom[2 * term + this.side];
  }

  /** Where term's list ends (when has(term)). */
  to(term: number): number {
    return slotTo[2 * term + this.side];
  }

  /** Term's list: the first `count` items of `list`. */
  set(term: number, list: Int32Array, count: number): void {
    let items = buffers[this.side];
    if (this.size + count > items.length) {
      const grown = new Int32Array(Math.max(this.size + count, 2 * items.length));
      grown.set(items);
      buffers[this.side] = items = grown;
    }
    // (A loop, not set(subarray): a view is an object per list.)
    for (let n = 0; n < count; n++) items[this.size + n] = list[n];
    const k = 2 * term + this.side;
    slotStamps[k] = this.stamp;
    slotFrom[k] = this.size;
    slotTo[k] = this.size += count;
  }
}
