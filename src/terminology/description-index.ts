import { descriptionTokens, wordStems } from './text-normalize.js';

// Stems that are too generic to count much towards a match.
const GENERIC = new Set(
  ['diseas', 'disord', 'syndrom', 'condit', 'abnorm', 'type', 'stage', 'state', 'finding'].flatMap((w) => [w, ...wordStems(w)]),
);

/**
 * Inverted index over official titles. Each code keeps its required stems (the ones a note has to
 * state) with IDF weights, and is posted under its one or two rarest stems, so a sentence only
 * visits codes whose rarest word it contains: the full table stays cheap to scan.
 */
export class DescriptionIndex {
  readonly vocab = new Map<string, number>();
  weights: Float32Array = new Float32Array(0);
  /** required stem ids of code i: stems.subarray(start[i], start[i + 1]) */
  readonly start: Int32Array;
  stems: Int32Array = new Int32Array(0);
  readonly totalWeight: Float32Array;
  /** how many tokens of the title are free (unspecified, without ...) */
  readonly freeCount: Uint8Array;
  private readonly byRarest = new Map<number, number[]>();
  private readonly bySecond = new Map<number, number[]>();
  /**
   * Beside the byRarest lists, laid end to end by stem id (the list of stem id s from
   * rarestStart[s]): each code's second rarest stem (-1: none), its rarest stem's weight and its
   * total weight, read in place and in order.
   */
  readonly rarestStart: Int32Array;
  readonly rarestSecond: Int32Array;
  readonly rarestWeight: Float32Array;
  readonly rarestTotal: Float32Array;

  constructor(descriptions: readonly string[]) {
    const n = descriptions.length;
    this.start = new Int32Array(n + 1);
    this.totalWeight = new Float32Array(n);
    this.freeCount = new Uint8Array(n);
    const perCode: number[][] = new Array(n);
    const df: number[] = [];
    let total = 0;
    for (let i = 0; i < n; i++) {
      const ids: number[] = [];
      let free = 0;
      for (const t of descriptionTokens(descriptions[i])) {
        if (t.free) {
          free++;
          continue;
        }
        let id = this.vocab.get(t.stem);
        if (id === undefined) {
          id = this.vocab.size;
          this.vocab.set(t.stem, id);
          df.push(0);
        }
        if (!ids.includes(id)) ids.push(id);
      }
      for (const id of ids) df[id]++;
      perCode[i] = ids;
      this.freeCount[i] = Math.min(free, 255);
      total += ids.length;
    }
    this.weights = new Float32Array(df.length);
    for (const [stem, id] of this.vocab) {
      const idf = Math.log((n + 1) / (df[id] + 0.5));
      this.weights[id] = GENERIC.has(stem) ? idf * 0.3 : idf;
    }
    this.stems = new Int32Array(total);
    let off = 0;
    for (let i = 0; i < n; i++) {
      this.start[i] = off;
      const ids = perCode[i].sort((a, b) => this.weights[b] - this.weights[a]);
      let w = 0;
      for (const id of ids) {
        this.stems[off++] = id;
        w += this.weights[id];
      }
      this.totalWeight[i] = w;
      if (ids.length > 0) push(this.byRarest, ids[0], i);
      if (ids.length > 1) push(this.bySecond, ids[1], i);
    }
    this.start[n] = off;
    this.rarestStart = new Int32Array(this.vocab.size + 1);
    let posted = 0;
    for (const codes of this.byRarest.values()) posted += codes.length;
    this.rarestSecond = new Int32Array(posted);
    this.rarestWeight = new Float32Array(posted);
    this.rarestTotal = new Float32Array(posted);
    let at = 0;
    for (let id = 0; id < this.vocab.size; id++) {
      this.rarestStart[id] = at;
      for (const c of this.byRarest.get(id) ?? EMPTY) {
        const from = this.start[c];
        this.rarestSecond[at] = this.start[c + 1] - from > 1 ? this.stems[from + 1] : -1;
        this.rarestWeight[at] = this.weights[this.stems[from]];
        this.rarestTotal[at] = this.totalWeight[c];
        at++;
      }
    }
    this.rarestStart[this.vocab.size] = at;
  }

  stemId(stem: string): number | undefined {
    return this.vocab.get(stem);
  }

  requiredOf(code: number): Int32Array {
    return this.stems.subarray(this.start[code], this.start[code + 1]);
  }

  /** Codes whose rarest required stem is `stemId` (each code is posted under exactly one). */
  byRarestOf(stemId: number): readonly number[] {
    return this.byRarest.get(stemId) ?? EMPTY;
  }

  /** Codes whose rarest required stem (or, when `wide`, second rarest) is among `stemIds`. */
  candidates(stemIds: Iterable<number>, wide: boolean): Set<number> {
    const out = new Set<number>();
    for (const id of stemIds) {
      for (const c of this.byRarest.get(id) ?? []) out.add(c);
      if (wide) for (const c of this.bySecond.get(id) ?? []) out.add(c);
    }
    return out;
  }
}

const EMPTY: readonly number[] = [];

function push(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
