import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { wordStems } from '../../../../terminology/text-normalize.js';
import { type Candidate, type Candidates, dotted, sentenceAt } from '../candidate.js';
import { completeCode } from '../complete-code.js';
import { readingOf } from '../index-terms.js';

export const [ACUTE, SUBACUTE, CHRONIC] = ['acute', 'subacute', 'chronic'].map((w) => wordStems(w)[0]);
const ACUITY = new Set([ACUTE, SUBACUTE, CHRONIC]);
/** How far apart the two acuities of one condition may be stated: "acute on chronic", "chronic and acute". */
const TOGETHER = 2;

/**
 * Acute and chronic conditions (I.B.8): a condition the note calls both acute (or subacute) and
 * chronic, whose Index term has separate subentries for the two at one level ("Pancreatitis,
 * acute K85.90", "Pancreatitis, chronic K86.1"), is coded twice, the acute one first; unless the
 * Index gives a combination below the one read ("Cholecystitis, acute, with chronic K81.2"),
 * which the descent has then taken.
 */
export function applyAcuteAndChronic(cands: Candidates): void {
  const { it, table } = cands.ctx;
  if (!it || !cands.ctx.indexTerms) return;
  for (const c of cands.finals()) {
    if (c.origin === 'rule') continue;
    const term = c.found?.mention.indexTerm ?? cands.ctx.indexTerms.get(c.index) ?? indexTermStated(cands, it, c);
    if (term === undefined) continue;
    const read = acuityOnPath(it, term);
    if (!read || !bothStated(cands, c)) continue;
    const other = siblingAcuity(it, read.at, read.stem);
    if (other === undefined) continue;
    const index = completeCode(table, it.codeOf(other), { present: { has: () => false }, negated: new Set() });
    if (index === undefined || index === c.index) continue;
    cands.assign(
      table.codeAt(index),
      `acute and chronic, separate subentries at one level of the Alphabetic Index: both are coded, the acute first (I.B.8), with ${dotted(c.code)}`,
      [c],
    );
  }
}

/** The subterm on the path down to `term` that reads one acuity alone, when nothing below it reads another. */
export function acuityOnPath(it: IndexTabular, term: number): { at: number; stem: string } | undefined {
  let found: { at: number; stem: string } | undefined;
  for (let j = term, lv = it.level[term] + 1; j >= 0 && lv > 1; j--) {
    if (it.level[j] >= lv) continue;
    lv = it.level[j];
    const { alts } = readingOf(it, j);
    const acuities = alts.flat().filter((s) => ACUITY.has(s));
    if (acuities.length === 0) continue;
    // A subterm below the first one read already names the other acuity: the Index's combination.
    if (found) return undefined;
    // One acuity, or acuities alone ("acute or subacute J20.9").
    if (!oneAcuityEach(alts) || readingOf(it, j).connector !== '') return undefined;
    found = { at: j, stem: alts[0][0] };
  }
  return found;
}

const oneAcuityEach = (alts: readonly string[][]) => alts.length > 0 && alts.every((a) => a.length === 1 && ACUITY.has(a[0]));

/** The coded sibling of subterm `at` that reads the other acuity alone (chronic for acute or subacute). */
export function siblingAcuity(it: IndexTabular, at: number, stem: string): number | undefined {
  let parent = at - 1;
  while (parent >= 0 && it.level[parent] >= it.level[at]) parent--;
  if (parent < 0) return undefined;
  const want = stem === CHRONIC ? [ACUTE, SUBACUTE] : [CHRONIC];
  for (const child of it.children(parent)) {
    if (child === at || !it.codeOf(child)) continue;
    const { alts, connector } = readingOf(it, child);
    if (connector === '' && oneAcuityEach(alts) && alts.every((a) => want.includes(a[0]))) return child;
  }
  return undefined;
}

/** Whether a sentence of the candidate's evidence states the two acuities together ("acute on chronic"). */
function bothStated(cands: Candidates, c: Candidate): boolean {
  for (const span of c.spans) {
    const s = sentenceAt(cands.ctx, span.start, span.end);
    if (!s) continue;
    const at = (stems: string[]) => s.lower.flatMap((w, i) => (wordStems(w).some((x) => stems.includes(x)) ? [i] : []));
    const acute = at([ACUTE, SUBACUTE]);
    const chronic = at([CHRONIC]);
    if (acute.some((a) => chronic.some((b) => Math.abs(a - b) <= TOGETHER))) return true;
  }
  return false;
}

/**
 * The Index term of a code read from its official title ("acute bronchitis", J20.9): the subterm
 * with that code under a main term the evidence names, as a coder finds it in the Index.
 */
function indexTermStated(cands: Candidates, it: IndexTabular, c: Candidate): number | undefined {
  const want = dotted(c.code);
  for (const span of c.spans) {
    const s = sentenceAt(cands.ctx, span.start, span.end);
    if (!s) continue;
    for (let w = 0; w < s.words.length; w++) {
      if (s.starts[w] < span.start || s.ends[w] > span.end) continue;
      for (const main of it.mainTerms(s.lower[w]))
        for (let j = main + 1; j < it.end[main]; j++) if (it.level[j] === 1 && it.codeOf(j) === want) return j;
    }
  }
  return undefined;
}
