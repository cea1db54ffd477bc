import type { Sentence } from './nlp.js';

// Words that place a record in an inpatient stay (guideline II.H, III.C: uncertain diagnoses at
// discharge are coded as if established). Anything else is read as an outpatient encounter (IV.H).
const INPATIENT = new Set(['admitted', 'admission', 'hospitalized', 'hospitalised', 'hospitalization', 'hospitalisation', 'inpatient', 'icu', 'ward']);

/** Whether the note documents an inpatient stay: one scan over its words. */
export function isInpatient(sentences: readonly Sentence[]): boolean {
  for (const s of sentences) {
    for (let i = 0; i < s.words.length; i++) {
      const w = s.words[i].toLowerCase();
      if (INPATIENT.has(w)) return true;
      if (w === 'intensive' && s.words[i + 1]?.toLowerCase() === 'care') return true;
      if (w === 'discharge' && s.words[i + 1]?.toLowerCase() === 'summary') return true;
    }
  }
  return false;
}
