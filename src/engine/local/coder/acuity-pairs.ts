import type { IndexTabular } from '../../../terminology/index-tabular.js';
import { wordStems } from '../../../terminology/text-normalize.js';
import { readingOf } from './index-terms.js';
import type { Near } from './mention-reach.js';

const ACUITY = new Set(['acute', 'subacute', 'chronic'].map((w) => wordStems(w)[0]));
/** How far apart the two acuities of one condition may be stated: "acute on chronic", "acute and chronic". */
const TOGETHER = 2;

const continuing = new WeakMap<IndexTabular, Int8Array>();

/** Whether term i's title continues its parent's with an acuity alone ("and (on) chronic"), read once per term (the descent asks of every subterm it reads). */
function continuesWithAcuity(it: IndexTabular, i: number): boolean {
  let known = continuing.get(it);
  if (!known) continuing.set(it, (known = new Int8Array(it.size)));
  if (known[i] === 0) {
    const own = readingOf(it, i).alts;
    const yes = /^and\b/i.test(it.titleOf(i)) && own.length > 0 && own.every((alt) => alt.length > 0 && alt.every((s) => ACUITY.has(s)));
    known[i] = yes ? 1 : -1;
  }
  return known[i] === 1;
}

/**
 * Whether an acuity subterm that continues its parent ("Failure, heart, systolic, acute, and (on)
 * chronic") is stated apart from the parent's acuity: the note must state the two together, as
 * "acute on chronic" or "chronic and acute" of the one condition. "Acute systolic heart failure
 * and chronic kidney disease" states a chronic kidney, not an acute on chronic heart failure.
 */
export function acuityApart(it: IndexTabular, parent: number, child: number, words: readonly number[], where: Near): boolean {
  if (!continuesWithAcuity(it, child)) return false;
  for (const alt of readingOf(it, parent).alts)
    for (const s of alt) {
      const at = where.first(s);
      if (at >= 0 && words.some((w) => Math.abs(w - at) <= TOGETHER)) return false;
    }
  return true;
}

/** Whether term i's title reads an acuity ("chronic", "acute (congestive)"): a level that always says something (I.B.8). */
export function readsAcuity(it: IndexTabular, i: number): boolean {
  return readingOf(it, i).alts.some((alt) => alt.some((s) => ACUITY.has(s)));
}
