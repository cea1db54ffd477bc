import { assertWords } from '../assertions.js';
import { type Candidates, sentenceAt } from '../candidate.js';

// Words that say an HIV infection shows nothing: "asymptomatic HIV", "HIV positive, asymptomatic".
const WITHOUT_SYMPTOMS = /^(asymptomatic|asymptomatically)$/;

/**
 * HIV infection the note calls asymptomatic is a status, Z21 (I.C.1.a.2.d: "Asymptomatic human
 * immunodeficiency virus (HIV) infection status ... is to be applied when the patient without any
 * documentation of symptoms is listed as being HIV positive"; Index: Human immunodeficiency virus,
 * asymptomatic status Z21), not HIV disease (B20): Z21 Excludes1 B20.
 */
export function applyHivStatus(cands: Candidates): void {
  for (const b20 of cands.finalsIn('B20')) {
    const said = b20.spans.some((sp) => {
      const s = sentenceAt(cands.ctx, sp.start, sp.end);
      if (!s) return false;
      const asserted = assertWords(s.words, s.lower);
      return s.lower.some((w, k) => WITHOUT_SYMPTOMS.test(w) && asserted[k] === 'present');
    });
    if (!said) continue;
    cands.discard(b20, 'Discarded: the HIV infection is stated asymptomatic, a status (Z21; I.C.1.a.2.d).');
    cands.assign('Z21', 'asymptomatic HIV infection status (I.C.1.a.2.d; Index: Human immunodeficiency virus, asymptomatic status)', [b20]);
  }
}
