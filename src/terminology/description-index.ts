import { descriptionTokens, wordStems } from './text-normalize.js';

// Stems that are too generic to count much towards a match.
const GENERIC = new Set(
  ['diseas', 'disord', 'syndrom', 'condit', 'abnorm', 'type', 'stage', 'state', 'finding'].flatMap((w) => [w, ...wordStems(w)]),
);

/** The titles an index is built over: each read when its turn comes, none held after (issue 28: an array of 75,000 titles grew the thread's old space by ~7 MB at its peak). */
export interface Titles {
  size: number;
  titleAt(i: number): string;
}

/** A built index as posted to another thread: its arrays (in shared memory) and its stems, one per line in id order. */
export interface DescriptionIndexParts {
  vocab: string;
  weights: Float32Array;
  start: Int32Array;
  stems: Int32Array;
  totalWeight: Float32Array;
  freeCount: Uint8Array;
  rarestStart: Int32Array;
  rarestCode: Int32Array;
  rarestSecond: Int32Array;
  rarestWeight: Float32Array;
  rarestTotal: Float32Array;
  secondStart: Int32Array;
  secondCode: Int32Array;
}

/**
 * Inverted index over official titles. Each code keeps its required stems (the ones a note has to
 * state) with IDF weights, and is posted under its one or two rarest stems, so a sentence only
 * visits codes whose rarest word it contains: the full table stays cheap to scan.
 *
 * Built once, in shared memory (issue 28, the service's RSS): the thread that builds it posts its
 * parts, and every engine thread adopts them; only the stems' Map is each thread's own.
 */
export class DescriptionIndex {
  readonly vocab = new Map<string, number>();
  readonly weights: Float32Array;
  /** required stem ids of code i: stems.subarray(start[i], start[i + 1]) */
  readonly start: Int32Array;
  readonly stems: Int32Array;
  readonly totalWeight: Float32Array;
  /** how many tokens of the title are free (unspecified, without ...) */
  readonly freeCount: Uint8Array;
  /**
   * The codes posted under each stem, laid end to end by stem id (those of stem id s from
   * rarestStart[s]): each code's row, its second rarest stem (-1: none), its rarest stem's weight
   * and its total weight, read in place and in order.
   */
  readonly rarestStart: Int32Array;
  readonly rarestCode: Int32Array;
  readonly rarestSecond: Int32Array;
  readonly rarestWeight: Float32Array;
  readonly rarestTotal: Float32Array;
  /** the codes whose second rarest stem is s: secondCode from secondStart[s] */
  private readonly secondStart: Int32Array;
  private readonly secondCode: Int32Array;
  private readonly source: DescriptionIndexParts;

  constructor(source: Titles | DescriptionIndexParts) {
    const p = 'titleAt' in source ? build(source) : source;
    this.source = p;
    if (p.vocab) p.vocab.split('\n').forEach((stem, id) => this.vocab.set(stem, id));
    this.weights = p.weights;
    this.start = p.start;
    this.stems = p.stems;
    this.totalWeight = p.totalWeight;
    this.freeCount = p.freeCount;
    this.rarestStart = p.rarestStart;
    this.rarestCode = p.rarestCode;
    this.rarestSecond = p.rarestSecond;
    this.rarestWeight = p.rarestWeight;
    this.rarestTotal = p.rarestTotal;
    this.secondStart = p.secondStart;
    this.secondCode = p.secondCode;
  }

  /** The index as posted to another thread (its arrays shared, not copied). */
  parts(): DescriptionIndexParts {
    return this.source;
  }

  stemId(stem: string): number | undefined {
    return this.vocab.get(stem);
  }

  requiredOf(code: number): Int32Array {
    return this.stems.subarray(this.start[code], this.start[code + 1]);
  }

  /** Codes whose rarest required stem (or, when `wide`, second rarest) is among `stemIds`. */
  candidates(stemIds: Iterable<number>, wide: boolean): Set<number> {
    const out = new Set<number>();
    for (const id of stemIds) {
      for (let k = this.rarestStart[id]; k < this.rarestStart[id + 1]; k++) out.add(this.rarestCode[k]);
      if (wide) for (let k = this.secondStart[id]; k < this.secondStart[id + 1]; k++) out.add(this.secondCode[k]);
    }
    return out;
  }
}

