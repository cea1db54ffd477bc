import { type Candidate, type Candidates, dotted, sentenceAt } from '../candidate.js';
import { spanPairsInSentence } from './span-pairs.js';

// The neoplasm code range (Chapter 2), which the Index's class subterms name.
const NEOPLASM = /^(C|D[0-3]|D4[0-9])/;
// An Index subterm that names neoplasms as a class: "neoplastic disease" (Anemia, in), "neoplasm
// related" (Pain, chronic), "cancer associated", "due to malignancy" (Pain).
const CLASS_TITLE = /^(due to )?(neoplastic disease|neoplasm|malignancy|cancer|tumor)( related| associated)?$/;
// Words that say the condition comes from what follows ("anemia due to leukemia", "pain from cancer").
const CAUSE = new Set(['due', 'to', 'from', 'secondary', 'related', 'associated', 'with', 'in', 'caused', 'by', 'of']);
const MAX_GAP = 4;

/**
 * A condition the note says comes from a neoplasm it codes ("anemia due to chronic lymphocytic
 * leukemia", "pain from prostate cancer") is coded by the Index subterm that names neoplasms as a
 * class: "Anemia > in (due to) (with) > neoplastic disease D63.0" (I.C.2.c.1), "Pain > cancer
 * associated G89.3" (I.C.6.b.5). Only a condition the note states without more (its main term's
 * own code: D64.9, R52) is replaced; the neoplasm stays, and D63.0's "code first neoplasm" sequences it.
 */
export function applyNeoplasmRelated(cands: Candidates): void {
  if (!cands.ctx.it) return;
  const neoplasms = cands.finals().filter((n) => NEOPLASM.test(n.code));
  if (neoplasms.length === 0) return;
  for (const c of cands.finals()) {
    if (NEOPLASM.test(c.code) || c.origin === 'learned') continue;
    // The neoplasm nearest after the words of cause.
    let n: Candidate | undefined;
    let nearest = Infinity;
    for (const x of neoplasms) {
      const gap = x.final ? causeGap(cands, c, x) : Infinity;
      if (gap < nearest) [n, nearest] = [x, gap];
    }
    if (!n) continue;
    const code = classCode(cands, c);
    if (code === undefined) continue;
    const made = cands.assign(
      code,
      `the Alphabetic Index codes this condition due to a neoplasm (${dotted(n.code)}) by its neoplasm subterm (I.C.2.c.1, I.C.6.b.5)`,
      [c, n],
    );
    if (made && made !== c) cands.discard(c, `Discarded: due to ${dotted(n.code)}, the Alphabetic Index codes it ${dotted(code)}.`);
  }
}

/** The words from `c` to the neoplasm `n` when the sentence states `c`, a word of cause, then `n`, a few words apart; Infinity otherwise. */
function causeGap(cands: Candidates, c: Candidate, n: Candidate): number {
  let gap = Infinity;
  for (const [s, a, b] of spanPairsInSentence(cands, c, n)) {
    if (b.end <= a.end) continue;
    const between: string[] = [];
    if (b.start >= a.end) {
      for (let w = 0; w < s.words.length; w++) if (s.starts[w] >= a.end && s.ends[w] <= b.start) between.push(s.lower[w]);
    } else if (b.start <= a.start) {
      // An Index reading of the whole phrase ("Pain due to ovarian cancer"): the words of cause after `c`.
      for (let w = 0; w < s.words.length && s.ends[w] <= b.end; w++)
        if (s.starts[w] >= a.end) {
          if (!CAUSE.has(s.lower[w])) break;
          between.push(s.lower[w]);
        }
    }
    if (between.length > 0 && between.length <= MAX_GAP && CAUSE.has(between[0]) && between.some((w) => w !== 'of'))
      gap = Math.min(gap, between.length);
  }
  return gap;
}

/** The billable code of the class subterm under the main term whose own code `c` is, nearest the main term. */
function classCode(cands: Candidates, c: Candidate): string | undefined {
  const { it, table } = cands.ctx;
  const s = sentenceAt(cands.ctx, c.spans[0].start, c.spans[0].end);
  if (!it || !s) return undefined;
  const words = s.lower.filter((_, w) => s.starts[w] >= c.spans[0].start && s.ends[w] <= c.spans[0].end);
  for (const main of it.mainTerms(words.join(' '))) {
    if (it.codeOf(main).replace(/[.-]/g, '') !== c.code) continue;
    let best: number | undefined;
    for (let t = main + 1; t < it.end[main]; t++) {
      if (!it.codeOf(t) || !CLASS_TITLE.test(it.titleOf(t).toLowerCase())) continue;
      if (best === undefined || it.level[t] < it.level[best]) best = t;
    }
    const code = best === undefined ? '' : it.codeOf(best).replace(/[.-]/g, '');
    if (code && table.billableAt(table.indexOf(code) ?? -1)) return code;
  }
  return undefined;
}
