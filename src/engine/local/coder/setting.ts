import type { Sentence } from './sentence-split.js';

// Words that place a record in a hospital stay (guidelines II.H, III.C: uncertain diagnoses at
// discharge are coded as if established), and phrases that place it in an office or clinic
// (IV.H: they are not). A case report that follows a patient through hospital care reads as
// inpatient; a note that says it is an office or clinic visit stays outpatient whatever else it says.
const INPATIENT = new Set([
  'admitted',
  'admission',
  'hospitalized',
  'hospitalised',
  'hospitalization',
  'hospitalisation',
  'inpatient',
  'icu',
  'ward',
  'discharged',
  'hospital',
  'underwent',
  'postoperative',
  'postoperatively',
  'operated',
  'surgery',
]);
const OUTPATIENT_FIRST = new Set(['office', 'clinic', 'outpatient', 'telehealth', 'telemedicine', 'ambulatory']);
const OUTPATIENT_NEXT = new Set(['visit', 'visits', 'note', 'encounter', 'follow-up', 'appointment', 'consultation']);

/** Whether the note documents an inpatient stay: one scan over its words. */
export function isInpatient(sentences: readonly Sentence[]): boolean {
  let inpatient = false;
  for (const s of sentences) {
    for (let i = 0; i < s.words.length; i++) {
      const w = s.lower[i];
      const next = s.lower[i + 1] ?? '';
      if (w === 'outpatient' || w === 'telehealth' || w === 'telemedicine' || (OUTPATIENT_FIRST.has(w) && OUTPATIENT_NEXT.has(next)))
        return false;
      if (w === 'urgent' && next === 'care') return false;
      if (INPATIENT.has(w) || (w === 'intensive' && next === 'care') || (w === 'discharge' && next === 'summary')) inpatient = true;
    }
  }
  return inpatient;
}