/**
 * The index of the titles, built in this thread and laid out in shared memory. Each title's
 * stem ids go into one growing typed array as they are read (issue 28, the service's RSS: an
 * array per title, all held until the weights are known, grew the thread's old space by ~20 MB
 * of garbage at its peak).
 */
function build(titles: Titles): DescriptionIndexParts {
  const vocab = new Map<string, number>();
  const n = titles.size;
  const start = new Int32Array(new SharedArrayBuffer(4 * (n + 1)));
  const totalWeight = new Float32Array(new SharedArrayBuffer(4 * n));
  const freeCount = new Uint8Array(new SharedArrayBuffer(n));
  // Code i's stem ids, in title order: read.subarray(start[i], start[i + 1]).
  let read = new Int32Array(8 * n);
  const df: number[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    start[i] = total;
    let free = 0;
    for (const t of descriptionTokens(titles.titleAt(i))) {
      if (t.free) {
        free++;
        continue;
      }
      let id = vocab.get(t.stem);
      if (id === undefined) {
        id = vocab.size;
        vocab.set(t.stem, id);
        df.push(0);
      }
      if (read.subarray(start[i], total).includes(id)) continue;
      if (total === read.length) {
        const grown = new Int32Array(2 * read.length);
        grown.set(read);
        read = grown;
      }
      read[total++] = id;
      df[id]++;
    }
    freeCount[i] = Math.min(free, 255);
  }
  start[n] = total;
  const weights = new Float32Array(new SharedArrayBuffer(4 * df.length));
  for (const [stem, id] of vocab) {
    const idf = Math.log((n + 1) / (df[id] + 0.5));
    weights[id] = GENERIC.has(stem) ? idf * 0.3 : idf;
  }
  const stems = new Int32Array(new SharedArrayBuffer(4 * total));
  // Per stem id, how many codes it is the rarest (second rarest) stem of; then the lists, in row order.
  const rarestCount = new Int32Array(vocab.size + 1);
  const secondCount = new Int32Array(vocab.size + 1);
  for (let i = 0; i < n; i++) {
    // Rarest first (a stable sort: ties keep title order).
    const ids = Array.from(read.subarray(start[i], start[i + 1])).sort((a, b) => weights[b] - weights[a]);
    let w = 0;
    for (let k = 0; k < ids.length; k++) {
      stems[start[i] + k] = ids[k];
      w += weights[ids[k]];
    }
    totalWeight[i] = w;
    if (ids.length > 0) rarestCount[ids[0]]++;
    if (ids.length > 1) secondCount[ids[1]]++;
  }
  const rarestStart = offsets(rarestCount);
  const secondStart = offsets(secondCount);
  const posted = rarestStart[vocab.size];
  const rarestCode = new Int32Array(new SharedArrayBuffer(4 * posted));
  const rarestSecond = new Int32Array(new SharedArrayBuffer(4 * posted));
  const rarestWeight = new Float32Array(new SharedArrayBuffer(4 * posted));
  const rarestTotal = new Float32Array(new SharedArrayBuffer(4 * posted));
  const secondCode = new Int32Array(new SharedArrayBuffer(4 * secondStart[vocab.size]));
  const rarestAt = rarestStart.slice();
  const secondAt = secondStart.slice();
  for (let c = 0; c < n; c++) {
    const from = start[c];
    const count = start[c + 1] - from;
    if (count > 1) secondCode[secondAt[stems[from + 1]]++] = c;
    if (count === 0) continue;
    const at = rarestAt[stems[from]]++;
    rarestCode[at] = c;
    rarestSecond[at] = count > 1 ? stems[from + 1] : -1;
    rarestWeight[at] = weights[stems[from]];
    rarestTotal[at] = totalWeight[c];
  }
  return {
    vocab: [...vocab.keys()].join('\n'),
    weights,
    start,
    stems,
    totalWeight,
    freeCount,
    rarestStart,
    rarestCode,
    rarestSecond,
    rarestWeight,
    rarestTotal,
    secondStart,
    secondCode,
  };
}

/** Counts per id as start offsets in shared memory: offsets[id] = the sum of counts before id (one more, the total). */
function offsets(counts: Int32Array): Int32Array {
  const out = new Int32Array(new SharedArrayBuffer(4 * counts.length));
  for (let id = 1; id < counts.length; id++) out[id] = out[id - 1] + counts[id - 1];
  return out;
}
