import type { IndexTabular } from '../../../terminology/index-tabular.js';
import { wordStems } from '../../../terminology/text-normalize.js';
import { readingOf } from './index-terms.js';
import type { Near } from './mention-reach.js';

const ACUITY = new Set(['acute', 'subacute', 'chronic'].map((w) => wordStems(w)[0]));
/** How far apart the two acuities of one condition may be stated: "acute on chronic", "acute and chronic". */
const TOGETHER = 2;

/**
 * Whether an acuity subterm that continues its parent ("Failure, heart, systolic, acute, and (on)
 * chronic") is stated apart from the parent's acuity: the note must state the two together, as
 * "acute on chronic" or "chronic and acute" of the one condition. "Acute systolic heart failure
 * and chronic kidney disease" states a chronic kidney, not an acute on chronic heart failure.
 */
export function acuityApart(it: IndexTabular, parent: number, child: number, words: readonly number[], where: Near): boolean {
  if (!/^and\b/i.test(it.titleOf(child))) return false;
  const own = readingOf(it, child).alts;
  if (own.length === 0 || !own.every((alt) => alt.length > 0 && alt.every((s) => ACUITY.has(s)))) return false;
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
