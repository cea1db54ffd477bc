import type { IndexTabular } from '../../../../terminology/index-tabular.js';
import { assertWords, PAST_YEAR } from '../assertions.js';
import type { Candidates, Span } from '../candidate.js';
import type { Sentence } from '../sentence-split.js';
import { bestSubterms, subtermsOf } from './index-subterms.js';

/** The reason for the visit is stated first: its first sentences, within their first words. */
const REASON_SENTENCES = 2;
const REASON_WORDS = 8;
/** How deep the Index's "Screening (for)" subterms are read ("neoplasm > breast > routine mammogram"). */
const DEPTH = 3;

/**
 * The screening the visit is for, read in the Alphabetic Index: the "Screening (for)" subterm whose
 * title the reason's sentence states best (whole, or but one word of several: "screening
 * mammogram" is "routine mammogram" Z12.31), among its words the note asserts.
 */
function indexScreening(it: IndexTabular, s: Sentence, at: number): { code: string; words: number[] } | undefined {
  const assertions = assertWords(s.words);
  const { stems, from } = s.stems;
  const said = new Map<string, number>();
  for (let k = 0; k < stems.length; k++) {
    const w = from[k];
    // What "screening for" reaches is what is looked for: hypothetical, and the screening's own words.
    if (w === at || (assertions[w] !== 'present' && assertions[w] !== 'hypothetical') || /^[;:]$/.test(s.lower[w])) continue;
    if (!said.has(stems[k])) said.set(stems[k], w);
  }
  const [best] = bestSubterms(subtermsOf(it, 'screening', DEPTH, /./, Infinity), said);
  return best;
}

/**
 * Screening (I.C.21.c.5): testing for a disease in a person without its signs or symptoms. A
 * visit whose stated reason is a screening ("Screening colonoscopy", "Routine screening
 * mammogram") is coded by the Index's "Screening (for)" subterm, first-listed; a condition the
 * screening finds is coded after it. A test for a sign or symptom is diagnostic, not screening:
 * the note names no screening then, and nothing is added.
 */
export function applyScreening(cands: Candidates): void {
  const { it, sentences, table } = cands.ctx;
  if (!it) return;
  for (let si = 0; si < sentences.length; si++) {
    const s = sentences[si];
    // The visit's reason is stated first; a screening stated later is one done at a visit for
    // something else ("Screening PSA drawn today" at an annual examination), coded beside it.
    const reason = si < REASON_SENTENCES;
    const at = s.lower.findIndex((w, i) => i < REASON_WORDS && w === 'screening');
    // A screening the plan arranges is a later visit's reason (IV.A).
    if (at < 0 || assertWords(s.words)[at] !== 'present' || s.lower.some((w) => PLANNED.has(w))) continue;
    if (!reason && !s.lower.some((w) => DONE.has(w))) continue;
    // A screening the note dates before this visit ("last screening colonoscopy in 2019") is history.
    if (datedPast(s.lower, at)) continue;
    const found = indexScreening(it, s, at);
    if (!found) continue;
    const spans: Span[] = [at, ...found.words].map((w) => ({ start: s.starts[w], end: s.ends[w] }));
    const made = cands.assign(found.code, 'encounter for screening (I.C.21.c.5; Index: Screening)', [], spans);
    if (!made) continue;
    // What is screened for is not diagnosed ("lung cancer screening"); another screening code of
    // the sentence is the same screening read less well.
    const inWords = (c: { spans: Span[] }) => c.spans.some((sp) => spans.some((w) => sp.start <= w.start && w.end <= sp.end));
    for (const c of cands.finals()) {
      if (c === made || !inWords(c)) continue;
      cands.discard(
        c,
        /^Z1[1-3]/.test(c.code)
          ? `Discarded: the screening is coded ${table.dottedAt(made.index)} by the Index's subterm the note states (I.C.21.c.5).`
          : `Discarded: named as what the screening (${table.dottedAt(made.index)}) looks for, not a diagnosis (I.C.21.c.5).`,
      );
    }
    // The screening code is first-listed when it is the visit's reason; what it found follows (I.C.21.c.5).
    if (!reason) return;
    cands.list.splice(cands.list.indexOf(made), 1);
    cands.list.unshift(made);
    return;
  }
}

const PAST = new Set(['last', 'previous', 'prior', 'ago']);
const CLAUSE_END = /^[;:,]$/;

/** Whether the clause of the word at `at` dates it in the past: "last", "ago", "in 2019". */
function datedPast(lower: readonly string[], at: number): boolean {
  let from = at;
  while (from > 0 && !CLAUSE_END.test(lower[from - 1])) from--;
  for (let i = from; i < lower.length && !CLAUSE_END.test(lower[i]); i++)
    if (PAST.has(lower[i]) || (PAST_YEAR.test(lower[i]) && lower[i - 1] === 'in')) return true;
  return false;
}
/** Words that say a screening stated after the visit's reason was done at this visit. */
const DONE = new Set(['today', 'drawn', 'done', 'performed', 'obtained', 'sent', 'collected', 'completed']);
const PLANNED = new Set(['schedule', 'scheduled', 'due', 'recommend', 'recommended', 'order', 'ordered', 'refer', 'referred', 'next']);
