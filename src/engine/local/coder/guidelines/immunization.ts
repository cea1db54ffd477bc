import type { Candidates } from '../candidate.js';

const VACCINE =
  /\b(vaccines?|vaccinations?|vaccinated|immuni[sz]ations?|immuni[sz]ed|shots?|booster|dtap|tdap|td|ipv|mmrv?|hpv|varicella|pneumococcal|pcv\d*|ppsv\d*|prevnar|shingrix|hib|rotavirus|meningococcal|menacwy|hepatitis [ab] series)\b/i;
// The act at this visit, not a status ("fully vaccinated", "received all vaccines as a child").
const GIVEN = /\b(given|administered|(received|updated) today)\b/i;
// A vaccine deferred, due later or given at another time was not given at this visit.
const NOT_GIVEN =
  /\b(deferred|defer|not given|not administered|due (at|in|next)|next visit|will (receive|get|return)|up to date|last (year|month|week|season)|ago|previously|in (19|20)\d\d|not|never|no)\b|n't\b/i;
const REFUSED = /\b(declined?|declines|refused?|refuses)\b/i;
const BY_CAREGIVER = /\b(parents?|mother|father|guardian|caregiver|family)\b[^.;]{0,20}\b(declined?|declines|refused?|refuses)\b/i;

/**
 * A vaccine given at this visit is coded Z23, as the reason for the encounter or beside a routine
 * examination (I.C.21.c.2): from a sentence that names a vaccine and says it was given today. One
 * declined is an immunization not carried out (Index: Immunization, not done, because of): Z28.21
 * for the patient's refusal, Z28.82 for a parent's or caregiver's.
 */
export function applyImmunization(cands: Candidates): void {
  const { sentences, text } = cands.ctx;
  for (const s of sentences) {
    if (s.starts.length === 0) continue;
    const span = { start: s.starts[0], end: s.ends[s.ends.length - 1] };
    const said = text.slice(span.start, span.end);
    if (!VACCINE.test(said)) continue;
    if (BY_CAREGIVER.test(said))
      cands.assign('Z28.82', 'immunization not carried out because of caregiver refusal (I.C.21.c.3)', [], [span]);
    else if (REFUSED.test(said)) cands.assign('Z28.21', 'immunization not carried out because of patient refusal (I.C.21.c.3)', [], [span]);
    else if (GIVEN.test(said) && !NOT_GIVEN.test(said))
      cands.assign('Z23', 'encounter for immunization: a vaccine given at this visit (I.C.21.c.2)', [], [span]);
  }
}
