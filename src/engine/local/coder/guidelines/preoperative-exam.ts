import type { Candidates } from '../candidate.js';

/** "Preoperative clearance", "pre-op evaluation", "preprocedural exam" as the reason for the visit. */
const PREOP =
  /\b(pre-?op(erative)?|pre-?procedural|pre-?surgical)\s+((cardiac|cardiovascular|pulmonary|respiratory|medical)\s+)?(clearance|evaluation|examination|exam|assessment|visit)\b/i;
/** The reason sentences: the visit's reason is stated first. */
const REASON_SENTENCES = 2;

/**
 * Encounter for a preoperative examination (I.C.21.c.16; Index: Examination, pre-procedural):
 * Z01.810 cardiovascular, Z01.811 respiratory, Z01.818 other; listed first, then the reason for
 * the surgery and the findings, which the note's own statements code.
 */
export function applyPreoperativeExam(cands: Candidates): void {
  const { text, sentences } = cands.ctx;
  for (const s of sentences.slice(0, REASON_SENTENCES)) {
    if (s.starts.length === 0) continue;
    const start = s.starts[0];
    const m = PREOP.exec(text.slice(start, s.ends[s.ends.length - 1]));
    if (!m) continue;
    const kind = m[4]?.toLowerCase();
    const code =
      kind === 'cardiac' || kind === 'cardiovascular' ? 'Z01.810' : kind === 'pulmonary' || kind === 'respiratory' ? 'Z01.811' : 'Z01.818';
    const span = { start: start + m.index, end: start + m.index + m[0].length };
    if (cands.assign(code, 'encounter for a preoperative examination (I.C.21.c.16; Index: Examination, pre-procedural)', [], [span]))
      return;
  }
}
