import type { IndexTabular } from '../../../terminology/index-tabular.js';
import { readsAcuity } from './acuity-pairs.js';
import { codeKeyOf, firstStemOf, readingOf, sameFourOf, SEVERAL, stemNumbers } from './index-terms.js';

/**
 * What a list of subterms holds of each (after the subterm): the number of the first stem of its
 * one plain title (firstStemOf), -1 for a title read otherwise, shifted by INFO_SHIFT; CODED when
 * it has a code; SKIPPABLE when its skip list (a note's) holds a subterm; SEVERAL_PLAIN.
 */
export const INFO_SHIFT = 3;
export const CODED = 1;
export const SKIPPABLE = 2;
/** several titles and no connector of its own: the first stems of its titles (firstStemsOf) are read as a plain title's first stem is */
export const SEVERAL_PLAIN = 4;

/** What a subterm's info holds whatever the note (all but SKIPPABLE). */
export function infoOf(it: IndexTabular, i: number): number {
  const f = firstStemOf(it, i);
  const plainFirst = f >= 0 && stemNumbers(it).plain[i] === 1 ? f : -1;
  const severalPlain = f === SEVERAL && readingOf(it, i).connector === '';
  return (plainFirst << INFO_SHIFT) | (codeKeyOf(it, i) !== 0 ? CODED : 0) | (severalPlain ? SEVERAL_PLAIN : 0);
}

/** Whether two Index codes are in one 3-character category. */
const sameCategory = (a: string, b: string) => a.length >= 3 && a.slice(0, 3) === b.slice(0, 3);

/**
 * Per term of the Index, its subterms as every note reads them, found on first use and kept for
 * the thread's life of the Index (a note reaches ~1,100 terms, most of them again in the next
 * note): each subterm with its info (infoOf), and where its skip candidates lie: the subterms below
 * it that a skipped level may lead to whatever the note, coded, with a code that refines the
 * subterm's (the same first four characters) or, below a subterm without a code, in the term's
 * category (only when the subterm or the term has a code). A note keeps of these the ones whose
 * titles start with its stems.
 */
export class SubtermLists {
  /** per term: where its subterms lie in `kids` (from -1: not read yet) */
  private readonly from: Int32Array;
  private readonly to: Int32Array;
  /** per subterm: child, info, and its skip candidates' range in `skips` */
  kids: Int32Array = new Int32Array(4096);
  private kidsSize = 0;
  /** per skip candidate: grandchild, info */
  skips: Int32Array = new Int32Array(1024);
  private skipsSize = 0;

  constructor(private readonly it: IndexTabular) {
    this.from = new Int32Array(it.size).fill(-1);
    this.to = new Int32Array(it.size);
  }

  /** Where term's subterms start in `kids` (KID_SIZE items each), reading them on first use. */
  first(term: number): number {
    if (this.from[term] < 0) this.read(term);
    return this.from[term];
  }

  /** Where term's subterms end in `kids`. */
  last(term: number): number {
    if (this.from[term] < 0) this.read(term);
    return this.to[term];
  }

  private read(term: number): void {
    const { it } = this;
    const termCoded = codeKeyOf(it, term) !== 0;
    const from = this.kidsSize;
    for (let child = term + 1; child < it.end[term]; child = it.end[child]) {
      const info = infoOf(it, child);
      const skipFrom = this.skipsSize;
      if ((info & CODED) !== 0 || termCoded) this.readSkips(term, child);
      this.kids = room(this.kids, this.kidsSize + KID_SIZE);
      this.kids[this.kidsSize++] = child;
      this.kids[this.kidsSize++] = info;
      this.kids[this.kidsSize++] = skipFrom;
      this.kids[this.kidsSize++] = this.skipsSize;
    }
    this.from[term] = from;
    this.to[term] = this.kidsSize;
  }

  private readSkips(term: number, child: number): void {
    const { it } = this;
    const refines = codeKeyOf(it, child);
    let category: string | undefined;
    for (let g = child + 1; g < it.end[child]; g = it.end[g]) {
      const key = codeKeyOf(it, g);
      if (key === 0 && refines !== 0 && isBareWith(it, g) && plainLevel(it, term, child)) {
        // The "with" subterms of a level skipped ("Diverticulitis, intestine, with, bleeding"),
        // in its category: a combination the note states of the term.
        for (let w = g + 1; w < it.end[g]; w = it.end[w]) {
          if (codeKeyOf(it, w) === 0 || !sameCategory(it.codeOf(w), it.codeOf(child))) continue;
          this.skips = room(this.skips, this.skipsSize + 2);
          this.skips[this.skipsSize++] = w;
          this.skips[this.skipsSize++] = infoOf(it, w);
        }
        continue;
      }
      if (key === 0) continue;
      if (refines !== 0 ? !sameFourOf(it, g, key, child, refines) : !sameCategory(it.codeOf(g), (category ??= it.codeOf(term)))) continue;
      this.skips = room(this.skips, this.skipsSize + 2);
      this.skips[this.skipsSize++] = g;
      this.skips[this.skipsSize++] = infoOf(it, g);
    }
  }
}

/** Whether subterm `child` of `term` has the term's own code, and is no acuity ("Cholecystitis K80.10, chronic K80.10"). */
export function plainLevel(it: IndexTabular, term: number, child: number): boolean {
  const key = codeKeyOf(it, child);
  return key !== 0 && key === codeKeyOf(it, term) && it.codeOf(child) === it.codeOf(term) && !readsAcuity(it, child);
}

/** Whether term i is a bare "with" (its subterms carry the connector). */
function isBareWith(it: IndexTabular, i: number): boolean {
  const r = readingOf(it, i);
  return r.alts.length === 0 && r.connector === 'with';
}

/** Items per subterm in SubtermLists.kids: child, info, skip candidates from, to. */
export const KID_SIZE = 4;

function room(a: Int32Array, size: number): Int32Array {
  if (size <= a.length) return a;
  const out = new Int32Array(Math.max(size, 2 * a.length));
  out.set(a);
  return out;
}

const lists = new WeakMap<IndexTabular, SubtermLists>();
let lastIt: IndexTabular | undefined;
let lastLists: SubtermLists | undefined;

/** The Index's subterm lists (SubtermLists), one per thread. */
export function subtermLists(it: IndexTabular): SubtermLists {
  if (it === lastIt) return lastLists!;
  let out = lists.get(it);
  if (!out) lists.set(it, (out = new SubtermLists(it)));
  lastIt = it;
  lastLists = out;
  return out;
}
