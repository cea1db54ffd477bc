import type { CodeTable } from '../../../terminology/code-table.js';
import type { LevelConfig } from './levels.js';
import { newMention, type Mention, type SentenceStems } from './mention.js';
import { vocabIds } from './vocab-ids.js';

/**
 * Finds codes whose official title the sentence states: enough of the title's required words
 * (by IDF weight) close together. Positions are in stem space, so stopwords do not count.
 */
export function matchDescriptions(
  table: CodeTable,
  st: SentenceStems,
  sentence: number,
  cfg: LevelConfig,
  extra: ReadonlyArray<readonly [stemId: number, pos: number, endWord: number]> = NO_EXTRA,
  clause?: Int32Array,
  conj?: Int32Array,
): Mention[] {
  const index = table.index;
  // Each stem id's positions, in the order put: lists in reused scratch arrays (no Map and array
  // per id per sentence), the ids in the order first put. (The helpers are module functions over
  // module state, not closures made per call.)
  seen = scratchFor(index.vocab.size);
  gen = ++generation;
  ids = 0;
  entries = 0;
  const vocab = vocabIds(index);
  for (let i = 0; i < st.stems.length; i++) {
    const id = vocab.of(st.numbers[i], st.stems[i]);
    if (id >= 0) put(id, i);
  }
  // Stems of titles the lexicon already found here, so "T2DM with nephropathy" reaches E11.21.
  // A window that uses such a title reaches to the end of the synonym it stands for.
  let reachList: Array<[number, number]> = NO_REACH;
  if (extra.length) {
    const reach = new Map<number, number>();
    for (const [id, pos, endWord] of extra) {
      put(id, pos);
      reach.set(pos, Math.max(reach.get(pos) ?? 0, endWord));
    }
    reachList = [...reach];
  }
  if (ids === 0) return [];
  const out: Mention[] = [];
  // With full coverage required, the first missing stem (rarest first) settles it.
  const needAll = cfg.minCoverage >= 1;
  v = { table, index, st, sentence, cfg, clause, conj, needAll, reachList, out };
  // Without the wide search every code is posted under one stem only: no set needed to dedupe,
  // and the postings are read in place.
  if (cfg.wideCandidates) {
    for (const code of index.candidates(order.subarray(0, ids), true)) visit(code);
  } else {
    // (The postings are read by place, not through a subarray view, an object per stem.)
    const { rarestStart, rarestCode, rarestSecond, rarestWeight, rarestTotal } = index;
    for (let j = 0; j < ids; j++) {
      const id = order[j];
      for (let k = rarestStart[id]; k < rarestStart[id + 1]; k++) {
        // With every stem required, a code whose second stem the sentence lacks is settled by
        // its rarest's weight alone (visit reads the same figures): read beside the postings.
        if (needAll && rarestSecond[k] >= 0 && !has(rarestSecond[k])) {
          const covered = rarestWeight[k];
          const total = rarestTotal[k];
          if (total <= 0 || covered < cfg.minWeight || covered / total < cfg.minCoverage - 1e-6) continue;
        }
        visit(rarestCode[k]);
      }
    }
  }
  v = undefined;
  return out;
}

const NO_EXTRA: ReadonlyArray<readonly [number, number, number]> = [];
const NO_REACH: Array<[number, number]> = [];

/** What `visit` reads of the sentence being matched (set by matchDescriptions for its call). */
interface Visit {
  table: CodeTable;
  index: CodeTable['index'];
  st: SentenceStems;
  sentence: number;
  cfg: LevelConfig;
  clause: Int32Array | undefined;
  conj: Int32Array | undefined;
  needAll: boolean;
  reachList: Array<[number, number]>;
  out: Mention[];
}
let v: Visit | undefined;
// The sentence's stamp array and generation, and its counts of ids and entries.
let seen: Int32Array = new Int32Array(0);
let gen = 0;
let ids = 0;
let entries = 0;

function put(id: number, pos: number): void {
  const e = growEntries(entries++);
  entryPos[e] = pos;
  entryNext[e] = -1;
  if (seen[id] === gen) entryNext[lastEntry[id]] = e;
  else {
    seen[id] = gen;
    firstEntry[id] = e;
    order[ids++] = id;
  }
  lastEntry[id] = e;
}

function has(id: number): boolean {
  return seen[id] === gen;
}

