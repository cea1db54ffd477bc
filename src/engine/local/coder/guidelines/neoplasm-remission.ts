import { type Candidates, dotted, sentenceAt } from '../candidate.js';

// Leukemias, multiple myeloma and other malignant plasma cell neoplasms (C90-C95) take a 5th or
// 6th character for remission. The Tabular puts the NOS term under "not having achieved remission"
// (C92.00 "Acute myeloblastic leukemia NOS"): a code "in remission" or "in relapse" is the note's
// to state, and gives way to that sibling when its sentence says neither.
const STAGES = /\b(in remission|in relapse)\b/i;
const STATED = /^(remission|remissions|relapse|relapsed|relapsing|recurrence|recurrent)$/;

export function applyRemissionStated(cands: Candidates): void {
  const { it, table } = cands.ctx;
  if (!it) return;
  for (const c of cands.finalsIn('C90', 'C91', 'C92', 'C93', 'C94', 'C95')) {
    if (!STAGES.test(table.descriptionAt(c.index))) continue;
    if (c.spans.some((sp) => sentenceAt(cands.ctx, sp.start, sp.end)?.lower.some((w) => STATED.test(w)))) continue;
    const parent = c.code.slice(0, -1);
    for (const ch of '0123456789') {
      const index = table.indexOf(parent + ch);
      if (index === undefined || index === c.index || !table.billableAt(index)) continue;
      const nos = it.notes(dotted(parent + ch)).some((n) => n.kind === 'inc' && /\bNOS\b/.test(n.text));
      if (!nos) continue;
      const made = cands.assign(table.codeAt(index), "the Tabular's NOS term: remission not stated (guideline I.C.2)", [c]);
      if (made && made !== c)
        cands.discard(c, `Discarded: the note does not state remission or relapse; ${dotted(made.code)} holds the NOS term.`);
      break;
    }
  }
}
