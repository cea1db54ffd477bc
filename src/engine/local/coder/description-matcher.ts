import type { CodeTable } from '../../../terminology/code-table.js';
import type { LevelConfig } from './levels.js';
import type { Mention, SentenceStems } from './mention.js';
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
  extra: ReadonlyArray<readonly [stemId: number, pos: number, endWord: number]> = [],
  clause?: Int32Array,
  conj?: Int32Array,
): Mention[] {
  const index = table.index;
  // Each stem id's positions, in the order put: lists in reused scratch arrays (no Map and array
  // per id per sentence), the ids in the order first put.
  const seen = scratchFor(index.vocab.size);
  const gen = ++generation;
  let ids = 0;
  let entries = 0;
  const put = (id: number, pos: number) => {
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
  };
  const vocab = vocabIds(index);
  for (let i = 0; i < st.stems.length; i++) {
    const id = vocab.of(st.numbers[i], st.stems[i]);
    if (id >= 0) put(id, i);
  }
  // Stems of titles the lexicon already found here, so "T2DM with nephropathy" reaches E11.21.
  // A window that uses such a title reaches to the end of the synonym it stands for.
  const reach = new Map<number, number>();
  for (const [id, pos, endWord] of extra) {
    put(id, pos);
    reach.set(pos, Math.max(reach.get(pos) ?? 0, endWord));
  }
  if (ids === 0) return [];
  const has = (id: number) => seen[id] === gen;
  const out: Mention[] = [];
  const weights = index.weights;
  const stems = index.stems;
  const reachList = [...reach];
  // With full coverage required, the first missing stem (rarest first) settles it.
  const needAll = cfg.minCoverage >= 1;
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
  return out;

  function visit(code: number): void {
    const from = index.start[code];
    const to = index.start[code + 1];
    const total = index.totalWeight[code];
    if (to === from || total <= 0) return;
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
    const required = index.requiredOf(code);
    const present = missing === 0 ? Array.from(required) : Array.from(required).filter(has);
    const win = tightestWindow(present);
    const n = present.length;
    const slack = cfg.descriptions === 'exact' ? 0 : cfg.slack;
    if (win.span > n + slack) return;
    // A title stated across a list ("auscultation, lower limb edema") is no statement of it, save
    // a title written in parts that the note states word after word, as the Tabular writes it
    // ("Major depressive disorder, recurrent, moderate").
    if (clause && clause[st.from[win.min]] !== clause[st.from[win.max]] && !(win.span === n && table.descriptionAt(code).includes(',')))
      return;
    // Spread out over "X and Y", the title's words usually belong to two things.
    if (conj && win.span > n && conj[st.from[win.min]] !== conj[st.from[win.max]]) return;
    const coverage = covered / total;
    let end = st.from[win.max];
    for (const [pos, endWord] of reachList) if (pos >= win.min && pos <= win.max) end = Math.max(end, endWord);
    out.push({
      code,
      sentence,
      start: st.from[win.min],
      end,
      source: 'description',
      weight: covered,
      score: coverage * (1 - 0.04 * Math.max(0, win.span - n)),
    });
  }
}

/**
 * The shortest stem-position window holding one occurrence of every id: a sliding window over
 * the merged, sorted positions, so O(P log P) in the occurrences P (the sentence is bounded).
 */
function tightestWindow(ids: number[]): { min: number; max: number; span: number } {
  if (ids.length === 1) {
    const p = entryPos[firstEntry[ids[0]]];
    return { min: p, max: p, span: 1 };
  }
  const events: Array<[pos: number, which: number]> = [];
  ids.forEach((id, k) => {
    for (let e = firstEntry[id]; e >= 0; e = entryNext[e]) events.push([entryPos[e], k]);
  });
  events.sort((a, b) => a[0] - b[0]);
  const seen = new Array<number>(ids.length).fill(0);
  let distinct = 0;
  let best = { min: 0, max: 0, span: Number.POSITIVE_INFINITY };
  let lo = 0;
  for (let hi = 0; hi < events.length; hi++) {
    if (seen[events[hi][1]]++ === 0) distinct++;
    while (distinct === ids.length) {
      const span = events[hi][0] - events[lo][0] + 1;
      if (span < best.span) best = { min: events[lo][0], max: events[hi][0], span };
      if (--seen[events[lo][1]] === 0) distinct--;
      lo++;
    }
  }
  return best;
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