function visit(code: number): void {
  const { table, index, st, cfg, clause, conj, needAll } = v!;
  const from = index.start[code];
  const to = index.start[code + 1];
  const total = index.totalWeight[code];
  if (to === from || total <= 0) return;
  const stems = index.stems;
  const weights = index.weights;
  // A partial match must still contain the title's rarest word.
  if (!has(stems[from])) return;
  let covered = 0;
  let missing = 0;
  for (let k = from; k < to; k++) {
    if (has(stems[k])) covered += weights[stems[k]];
    else if (needAll) break;
    else missing++;
  }
  if (covered < cfg.minWeight || covered / total < cfg.minCoverage - 1e-6) return;
  // The title's stems the sentence holds (all of them when none is missing), in title order.
  let n = 0;
  const present = presentScratch(to - from);
  for (let k = from; k < to; k++) if (missing === 0 || has(stems[k])) present[n++] = stems[k];
  tightestWindow(present, n);
  const slack = cfg.descriptions === 'exact' ? 0 : cfg.slack;
  if (winSpan > n + slack) return;
  // A title stated across a list ("auscultation, lower limb edema") is no statement of it, save
  // a title written in parts that the note states word after word, as the Tabular writes it
  // ("Major depressive disorder, recurrent, moderate").
  if (clause && clause[st.from[winMin]] !== clause[st.from[winMax]] && !(winSpan === n && table.descriptionAt(code).includes(','))) return;
  // Spread out over "X and Y", the title's words usually belong to two things.
  if (conj && winSpan > n && conj[st.from[winMin]] !== conj[st.from[winMax]]) return;
  const coverage = covered / total;
  let end = st.from[winMax];
  for (const [pos, endWord] of v!.reachList) if (pos >= winMin && pos <= winMax) end = Math.max(end, endWord);
  v!.out.push(
    newMention({
      code,
      sentence: v!.sentence,
      start: st.from[winMin],
      end,
      source: 'description',
      weight: covered,
      score: coverage * (1 - 0.04 * Math.max(0, winSpan - n)),
    }),
  );
}

// The tightest window's first and last stem positions and its span (set by tightestWindow).
let winMin = 0;
let winMax = 0;
let winSpan = 0;
let present = new Int32Array(16);
let events = new Float64Array(64);
let counts = new Int32Array(16);

function presentScratch(n: number): Int32Array {
  if (present.length < n) present = new Int32Array(Math.max(n, 2 * present.length));
  return present;
}

/**
 * The shortest stem-position window holding one occurrence of every id of `idList[0..n)`: a
 * sliding window over the merged, sorted positions, so O(P log P) in the occurrences P (the
 * sentence is bounded). Each occurrence is one number, position * n + which id, so a numeric sort
 * orders positions, and ties by id as the ids are listed.
 */
function tightestWindow(idList: Int32Array, n: number): void {
  if (n === 1) {
    const p = entryPos[firstEntry[idList[0]]];
    winMin = winMax = p;
    winSpan = 1;
    return;
  }
  let count = 0;
  for (let k = 0; k < n; k++) {
    for (let e = firstEntry[idList[k]]; e >= 0; e = entryNext[e]) {
      if (count === events.length) {
        const grown = new Float64Array(2 * events.length);
        grown.set(events);
        events = grown;
      }
      events[count++] = entryPos[e] * n + k;
    }
  }
  const sorted = events.subarray(0, count).sort();
  if (counts.length < n) counts = new Int32Array(Math.max(n, 2 * counts.length));
  counts.fill(0, 0, n);
  let distinct = 0;
  winMin = 0;
  winMax = 0;
  winSpan = Number.POSITIVE_INFINITY;
  let lo = 0;
  for (let hi = 0; hi < count; hi++) {
    const hiPos = Math.floor(sorted[hi] / n);
    if (counts[sorted[hi] % n]++ === 0) distinct++;
    while (distinct === n) {
      const loPos = Math.floor(sorted[lo] / n);
      const span = hiPos - loPos + 1;
      if (span < winSpan) {
        winMin = loPos;
        winMax = hiPos;
        winSpan = span;
      }
      if (--counts[sorted[lo] % n] === 0) distinct--;
      lo++;
    }
  }
}

let scratch = new Int32Array(0);
let generation = 0;
// Per stem id (valid while stamped with the sentence's generation): its first and last entry.
let firstEntry = new Int32Array(0);
let lastEntry = new Int32Array(0);
// The sentence's stem ids in the order first put.
let order = new Int32Array(0);
// Entries: a position and the next entry of the same id (-1: none).
let entryPos = new Int32Array(64);
let entryNext = new Int32Array(64);

/** One stamp per stem id, reused across sentences (a new generation marks a new sentence). */
function scratchFor(size: number): Int32Array {
  if (scratch.length < size || generation >= 0x3fffffff) {
    const n = Math.max(size, scratch.length);
    scratch = new Int32Array(n);
    firstEntry = new Int32Array(n);
    lastEntry = new Int32Array(n);
    order = new Int32Array(n);
    generation = 0;
  }
  return scratch;
}

/** Entry `e`, the entry arrays grown to hold it (a sentence's stems are bounded; a long one doubles them). */
function growEntries(e: number): number {
  if (e >= entryPos.length) {
    const pos = new Int32Array(2 * entryPos.length);
    const next = new Int32Array(2 * entryNext.length);
    pos.set(entryPos);
    next.set(entryNext);
    entryPos = pos;
    entryNext = next;
  }
  return e;
}
