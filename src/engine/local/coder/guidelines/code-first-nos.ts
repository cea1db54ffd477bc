import { type Candidates, dotted } from '../candidate.js';
import { spanPairsInSentence } from './span-pairs.js';
import { namesNos, noteRefCover } from './tabular-excludes.js';
import { notesUpOf } from './tabular-notes.js';

/**
 * A code whose "code first" note names, among its examples, a condition NOS that the code's
 * sentence states ("R65.20 Severe sepsis: code first underlying infection, such as: sepsis NOS
 * (A41.9)" for "severe sepsis"), when none of the conditions its "code first" notes name is coded:
 * that NOS code is the underlying condition, sequenced first (I.A.13; I.C.1.d.1.b "if the type of
 * infection or causal organism is not further specified, assign code A41.9").
 */
export function applyCodeFirstNos(cands: Candidates): void {
  for (const c of cands.finals()) {
    const notes = notesUpOf(cands.ctx, c.code).filter((n) => n.kind === 'cf' && n.refs.length > 0);
    if (!notes.some(namesNos)) continue;
    const coded = notes.some((n) => n.refs.some((ref) => cands.list.some((o) => o.final && o !== c && noteRefCover(n, ref)(o.code))));
    if (coded) continue;
    // The very words, not their stems: "septic shock" states no "sepsis".
    const said = new Set(spanPairsInSentence(cands, c, c).flatMap(([s]) => s.lower));
    for (const note of notes) {
      if (!namesNos(note)) continue;
      const words = note.text
        .split(/\bNOS\b/)[0]
        .toLowerCase()
        .split(/[\s,()]+/)
        .filter(Boolean);
      if (words.length === 0 || !words.every((w) => said.has(w))) continue;
      const made = cands.assign(note.refs[0], `${dotted(c.code)} says "code first: ${note.text}" and its sentence states it (I.A.13)`, [c]);
      // Read from the words of `c`, it stands where they do, first ("severe sepsis from pneumonia": A41.9, R65.20, J18.9).
      if (made) {
        const list = cands.list;
        list.splice(list.indexOf(made), 1);
        list.splice(list.indexOf(c), 0, made);
      }
      break;
    }
  }
}
