// Stamped slots over the Index's terms, shared by the notes a thread codes (one at a time): each
// note's lists per term without Maps of thousands of entries per note. Slot 2 * term + side.
let slotStamps = new Int32Array(0);
let slotAt = new Int32Array(0);
let lastStamp = 0;

/** A new note's stamp (its PerTerm lists), over an Index of `size` terms. */
export function noteStamp(size: number): number {
  if (slotStamps.length < 2 * size || lastStamp >= 0x3fffffff) {
    slotStamps = new Int32Array(2 * size);
    slotAt = new Int32Array(2 * size);
    lastStamp = 0;
  }
  return ++lastStamp;
}

/** A list per term, for one note (its stamp): found on first use. */
export class PerTerm {
  private readonly lists: Array<readonly number[]> = [];

  constructor(
    private readonly stamp: number,
    private readonly side: 0 | 1,
  ) {}

  get(term: number): readonly number[] | undefined {
    const k = 2 * term + this.side;
    return slotStamps[k] === this.stamp ? this.lists[slotAt[k]] : undefined;
  }

  set(term: number, list: readonly number[]): void {
    const k = 2 * term + this.side;
    slotStamps[k] = this.stamp;
    slotAt[k] = this.lists.length;
    this.lists.push(list);
  }
}
