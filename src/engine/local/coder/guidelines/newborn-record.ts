import { type Candidates, dotted } from '../candidate.js';

/**
 * The birth record (I.C.16.a.2, I.C.21.c.12): a newborn's birth status, Z38.- by the place and the
 * manner of delivery ("Newborn, born in hospital, by cesarean" Z38.01), is listed first. The
 * mother's codes are not the newborn's: chapter 15 codes are used only on the maternal record,
 * never on the record of the newborn (I.C.15.a), and neither is the outcome of delivery (Z37,
 * I.C.15.b.5) nor the weeks of gestation (Z3A, for the mother's record).
 */
export function applyNewbornRecord(cands: Candidates): void {
  const [birth] = cands.finalsIn('Z38');
  if (!birth) return;
  for (const c of cands.finalsIn('O', 'Z37', 'Z3A'))
    cands.discard(
      c,
      `Discarded: ${dotted(c.code)} belongs on the mother's record, never on the newborn's (I.C.15.a); this is a birth record (${dotted(birth.code)}).`,
    );
  cands.list.splice(cands.list.indexOf(birth), 1);
  cands.list.unshift(birth);
}
