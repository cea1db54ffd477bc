import type { Candidates, Span } from '../candidate.js';
import { assertWords } from '../assertions.js';

const FEBRILE = /^(fever|fevers|febrile|pyrexia|pyrexial|hyperthermia|hyperthermic)$/;
const TEMP = /^(3[89](?:[.,]\d)?|4[0-2](?:[.,]\d)?|10[0-9](?:[.,]\d)?)$/;

/**
 * R68.83 is "chills (without fever)": in a febrile patient (fever stated, or a temperature of
 * 38 degrees C / 100.4 F or more) chills are part of the fever, R50.9 (Index: Fever, with chills).
 */
export function applyFeverChills(cands: Candidates): void {
  const chills = cands.finalsIn('R6883');
  if (chills.length === 0) return;
  let fever: Span | undefined;
  for (const s of cands.ctx.sentences) {
    const lower = s.lower;
    for (let i = 0; i < lower.length && !fever; i++) {
      const temp =
        TEMP.test(lower[i]) &&
        lower.slice(Math.max(0, i - 4), i + 3).some((w) => /^(temperature|temp|t|°c|°f|c|f|degrees|axillary|tympanic)$/.test(w));
      if (!FEBRILE.test(lower[i]) && !temp) continue;
      if (assertWords(s.words)[i] !== 'present') continue;
      fever = { start: s.starts[i], end: s.ends[i] };
    }
    if (fever) break;
  }
  if (!fever) return;
  const kept = cands.assign('R50.9', 'fever with chills is coded as fever (Index: Fever, with chills, R50.9)', chills, [fever]);
  for (const c of chills)
    cands.discard(c, `Discarded: R68.83 is chills without fever, and the patient is febrile${kept ? '; coded R50.9' : ''}.`);
}
