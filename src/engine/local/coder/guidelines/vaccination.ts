import type { Candidates, Span } from '../candidate.js';
import { assertWords } from '../assertions.js';
import { wordTest } from '../word-tests.js';

// Word sets, not patterns: every word of the note is looked up.
const words = (list: string) => new Set(list.split(' '));
const VACCINE = words(
  'vaccine vaccines vaccination vaccinations vaccinated immunization immunizations immunized immunisation immunisations ' +
    'booster boosters dtap tdap td ipv mmr mmrv varicella hpv pcv13 pcv15 pcv20 ppsv23 hepatitis shingrix zoster influenza flu ' +
    'covid-19 rsv hib rotavirus meningococcal',
);
// The words that say a vaccination, not only a vaccine's name.
const VACCINATION = words(
  'vaccine vaccines vaccination vaccinations vaccinated immunization immunizations immunized shot shots booster boosters',
);
const isVaccine = wordTest((w) => VACCINE.has(w));
const GIVEN = words('given administered received gave administer injected updated');
// Advice, a refusal or a later date is no vaccination at this visit.
const NOT_NOW = words(
  'due declined declines refused refuses recommend recommended offered next later deferred discussed consider schedule scheduled',
);

/**
 * A vaccine given at the encounter is coded Z23 (I.C.21.c.2, "Encounter for immunization"), as
 * well as whatever else the visit is for (a routine child exam, I.C.21.c.13); a vaccine named
 * as due, declined or planned is not.
 */
export function applyVaccination(cands: Candidates): void {
  if (cands.finalsIn('Z23').length) return;
  for (const s of cands.ctx.sentences) {
    const lower = s.lower;
    const v = s.ids.findIndex(isVaccine);
    if (v < 0 || !lower.some((w) => VACCINATION.has(w))) continue;
    const g = lower.findIndex((w) => GIVEN.has(w));
    if (g < 0 || lower.slice(Math.max(0, Math.min(v, g) - 3), Math.max(v, g) + 3).some((w) => NOT_NOW.has(w))) continue;
    const asserted = assertWords(s.words);
    if (asserted[g] !== 'present' || asserted[v] !== 'present') continue;
    const span: Span = { start: s.starts[Math.min(v, g)], end: s.ends[Math.max(v, g)] };
    cands.assign('Z23', 'a vaccine given at this encounter (I.C.21.c.2: Z23, encounter for immunization)', [], [span]);
    return;
  }
}

const REFUSED = words('declined declines refused refuses');
const isRefused = wordTest((w) => REFUSED.has(w));
const CAREGIVER = words('parent parents mother father guardian caregiver family');

/**
 * A vaccine the patient declines is an immunization not carried out (I.C.21.c.3; Index:
 * Immunization, not done, because of): Z28.21 for the patient's refusal, Z28.82 for a parent's or
 * caregiver's.
 */
export function applyVaccineRefusal(cands: Candidates): void {
  if (cands.finalsIn('Z23').length) return;
  for (const s of cands.ctx.sentences) {
    const lower = s.lower;
    const r = s.ids.findIndex(isRefused);
    if (r < 0) continue;
    const v = lower.findIndex((w) => VACCINE.has(w) || w === 'shot' || w === 'shots');
    if (v < 0) continue;
    const span: Span = { start: s.starts[Math.min(v, r)], end: s.ends[Math.max(v, r)] };
    if (lower.slice(Math.max(0, r - 4), r).some((w) => CAREGIVER.has(w)))
      cands.assign('Z28.82', 'immunization not carried out because of caregiver refusal (I.C.21.c.3)', [], [span]);
    else cands.assign('Z28.21', 'immunization not carried out because of patient refusal (I.C.21.c.3)', [], [span]);
    return;
  }
}
